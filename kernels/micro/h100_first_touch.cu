// Is a kernel's first global load slower than the single L2 hits of h100_l2_stream.cu
// (279 cycles between the clock reads)? (issue #25: h100_cold_start.cu's one load and
// store take 380 cycles, the model 248.)
//
// A warm-up kernel reads every line the probe will read (so they are in L2), then the
// probe: one warp, 8 dependent steps, each a load whose value decides a branch before the
// next clock read; the steps' addresses, in ints from the buffer's start:
//   0: t            (the launch's first global access)
//   1: t + 32       (the next line)
//   2: t + 64       (the line after)
//   3: t + 16384    (64 KB on)
//   4: t + 16416    (its next line)
//   5: t + 2 M      (8 MB on: another 2 MB page)
//   6: t + 2 M + 32 (its next line)
//   7: t            (step 0's line again)
// mode 0: as above; mode 1: step 0 preceded, before the first clock read, by a load of an
// unrelated line 32 MB on (the page walk / first access done before the probe's); mode 2:
// that load by another warp of the CTA, before a __syncthreads that both pass before the
// probe; mode 3: as 1, the unrelated line in another allocation (`other`).
// 5 untimed then 21 timed launches (warm-up kernel before each); prints
// `first_touch,mode,step,cycles` (median of lane 0's).
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_first_touch.cu -o ft && ./ft
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

__device__ __forceinline__ long long off(int k) {
  switch (k) {
    case 1: return 32;
    case 2: return 64;
    case 3: return 16384;
    case 4: return 16416;
    case 5: return 2 << 20;
    case 6: return (2 << 20) + 32;
    default: return 0;
  }
}

__global__ void warm(const int* in, int* sink) {
  int s = 0;
  for (int k = 0; k < 7; ++k) s += __ldcg(in + off(k) + threadIdx.x);
  s += __ldcg(in + (8 << 20) + threadIdx.x);
  if (s == 12345) sink[0] = s;
}

template <int MODE>
__global__ void probe(const int* in, const int* other, int* sink, u64* tim) {
  const int t = threadIdx.x & 31;
  int acc = 0;
  if (MODE == 1 || (MODE == 2 && threadIdx.x >= 32) || MODE == 3) {
    acc = __ldcg((MODE == 3 ? other : in + (8 << 20)) + t);
    if (acc == 12345) sink[1] = acc;
  }
  if (MODE == 2) {
    __syncthreads();
    if (threadIdx.x >= 32) return;
  }
  u64 prev = clk();
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int v = __ldcg(in + off(k) + t + acc);
    if (v == 12345) sink[2 + k] = v;  // the branch waits for the load
    acc += v;
    const u64 now = clk();
    if (t == 0) tim[k] = now - prev;
    prev = now;
  }
}

template <int MODE>
void run(const int* d_in, const int* d_other, int* d_sink, u64* d_tim) {
  std::vector<std::vector<u64>> c(8);
  std::vector<u64> h(8);
  for (int r = 0; r < 26; ++r) {
    warm<<<1, 32>>>(d_in, d_sink);
    probe<MODE><<<1, MODE == 2 ? 64 : 32>>>(d_in, d_other, d_sink, d_tim);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), d_tim, 8 * sizeof(u64), cudaMemcpyDeviceToHost);
    if (r >= 5)
      for (int k = 0; k < 8; ++k) c[k].push_back(h[k]);
  }
  for (int k = 0; k < 8; ++k) {
    std::sort(c[k].begin(), c[k].end());
    printf("first_touch,%d,%d,%llu\n", MODE, k, c[k][c[k].size() / 2]);
  }
}

int main() {
  int *d_in, *d_sink;
  u64* d_tim;
  const size_t n = (size_t)16 << 20;  // 64 MB of zeros
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMemset(d_in, 0, n * sizeof(int));
  cudaMalloc(&d_sink, 64 * sizeof(int));
  cudaMalloc(&d_tim, 8 * sizeof(u64));
  printf("first_touch,mode,step,cycles\n");
  int* d_other;
  cudaMalloc(&d_other, 1024 * sizeof(int));
  cudaMemset(d_other, 0, 1024 * sizeof(int));
  run<0>(d_in, d_other, d_sink, d_tim);
  run<1>(d_in, d_other, d_sink, d_tim);
  run<2>(d_in, d_other, d_sink, d_tim);
  run<3>(d_in, d_other, d_sink, d_tim);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
