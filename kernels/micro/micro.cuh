// micro.cuh -- shared by the micro-benchmarks measured since 2026-11-30 (h100_ldgsts_ca.cu,
// h100_grid_sync.cu, h100_arrive_after_fill.cu, h100_last_block.cu, h100_atomic_contention.cu,
// h100_fence_next.cu; the older ones each carry their own copies of the first three):
//   u64                      unsigned long long
//   CK(call)                 a CUDA runtime call; on an error prints `error,<what>,<line>` and exits 1
//   clk()                    %clock64 (device), ordered as a memory clobber
//   print_sm_mhz("prefix")   brings the GPU out of idle (one warp spinning ~0.3 s on %clock64,
//                            reading %globaltimer at both ends) and prints `prefix,sm_mhz,<MHz>`:
//                            memory latencies in SM cycles depend on the clock, and a process's
//                            first launches can run at a lower one.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

typedef unsigned long long u64;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error,%s,%d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

__global__ void warm_clock_kernel(u64* out) {
  u64 g0, g1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  const u64 c0 = clk();
  while (clk() - c0 < 600000000ull) {}
  const u64 c1 = clk();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  out[0] = c1 - c0;
  out[1] = g1 - g0;
}

inline void print_sm_mhz(const char* prefix) {
  u64* d;
  u64 h[2];
  CK(cudaMalloc(&d, 16));
  warm_clock_kernel<<<1, 32>>>(d);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost));
  CK(cudaFree(d));
  printf("%s,sm_mhz,%.0f\n", prefix, h[0] * 1000.0 / h[1]);
}
