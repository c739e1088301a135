// h100_arrive_after_stores.cu -- does a `bar.arrive` wait for the warp's shared stores issued
// just before it? (issue #25: k3's producers write a tile with four STS.128, read the clock and
// arrive: 23 cycles between the clock reads on the H100, where the consumers' arrive with no
// stores before it takes 13.) Two warps on barrier 1 of 64 threads: warp 0 stores S bytes per
// lane to shared memory (none, one 32-bit store, one 128-bit store, four 128-bit stores), reads
// the clock, arrives with `bar.arrive` (not completing: warp 1 arrives 2000 cycles later with
// `bar.sync`) or `bar.sync` (completing: warp 1 arrived 2000 cycles earlier), reads the clock.
// Prints the median of 15 repetitions of the clock difference around warp 0's barrier.
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_arrive_after_stores.cu -o aas && ./aas
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ void spin(unsigned d) { u64 t = clk(); while (clk() - t < d) {} }
template <int STORES, bool SYNC>
__global__ void k(unsigned v, u64* out) {
  __shared__ alignas(16) unsigned s[64 * 16];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const unsigned a = (unsigned)__cvta_generic_to_shared(s + lane * 4);
  for (int r = 0; r < 16; ++r) {
    __syncthreads();
    if (warp == 0) {
      if (SYNC) spin(2000);
      if (STORES == 1) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v + r) : "memory");
      if (STORES >= 2) asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(a), "r"(v + r) : "memory");
      if (STORES == 4) {
        asm volatile("st.shared.v4.u32 [%0+512], {%1, %1, %1, %1};" ::"r"(a), "r"(v + r) : "memory");
        asm volatile("st.shared.v4.u32 [%0+1024], {%1, %1, %1, %1};" ::"r"(a), "r"(v + r) : "memory");
        asm volatile("st.shared.v4.u32 [%0+1536], {%1, %1, %1, %1};" ::"r"(a), "r"(v + r) : "memory");
      }
      u64 t0 = clk();
      if (SYNC) asm volatile("bar.sync 1, 64;" ::: "memory");
      else asm volatile("bar.arrive 1, 64;" ::: "memory");
      u64 t1 = clk();
      if (threadIdx.x == 0) out[r] = t1 - t0;
    } else {
      if (!SYNC) spin(2000);
      asm volatile("bar.sync 1, 64;" ::: "memory");
    }
  }
}
template <int STORES, bool SYNC>
void run(u64* d) {
  k<STORES, SYNC><<<1, 64>>>(7u, d);
  k<STORES, SYNC><<<1, 64>>>(7u, d);
  cudaDeviceSynchronize();
  u64 h[16];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  u64 v[15];
  for (int i = 0; i < 15; ++i) v[i] = h[i + 1];
  for (int i = 0; i < 15; ++i) for (int j = i + 1; j < 15; ++j) if (v[j] < v[i]) { u64 t = v[i]; v[i] = v[j]; v[j] = t; }
  const char* st[] = {"none", "st32", "st128", "", "st128x4"};
  printf("arrive_after_stores,%s,%s,%llu\n", SYNC ? "bar.sync_completing" : "bar.arrive_not_completing", st[STORES], v[7]);
}
int main() {
  u64* d; cudaMalloc(&d, 16 * 8);
  printf("test,barrier,stores_before,cycles (median of 15, clock pair around the barrier)\n");
  run<0, false>(d); run<1, false>(d); run<2, false>(d); run<4, false>(d);
  run<0, true>(d); run<1, true>(d); run<2, true>(d); run<4, true>(d);
  return 0;
}
