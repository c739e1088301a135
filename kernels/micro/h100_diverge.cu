// h100_diverge.cu -- what a divergent branch costs a warp when ptxas cannot predicate the
// block (k4's consumers write each event's record from lane 0 inside `BSSY; @P BRA; ...;
// BSYNC`; k1's and k5's small blocks are predicated instead). The block holds a loop with a
// run-time trip count (1), which ptxas cannot predicate; it is entered by lane 0 only
// (divergent: BSSY/BSYNC), by every lane, or by none (both uniform). 16 blocks between two
// clock reads, min of 8.
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_diverge.cu -o dv && ./dv
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
template <int T>
__global__ void k(const unsigned* in, u64* out) {
  __shared__ unsigned s[64];
  const unsigned lane = threadIdx.x & 31;
  s[lane] = in[lane];
  __syncwarp();
  const unsigned n = in[40];                                     // 1
  const unsigned who = T == 0 ? lane : in[40 + T];               // T 1: in[41] = 0 (all), T 2: in[42] = 1 (none)
  unsigned acc = in[43];
  u64 best = ~0ull;
  for (int r = 0; r < 8; ++r) {
    u64 t0 = clk();
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      if (who == 0) {
        for (unsigned j = 0; j < n; ++j) acc += s[(acc + j) & 63];
      }
      asm volatile("" : "+r"(acc));
    }
    u64 t1 = clk();
    if (t1 - t0 < best) best = t1 - t0;
  }
  if (threadIdx.x == 0) out[T] = best;
  if (acc == 0x12345) out[7] = acc;
}
int main() {
  unsigned h[64] = {0};
  h[40] = 1; h[41] = 0; h[42] = 1; h[43] = 0;
  unsigned* in; u64* out; cudaMalloc(&in, sizeof h); cudaMalloc(&out, 64);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 2; ++rep) { k<0><<<1, 32>>>(in, out); k<1><<<1, 32>>>(in, out); k<2><<<1, 32>>>(in, out); cudaDeviceSynchronize(); }
  u64 o[3]; cudaMemcpy(o, out, 24, cudaMemcpyDeviceToHost);
  printf("test,cycles (16 blocks between two clock reads, min of 8)\n");
  printf("lane0_enters_divergent_x16,%llu\nall_lanes_enter_x16,%llu\nnone_enter_x16,%llu\n", o[0], o[1], o[2]);
  return 0;
}
