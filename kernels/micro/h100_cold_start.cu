// What a short kernel's warp pays that a long one hides (issue #25: the own kernels,
// timed from their first instruction to their ret, run 35-60 % longer on the device than
// in the model, kernels/own/timing/, docs/results/calibration_own_kernels.md).
//
// One CTA of 64 threads; each thread stores (clock at its end - clock at its start).
// Launched 5 times untimed, then 21 times; medians of warp 0's largest lane.
//   mode 0: nothing between the clock reads
//   mode 1: v = in[t]; out[t] = v                (the host rewrites `in` before each launch)
//   mode 2: as 1, `in` not rewritten between launches
//   mode 3: as 1, then a second load 4 KB further on (its own cycles: `second`)
//   mode 4: o9's body: v = odd lane ? f(in[t], 100) : sq(in[t]); put(out + t, v)
//           (__noinline__ calls, a nested call, divergent paths)
//   mode 5: as 4 with v from the thread index (no load)
//   mode 6: as 1, with 256 independent arithmetic instructions between the load's
//           issue and its use (fresh straight-line code, each executed once)
// Prints `cold_start,mode,first,second` (cycles; second: mode 3 only, else 0).
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_cold_start.cu -o cs && ./cs
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

__device__ __noinline__ int sq(int x) { return x * x; }
__device__ __noinline__ int f(int a, int b) { return a > b ? sq(a - b) : sq(b - a) + 1; }
__device__ __noinline__ void put(int* p, int v) {
  if (v & 1) *p = v;
  else *p = -v;
}

template <int MODE>
__global__ void cold(const int* __restrict__ in, int* __restrict__ out, u64* tim) {
  const u64 t0 = clk();
  const int t = threadIdx.x;
  u64 mid = 0;
  if (MODE == 1 || MODE == 2) {
    out[t] = in[t];
  } else if (MODE == 3) {
    const int v = in[t];
    out[t] = v;
    mid = clk();
    out[t + 64] = in[t + 1024];
  } else if (MODE == 4) {
    const int v = (t & 1) ? f(in[t], 100) : sq(in[t]);
    put(out + t, v);
  } else if (MODE == 5) {
    const int v = (t & 1) ? f(t, 100) : sq(t);
    put(out + t, v);
  } else if (MODE == 6) {
    const int v = in[t];
    unsigned a = t, b = t + 1, c = t + 2, d = t + 3;
#pragma unroll
    for (int i = 0; i < 64; ++i)
      asm volatile("xor.b32 %0, %0, %1;\n xor.b32 %1, %1, %2;\n xor.b32 %2, %2, %3;\n xor.b32 %3, %3, %0;"
                   : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
    out[t] = v + (int)(a ^ b ^ c ^ d);
  }
  const u64 t1 = clk();
  tim[t] = t1 - t0;
  if (MODE == 3) tim[64 + t] = t1 - mid;
}

template <int MODE>
void run(int* d_in, int* d_out, u64* d_tim, const std::vector<int>& h_in) {
  std::vector<u64> first, second, h(128);
  for (int r = 0; r < 26; ++r) {
    if (MODE != 2 || r == 0) cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(int), cudaMemcpyHostToDevice);
    cold<MODE><<<1, 64>>>(d_in, d_out, d_tim);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), d_tim, h.size() * sizeof(u64), cudaMemcpyDeviceToHost);
    if (r < 5) continue;
    first.push_back(*std::max_element(h.begin(), h.begin() + 32));
    second.push_back(MODE == 3 ? *std::max_element(h.begin() + 64, h.begin() + 96) : 0);
  }
  std::sort(first.begin(), first.end());
  std::sort(second.begin(), second.end());
  printf("cold_start,%d,%llu,%llu\n", MODE, first[first.size() / 2], second[second.size() / 2]);
}

int main() {
  std::vector<int> h_in(4096);
  for (int i = 0; i < 4096; ++i) h_in[i] = i * 7 + 3;
  int *d_in, *d_out;
  u64* d_tim;
  cudaMalloc(&d_in, 4096 * sizeof(int));
  cudaMalloc(&d_out, 4096 * sizeof(int));
  cudaMalloc(&d_tim, 128 * sizeof(u64));
  printf("cold_start,mode,first,second\n");
  run<0>(d_in, d_out, d_tim, h_in);
  run<1>(d_in, d_out, d_tim, h_in);
  run<2>(d_in, d_out, d_tim, h_in);
  run<3>(d_in, d_out, d_tim, h_in);
  run<4>(d_in, d_out, d_tim, h_in);
  run<5>(d_in, d_out, d_tim, h_in);
  run<6>(d_in, d_out, d_tim, h_in);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
