// h100_bar_arrive.cu -- what `bar.arrive` costs the arriving warp when it does not complete
// the barrier (k3's consumers arrive on their "empty" barrier while the producer waits; its
// sites measure 8-13 cycles, where the last arriver's cost in sync §1.3 is 12). Two warps on
// `bar 1, 64`: warp 0 reads its clock, arrives (`bar.arrive`) and reads its clock again; warp 1
// arrives with `bar.sync` 2000 cycles earlier (warp 0 completes the barrier) or later (it
// does not). Also with the kernels' `st.shared` probe between the arrive and the second clock.
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_bar_arrive.cu -o ba && ./ba
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ void spin(unsigned d) { u64 t = clk(); while (clk() - t < d) {} }
__global__ void k(int warp0_first, int probe, u64* out) {
  __shared__ unsigned s[64];
  const int warp = threadIdx.x >> 5;
  const unsigned a = (unsigned)__cvta_generic_to_shared(s + (threadIdx.x & 31));
  for (int r = 0; r < 16; ++r) {
    __syncthreads();
    if (warp == 0) {
      if (!warp0_first) spin(2000);
      u64 t0 = clk();
      asm volatile("bar.arrive 1, 64;" ::: "memory");
      if (probe) asm volatile("st.shared.u32 [%0], %0;" ::"r"(a) : "memory");
      u64 t1 = clk();
      if (threadIdx.x == 0) out[r] = t1 - t0;
    } else {
      if (warp0_first) spin(2000);
      asm volatile("bar.sync 1, 64;" ::: "memory");
    }
  }
}
int main() {
  u64* out; cudaMalloc(&out, 16 * 8);
  printf("test,median cycles (t1 - t0 around warp 0's bar.arrive, 15 repetitions)\n");
  for (int first = 0; first < 2; ++first)
    for (int probe = 0; probe < 2; ++probe) {
      k<<<1, 64>>>(first, probe, out); k<<<1, 64>>>(first, probe, out); cudaDeviceSynchronize();
      u64 h[16]; cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
      u64 v[15]; for (int i = 0; i < 15; ++i) v[i] = h[i + 1];
      for (int i = 0; i < 15; ++i) for (int j = i + 1; j < 15; ++j) if (v[j] < v[i]) { u64 t = v[i]; v[i] = v[j]; v[j] = t; }
      printf("bar_arrive_%s%s,%llu\n", first ? "not_completing" : "completing", probe ? "_then_st_shared" : "", v[7]);
    }
  return 0;
}
