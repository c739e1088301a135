// h100_l2_stream.cu -- how long a global load from L2 takes when it is not a pointer
// chase (issue #25). The preset's l2_latency (367) is a dependent `ld.global.cg` chase;
// k3's producers take 1530 cycles a tile for 4 rounds of 4 coalesced `ld.global.nc`
// (+ st.shared) where that figure predicts ~1750, and §1.3's single `ld.volatile.global`
// answers in ~290.
// Tests (the input, 64 KB, is read once by an earlier launch, so its lines are in L2):
//   line      one warp: t0; one coalesced 4-byte-per-lane load of line k (ld.global.nc or
//             ld.global.cg or ld.volatile.global); its value used; t1. Per line, k = 0..63
//             (lines 128 B apart, 8 KB apart to spread them): is there a near and a far L2?
//   chase     16 dependent ld.global.cg (one thread), lines 128 B apart spread over a
//             footprint of 64 KB .. 64 MB, the chain warm in L2 (min of 8 runs of the 16).
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_l2_stream.cu -o l2s && ./l2s
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
typedef unsigned long long u64;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error,%s,%d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
// A clock read that names `v` as an input, so that it is issued after v's producer.
__device__ __forceinline__ u64 clk_after(unsigned v) {
  u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "r"(v) : "memory"); return t;
}
constexpr int N = 16384;  // ints: 64 KB
__global__ void touch(const unsigned* in, unsigned* sink) {
  unsigned s = 0;
  for (int i = threadIdx.x; i < N; i += blockDim.x) s += in[i];
  if (s == 0xdeadbeef) sink[0] = s;
}
template <int KIND>
__global__ void line(const unsigned* in, u64* out, unsigned* sink) {
  const int lane = threadIdx.x;
  unsigned acc = 0;
  for (int k = 0; k < 64; ++k) {
    const unsigned* p = in + ((k * 2048 + (k >> 3) * 32) % N) + lane;  // 8 KB apart, 8 lines each
    unsigned v;
    u64 t0 = clk();
    if (KIND == 0) asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (KIND == 1) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (KIND == 2) asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(v));
    u64 t1 = clk_after(acc);
    if (lane == 0) out[k] = t1 - t0;
  }
  if (acc == 0xdeadbeef) sink[0] = acc;
}
// A dependent chase of 16 `ld.global.cg` over a footprint of F bytes: hop k reads the word
// that names hop k + 1, lines 128 B apart in a fixed pseudo-random order.
__global__ void chase(const unsigned* g, unsigned start, u64* out, unsigned* sink) {
  unsigned p = start;
  u64 best = ~0ull;
  for (int r = 0; r < 8; ++r) {
    u64 t0 = clk();
#pragma unroll
    for (int k = 0; k < 16; ++k) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p) : "l"(g + p));
    u64 t1 = clk();
    if (t1 - t0 < best) best = t1 - t0;
  }
  out[0] = best;
  if (p == 0xdeadbeef) sink[0] = p;
}
int main() {
  unsigned *in, *sink; u64* out;
  CK(cudaMalloc(&in, N * 4)); CK(cudaMalloc(&sink, 4)); CK(cudaMalloc(&out, 64 * 8 * sizeof(u64)));
  std::vector<unsigned> h(N); for (int i = 0; i < N; ++i) h[i] = i * 7 + 1;
  CK(cudaMemcpy(in, h.data(), N * 4, cudaMemcpyHostToDevice));
  u64 o[512];
  const char* kinds[] = {"nc", "cg", "volatile"};
  for (int kind = 0; kind < 3; ++kind) {
    for (int rep = 0; rep < 2; ++rep) {
      touch<<<1, 256>>>(in, sink);
      if (kind == 0) line<0><<<1, 32>>>(in, out, sink);
      if (kind == 1) line<1><<<1, 32>>>(in, out, sink);
      if (kind == 2) line<2><<<1, 32>>>(in, out, sink);
      CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(o, out, 64 * sizeof(u64), cudaMemcpyDeviceToHost));
    std::vector<u64> v(o, o + 64); std::sort(v.begin(), v.end());
    printf("l2_stream,line_%s,sorted 64 lines", kinds[kind]);
    for (int k = 0; k < 64; ++k) printf(",%llu", v[k]);
    printf("\n");
  }
  // Chases over 64 KB .. 64 MB (the chain written by the host: 16+ hops, each to a line
  // 128 B-aligned, spread over the footprint by a multiplicative step).
  unsigned* big; CK(cudaMalloc(&big, 64u << 20));
  for (unsigned fp : {1u << 16, 1u << 18, 1u << 20, 1u << 22, 1u << 24, 1u << 26}) {
    const unsigned lines = fp / 128, words = fp / 4;
    std::vector<unsigned> hb(words, 0);
    unsigned cur = 0;
    for (int k = 0; k < 64; ++k) {
      unsigned nxt = (unsigned)(((unsigned long long)(k + 1) * 2654435761ull) % lines) * 32;
      if (nxt == cur) nxt = (nxt + 32) % words;
      hb[cur] = nxt; cur = nxt;
    }
    CK(cudaMemcpy(big, hb.data(), (size_t)words * 4, cudaMemcpyHostToDevice));
    for (int rep = 0; rep < 2; ++rep) { chase<<<1, 1>>>(big, 0, out, sink); CK(cudaDeviceSynchronize()); }
    CK(cudaMemcpy(o, out, sizeof(u64), cudaMemcpyDeviceToHost));
    printf("l2_stream,chase_cg_x16,footprint=%u,%llu\n", fp, o[0]);
  }
  return 0;
}
