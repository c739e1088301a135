// What a global atomic and an acquire load cost one thread (issue #25: the grid sync o6
// and the last-block reduction o7 run 51 % / 30 % longer on the device than in the model,
// which charges an atomic the L2 latency).
//
// Lane 0 of one warp, the line warm in L2 (a warm-up kernel touches it); between two
// clock reads, each result used by a dependent branch before the second read:
//   0: atom.global.add.u32 (relaxed, its old value used)
//   1: atom.add.release.gpu.u32
//   2: atom.global.inc.u32 (atomicInc)
//   3: ld.acquire.gpu.u32
//   4: ld.relaxed.gpu.u32 (ld.volatile-like, L2)
//   5: red.global.add.u32 (no return), then the clock
// 5 untimed then 21 timed launches; prints `atomics,op,cycles` (median).
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_atomics.cu -o at && ./at
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

__global__ void warm(unsigned* p) { if (threadIdx.x == 0) p[0] += 0; }

template <int OP>
__global__ void probe(unsigned* p, u64* tim, unsigned* sink) {
  if (threadIdx.x != 0) return;
  unsigned v = 0;
  const u64 t0 = clk();
  if (OP == 0) asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(p) : "memory");
  if (OP == 1) asm volatile("atom.add.release.gpu.u32 %0, [%1], 1;" : "=r"(v) : "l"(p) : "memory");
  if (OP == 2) asm volatile("atom.global.inc.u32 %0, [%1], 1000000;" : "=r"(v) : "l"(p) : "memory");
  if (OP == 3) asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if (OP == 4) asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if (OP == 5) asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
  if (v == 0xdeadbeef) sink[0] = v;  // the branch waits for the result
  const u64 t1 = clk();
  tim[0] = t1 - t0;
}

template <int OP>
void run(unsigned* p, u64* tim, unsigned* sink) {
  std::vector<u64> c;
  u64 h;
  for (int r = 0; r < 26; ++r) {
    warm<<<1, 32>>>(p);
    probe<OP><<<1, 32>>>(p, tim, sink);
    cudaDeviceSynchronize();
    cudaMemcpy(&h, tim, sizeof(u64), cudaMemcpyDeviceToHost);
    if (r >= 5) c.push_back(h);
  }
  std::sort(c.begin(), c.end());
  printf("atomics,%d,%llu\n", OP, c[c.size() / 2]);
}

int main() {
  unsigned *p, *sink;
  u64* tim;
  cudaMalloc(&p, 128);
  cudaMalloc(&sink, 128);
  cudaMalloc(&tim, sizeof(u64));
  cudaMemset(p, 0, 128);
  printf("atomics,op,cycles\n");
  run<0>(p, tim, sink);
  run<1>(p, tim, sink);
  run<2>(p, tim, sink);
  run<3>(p, tim, sink);
  run<4>(p, tim, sink);
  run<5>(p, tim, sink);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
