// h100_branch.cu -- what a branch costs a warp (k5's 150-cycle `wait_group` site is a
// compare-and-branch tree around a 5-cycle `DEPBAR`; sync §1.3's "+ dependent branch" rows
// cost ≈ 15 cycles more than the model gives). One warp, all lanes, uniform values; each
// test is 16 repetitions between two clock reads, in inline PTX. `%p` comes from a value
// loaded at run time, so neither nvcc nor ptxas can fold the branch; the skipped block
// holds 6 dependent IMADs (too long to be if-converted).
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_branch.cu -o br && ./br
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
#define SKIP6 "mad.lo.u32 %0, %0, 3, 1;\n mad.lo.u32 %0, %0, 3, 1;\n mad.lo.u32 %0, %0, 3, 1;\n mad.lo.u32 %0, %0, 3, 1;\n mad.lo.u32 %0, %0, 3, 1;\n mad.lo.u32 %0, %0, 3, 1;\n"
// setp on a ready register, then a branch on it: taken when k == v.
#define SETP_BRA "{ .reg .pred q; setp.eq.u32 q, %1, %2; @q bra.uni L%=; " SKIP6 " L%=: }\n"
// The same without `.uni`: a branch the compiler must treat as possibly divergent (k5's
// switch tree is made of these: `@%p bra`, no BSSY, the predicate from a per-thread register).
#define SETP_BRA_DIV "{ .reg .pred q; setp.eq.u32 q, %1, %2; @q bra L%=; " SKIP6 " L%=: }\n"
template <int T>
__global__ void k(const unsigned* in, u64* out) {
  unsigned v = in[0], k0 = in[1], k1 = in[2], acc = in[3];
  __shared__ unsigned s[32];
  s[threadIdx.x] = v;
  __syncwarp();
  u64 best = ~0ull;
  for (int r = 0; r < 16; ++r) {
    u64 a = clk();
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      if (T == 0) asm volatile(SETP_BRA : "+r"(acc) : "r"(v), "r"(k1));   // not taken
      if (T == 1) asm volatile(SETP_BRA : "+r"(acc) : "r"(v), "r"(k0));   // taken
      if (T == 2) asm volatile("mad.lo.u32 %0, %0, 3, 1;" : "+r"(acc));   // baseline: 1 IMAD
      if (T == 3) {                                                       // ld.shared; setp; bra (not taken)
        unsigned x;
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"((unsigned)__cvta_generic_to_shared(s + (threadIdx.x & 31))));
        asm volatile(SETP_BRA : "+r"(acc) : "r"(x), "r"(k1));
      }
      if (T == 5) asm volatile(SETP_BRA_DIV : "+r"(acc) : "r"(v), "r"(k1));   // not taken, not .uni
      if (T == 6) asm volatile(SETP_BRA_DIV : "+r"(acc) : "r"(v), "r"(k0));   // taken, not .uni
      if (T == 4) {                                                       // ld.shared; used by an add (no branch)
        unsigned x;
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"((unsigned)__cvta_generic_to_shared(s + (threadIdx.x & 31))));
        asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(x));
      }
    }
    u64 b = clk();
    best = b - a < best ? b - a : best;
    if (r == 15 && threadIdx.x == 0) out[T] = best;
  }
  if (acc == 0x12345u) out[31] = acc;
}
int main() {
  unsigned h[4] = {7, 7, 8, 1};
  unsigned* in; u64* out; cudaMalloc(&in, sizeof h); cudaMalloc(&out, 32 * sizeof(u64));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  const char* names[] = {"setp_bra_not_taken_x16", "setp_bra_taken_x16", "imad_x16", "ld_shared_setp_bra_x16", "ld_shared_add_x16",
                         "setp_bra_div_not_taken_x16", "setp_bra_div_taken_x16"};
  printf("test,cycles (min of 16 repetitions, 16 per repetition)\n");
  for (int rep = 0; rep < 2; ++rep) {
    k<0><<<1, 32>>>(in, out); k<1><<<1, 32>>>(in, out); k<2><<<1, 32>>>(in, out); k<3><<<1, 32>>>(in, out); k<4><<<1, 32>>>(in, out);
    k<5><<<1, 32>>>(in, out); k<6><<<1, 32>>>(in, out);
    cudaDeviceSynchronize();
  }
  u64 o[32]; cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 7; ++t) printf("%s,%llu\n", names[t], o[t]);
  return 0;
}
