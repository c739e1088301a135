// h100_warp_ops.cu -- latency of the warp-level reduction `redux.sync` (REDUX), which k1's
// warp 0 runs between its tree and its first `__syncthreads_count`, against `shfl.sync`
// (the model's `warp_op_latency` comes from a shfl chain, h100_latency.cu). Chains of 32
// dependent ops, one warp, between two clock reads (min of 8).
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_warp_ops.cu -o wo && ./wo
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
template <int T>
__global__ void k(const unsigned* in, u64* out) {
  unsigned v = in[threadIdx.x];
  u64 best = ~0ull;
  for (int r = 0; r < 8; ++r) {
    u64 t0 = clk();
#pragma unroll
    for (int i = 0; i < 32; ++i) {
      if (T == 0) asm volatile("redux.sync.add.u32 %0, %0, 0xffffffff;" : "+r"(v));
      if (T == 1) asm volatile("redux.sync.min.u32 %0, %0, 0xffffffff;" : "+r"(v));
      if (T == 2) asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v));
      if (T == 3) asm volatile("{ .reg .u32 x; redux.sync.add.u32 x, %0, 0xffffffff; add.u32 %0, %0, x; }" : "+r"(v));
    }
    u64 t1 = clk();
    if (t1 - t0 < best) best = t1 - t0;
  }
  if (threadIdx.x == 0) out[T] = best;
  if (v == 0x12345) out[7] = v;
}
int main() {
  unsigned* in; u64* out; cudaMalloc(&in, 128); cudaMalloc(&out, 64); cudaMemset(in, 1, 128);
  for (int rep = 0; rep < 2; ++rep) { k<0><<<1, 32>>>(in, out); k<1><<<1, 32>>>(in, out); k<2><<<1, 32>>>(in, out); k<3><<<1, 32>>>(in, out); cudaDeviceSynchronize(); }
  u64 o[4]; cudaMemcpy(o, out, 32, cudaMemcpyDeviceToHost);
  printf("test,cycles (32 dependent ops, min of 8)\n");
  printf("redux_add_x32,%llu\nredux_min_x32,%llu\nshfl_bfly_x32,%llu\nredux_add_then_iadd_x32,%llu\n", o[0], o[1], o[2], o[3]);
  return 0;
}
