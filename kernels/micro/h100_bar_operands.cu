// h100_bar_operands.cu -- does a named barrier with its id in a register release as slowly as
// one with its thread count in a register (issue #25: sync §1.3 gives the release ≈ 21 cycles
// with an immediate count, ≈ 33 with a register count; k3's SASS has `BAR.SYNC R4, 0xc0`, a
// register id with an immediate count, which the executor took for an immediate until
// 2026-11-29). Two warps on barrier 1 of 64 threads: warp 1 (the waiter) arrives at once and
// runs `bar.sync; st.shared; t2`; warp 0 spins 2000 cycles, reads tA and arrives last with
// `bar.sync` or `bar.arrive`. Four operand forms, the register ones from kernel parameters
// (`ptxas` cannot fold them): id and count immediate, id register, count register, both.
// Prints the median over 15 repetitions of t2 - tA (the release as the waiter sees it) and of
// the last arriver's own cost (tA2 - tA).
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_bar_operands.cu -o bo && ./bo
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ void spin(unsigned d) { u64 t = clk(); while (clk() - t < d) {} }
template <int FORM, bool ARRIVE>
__device__ __forceinline__ void last_bar(unsigned id, unsigned n) {
  if (FORM == 0) { if (ARRIVE) asm volatile("bar.arrive 1, 64;" ::: "memory"); else asm volatile("bar.sync 1, 64;" ::: "memory"); }
  if (FORM == 1) { if (ARRIVE) asm volatile("bar.arrive %0, 64;" ::"r"(id) : "memory"); else asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory"); }
  if (FORM == 2) { if (ARRIVE) asm volatile("bar.arrive 1, %0;" ::"r"(n) : "memory"); else asm volatile("bar.sync 1, %0;" ::"r"(n) : "memory"); }
  if (FORM == 3) { if (ARRIVE) asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); else asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
}
template <int FORM>
__device__ __forceinline__ void wait_bar(unsigned id, unsigned n) {
  if (FORM == 0) asm volatile("bar.sync 1, 64;" ::: "memory");
  if (FORM == 1) asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory");
  if (FORM == 2) asm volatile("bar.sync 1, %0;" ::"r"(n) : "memory");
  if (FORM == 3) asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
template <int FORM, bool ARRIVE>
__global__ void k(unsigned id, unsigned n, u64* out) {
  __shared__ unsigned s[64];
  __shared__ u64 ta_s;
  const int warp = threadIdx.x >> 5;
  const unsigned a = (unsigned)__cvta_generic_to_shared(s + (threadIdx.x & 31));
  for (int r = 0; r < 16; ++r) {
    __syncthreads();
    if (warp == 0) {
      spin(2000);
      u64 t0 = clk();
      last_bar<FORM, ARRIVE>(id, n);
      u64 t1 = clk();
      if (threadIdx.x == 0) { ta_s = t0; out[2 * r] = t1 - t0; }
    } else {
      wait_bar<FORM>(id, n);
      asm volatile("st.shared.u32 [%0], %0;" ::"r"(a) : "memory");
      u64 t2 = clk();
      __syncthreads();  // (pairs with warp 0's next-round __syncthreads below)
      if (threadIdx.x == 32) out[2 * r + 1] = t2 - ta_s;
      continue;
    }
    __syncthreads();
  }
}
template <int FORM, bool ARRIVE>
void run(const char* name, u64* d) {
  k<FORM, ARRIVE><<<1, 64>>>(1u, 64u, d);
  k<FORM, ARRIVE><<<1, 64>>>(1u, 64u, d);
  cudaDeviceSynchronize();
  u64 h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  u64 own[15], rel[15];
  for (int i = 0; i < 15; ++i) { own[i] = h[2 * (i + 1)]; rel[i] = h[2 * (i + 1) + 1]; }
  for (u64* v : {own, rel})
    for (int i = 0; i < 15; ++i) for (int j = i + 1; j < 15; ++j) if (v[j] < v[i]) { u64 t = v[i]; v[i] = v[j]; v[j] = t; }
  printf("bar_operands,%s,%s,%llu,%llu\n", ARRIVE ? "bar.arrive" : "bar.sync", name, own[7], rel[7]);
}
int main() {
  u64* d; cudaMalloc(&d, 32 * 8);
  printf("test,last_arriver,operands,own (tA2-tA),release (t2-tA) (medians of 15)\n");
  run<0, false>("id_imm_count_imm", d); run<1, false>("id_reg_count_imm", d);
  run<2, false>("id_imm_count_reg", d); run<3, false>("id_reg_count_reg", d);
  run<0, true>("id_imm_count_imm", d); run<1, true>("id_reg_count_imm", d);
  run<2, true>("id_imm_count_reg", d); run<3, true>("id_reg_count_reg", d);
  return 0;
}
