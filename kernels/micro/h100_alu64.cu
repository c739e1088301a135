// h100_alu64.cu -- what a 64-bit integer add costs a chain of 64-bit arithmetic (issue #25).
// ptxas makes `add.u64` two instructions, the low half then the high half with the carry
// (IADD3 + IADD3.X). Does a chain of 64-bit operations pay for both halves in turn, or do the
// halves go down the chain side by side? One warp; each test is a chain of 16 pairs
// (add; xor), each pair depending on the last, between two clock reads, in inline PTX (min of
// 16 repetitions). The xor keeps ptxas from merging the adds of the chain into fewer
// instructions. (A `cp.async` whose address is one `add.s64` made right before it:
// h100_ldgsts_probe.cu, `cp_add64_commit_sts`.)
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_alu64.cu -o a64 && ./a64
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
template <int T>
__global__ void k(const u64* in, u64* out) {
  u64 a = in[0], b = in[1], c = in[5];
  unsigned x = (unsigned)in[2], y = (unsigned)in[3], x0 = (unsigned)in[4];
  u64 best = ~0ull;
  for (int r = 0; r < 16; ++r) {
    u64 t0 = clk();
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      if (T == 0) asm volatile("add.u32 %0, %0, %1;\n\txor.b32 %0, %0, %2;" : "+r"(x) : "r"(y), "r"(x0));
      if (T == 1) asm volatile("add.u64 %0, %0, %1;\n\txor.b64 %0, %0, %2;" : "+l"(a) : "l"(b), "l"(c));
    }
    u64 t1 = clk();
    if (t1 - t0 < best) best = t1 - t0;
  }
  if (threadIdx.x == 0) { out[T] = best; out[16 + T] = a + x; }
}
int main() {
  u64 h[6] = {12345, 678, 9, 3, 0x5555, 0x123456789abcull};
  u64 *in, *out; cudaMalloc(&in, sizeof h); cudaMalloc(&out, 32 * sizeof(u64));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  const char* names[] = {"add_xor_u32_x16", "add_xor_u64_x16"};
  for (int rep = 0; rep < 2; ++rep) {
    k<0><<<1, 32>>>(in, out); k<1><<<1, 32>>>(in, out);
    cudaDeviceSynchronize();
  }
  u64 o[32]; cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  printf("test,cycles (min of 16 repetitions; chain of 16 pairs)\n");
  for (int t = 0; t < 2; ++t) printf("alu64,%s,%llu\n", names[t], o[t]);
  return 0;
}
