// h100_icache.cu -- is k5's ~150-cycle `cp.async.wait_group` site an instruction-fetch
// cost? nvcc unrolls k5's tile loop 8 times, so each iteration's switch over
// `wait_group N` runs code the SM never fetched before. Here the same site
// (clock; switch on a run-time N; wait_group N; clock) runs 8 times, the loop
// fully unrolled (fresh code each iteration) or not unrolled (the same code
// again), twice over (`pass` 0 and 1: the second pass finds the unrolled code fetched).
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_icache.cu -o ic && ./ic
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
#define WAITN(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
__device__ __forceinline__ void site(int n) {
  switch (n) {
    case 0: WAITN(0); break; case 1: WAITN(1); break; case 2: WAITN(2); break;
    case 3: WAITN(3); break; case 4: WAITN(4); break; case 5: WAITN(5); break;
    case 6: WAITN(6); break; case 7: WAITN(7); break; default: WAITN(8); break;
  }
}
__device__ __forceinline__ void straight() { WAITN(2); }
template <int MODE>
__global__ void k(const int* nv, u64* out) {
  int n = nv[threadIdx.x & 1];
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    if (MODE == 0) {
#pragma unroll
      for (int i = 0; i < 8; ++i) { u64 a = clk(); site(n + (i & 1) * 0); u64 b = clk(); if (threadIdx.x == 0) out[pass * 8 + i] = b - a; n += nv[2]; }
    } else if (MODE == 1) {
#pragma unroll 1
      for (int i = 0; i < 8; ++i) { u64 a = clk(); site(n); u64 b = clk(); if (threadIdx.x == 0) out[pass * 8 + i] = b - a; n += nv[2]; }
    } else {
#pragma unroll
      for (int i = 0; i < 8; ++i) { u64 a = clk(); straight(); u64 b = clk(); if (threadIdx.x == 0) out[pass * 8 + i] = b - a; n += nv[2]; }
    }
  }
}
int main() {
  int h[3] = {2, 2, 0};
  int* nv; u64* out; cudaMalloc(&nv, sizeof h); cudaMalloc(&out, 16 * sizeof(u64));
  cudaMemcpy(nv, h, sizeof h, cudaMemcpyHostToDevice);
  const char* names[] = {"switch_unrolled", "switch_not_unrolled", "straight_unrolled"};
  printf("test,launch,pass,iteration cycles...\n");
  for (int m = 0; m < 3; ++m)
    for (int l = 0; l < 3; ++l) {
      if (m == 0) k<0><<<1, 128>>>(nv, out); else if (m == 1) k<1><<<1, 128>>>(nv, out); else k<2><<<1, 128>>>(nv, out);
      cudaDeviceSynchronize();
      u64 o[16]; cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
      for (int p = 0; p < 2; ++p) { printf("%s,%d,%d", names[m], l, p); for (int i = 0; i < 8; ++i) printf(",%llu", o[p * 8 + i]); printf("\n"); }
    }
  return 0;
}
