// What a device-function call and its return cost a warp (issue #25: o9_device_calls runs
// 46 % longer on the device than in the model, which charged `call` and `ret` as one-cycle
// arithmetic; h100_cold_start.cu mode 5: o9's calls alone take 503 cycles).
//
// One warp; between two clock reads, 16 dependent steps v = 3 v + 1:
//   mode 0: inlined (16 dependent IMADs)
//   mode 1: each a call of a __noinline__ function (CALL.REL.NOINC ... RET.REL.NODEC)
//   mode 2: as 1, only the odd lanes calling (a divergent call per step: BSSY/BSYNC)
//   mode 3: as 0, only the odd lanes (predicated IMADs)
// 5 untimed then 21 timed launches; prints `calls,mode,cycles` (median of lane 0's).
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_calls.cu -o calls && ./calls
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

__device__ __noinline__ int g(int x) { return x * 3 + 1; }
__device__ __forceinline__ int gi(int x) { return x * 3 + 1; }

template <int MODE>
__global__ void calls(int seed, int* out, u64* tim) {
  const int lane = threadIdx.x;
  int v = lane + seed;
  const u64 t0 = clk();
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    if (MODE == 0) v = gi(v);
    if (MODE == 1) v = g(v);
    if (MODE == 2 && (lane & 1)) v = g(v);
    if (MODE == 3 && (lane & 1)) v = gi(v);
  }
  asm volatile("" ::"r"(v));
  const u64 t1 = clk();
  out[lane] = v;
  tim[lane] = t1 - t0;
}

template <int MODE>
void run(int* d_out, u64* d_tim) {
  std::vector<u64> c, h(32);
  for (int r = 0; r < 26; ++r) {
    calls<MODE><<<1, 32>>>(r, d_out, d_tim);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), d_tim, h.size() * sizeof(u64), cudaMemcpyDeviceToHost);
    if (r >= 5) c.push_back(h[0]);
  }
  std::sort(c.begin(), c.end());
  printf("calls,%d,%llu\n", MODE, c[c.size() / 2]);
}

int main() {
  int* d_out;
  u64* d_tim;
  cudaMalloc(&d_out, 32 * sizeof(int));
  cudaMalloc(&d_tim, 32 * sizeof(u64));
  printf("calls,mode,cycles\n");
  run<0>(d_out, d_tim);
  run<1>(d_out, d_tim);
  run<2>(d_out, d_tim);
  run<3>(d_out, d_tim);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
