// warm_clock.cuh -- shared by the micro-benchmarks measured since 2026-11-30: bring the GPU out of
// idle before timing and print the SM clock the cycles were counted at (memory latencies in SM
// cycles depend on it, and a process's first launches can run at a lower clock).
//   print_sm_mhz("prefix")   runs one warp spinning ~0.3 s on %clock64, reading %globaltimer at
//                            both ends, and prints `prefix,sm_mhz,<MHz>`.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void warm_clock_kernel(unsigned long long* out) {
  unsigned long long g0, g1, c0, c1, c;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  do { asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)); } while (c - c0 < 600000000ull);
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  out[0] = c1 - c0;
  out[1] = g1 - g0;
}

inline void print_sm_mhz(const char* prefix) {
  unsigned long long* d;
  unsigned long long h[2];
  if (cudaMalloc(&d, 16) != cudaSuccess) { printf("error,warm_clock cudaMalloc\n"); exit(1); }
  warm_clock_kernel<<<1, 32>>>(d);
  if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost) != cudaSuccess) {
    printf("error,warm_clock\n");
    exit(1);
  }
  cudaFree(d);
  printf("%s,sm_mhz,%.0f\n", prefix, h[0] * 1000.0 / h[1]);
}
