// h100_branch_tree.cu -- what k5's `wait_group` site costs outside k5 (issue #25).
// With its instrumentation's log store, nvcc cannot keep cuda::pipeline's counters in
// registers, and every `consumer_wait` becomes a compare-and-branch tree over
// `cp.async.wait_group 0..8` (kernels/reference/k5_cpasync_pipeline_prof.ptx, $L__BB1_9 to
// $L__BB1_31; no BSSY, no BRX in its SASS). Without the log store the site is one DEPBAR
// (23 cycles a site on the H200; 150 with the tree). Here the tree, copied from that PTX,
// runs between two clock reads with a run-time value (k5's steady state takes the path for
// 2), 8 times per pass: the loop rolled (the same code each time) or unrolled (fresh code
// each time); two passes (pass 1 finds the unrolled code fetched). Nothing is outstanding,
// so every wait_group returns at once.
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_branch_tree.cu -o bt && ./bt
// Prints `branch_tree,mode,value,warps,pass,cycles of iterations 0..7` (lane 0 of warp 0).
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
// k5's tree: %1 = tail (rs19), %2 = head (rs3 = rs18 + 1), %3 = rs18; the result (%0) counts the
// taken exits so that nothing is dead code.
#define TREE                                                                                   \
  "{\n .reg .pred p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18;\n"                  \
  " .reg .b16 rs13, rs14, rs15, rs16;\n"                                                      \
  " and.b16 rs13, %1, 255;\n and.b16 rs14, %2, 255;\n setp.eq.s16 p7, rs14, rs13;\n"          \
  " @p7 bra T31_%=;\n sub.s16 rs16, %3, %1;\n and.b16 rs15, rs16, 255;\n"                      \
  " setp.gt.s16 p8, rs15, 3;\n @p8 bra T18_%=;\n setp.gt.s16 p14, rs15, 1;\n @p14 bra T15_%=;\n" \
  " setp.eq.s16 p17, rs15, 0;\n @p17 bra T28_%=;\n setp.eq.s16 p18, rs15, 1;\n @p18 bra T14_%=;\n" \
  " bra.uni T29_%=;\n"                                                                        \
  "T14_%=:\n cp.async.wait_group 1;\n bra.uni T30_%=;\n"                                      \
  "T18_%=:\n setp.gt.s16 p9, rs15, 5;\n @p9 bra T22_%=;\n setp.eq.s16 p12, rs15, 4;\n @p12 bra T26_%=;\n" \
  " setp.eq.s16 p13, rs15, 5;\n @p13 bra T21_%=;\n bra.uni T29_%=;\n"                          \
  "T21_%=:\n cp.async.wait_group 5;\n bra.uni T30_%=;\n"                                      \
  "T15_%=:\n setp.eq.s16 p15, rs15, 2;\n @p15 bra T27_%=;\n setp.eq.s16 p16, rs15, 3;\n @p16 bra T17_%=;\n" \
  " bra.uni T29_%=;\n"                                                                        \
  "T17_%=:\n cp.async.wait_group 3;\n bra.uni T30_%=;\n"                                      \
  "T22_%=:\n setp.eq.s16 p10, rs15, 6;\n @p10 bra T25_%=;\n setp.ne.s16 p11, rs15, 7;\n @p11 bra T29_%=;\n" \
  " cp.async.wait_group 7;\n bra.uni T30_%=;\n"                                               \
  "T28_%=:\n cp.async.wait_group 0;\n bra.uni T30_%=;\n"                                      \
  "T26_%=:\n cp.async.wait_group 4;\n bra.uni T30_%=;\n"                                      \
  "T27_%=:\n cp.async.wait_group 2;\n bra.uni T30_%=;\n"                                      \
  "T25_%=:\n cp.async.wait_group 6;\n bra.uni T30_%=;\n"                                      \
  "T29_%=:\n cp.async.wait_group 8;\n"                                                        \
  "T30_%=:\n add.u32 %0, %0, 1;\n"                                                            \
  "T31_%=:\n}\n"
// One timed site: the tree between two clock reads, the time to out[slot] (lane 0).
__device__ __forceinline__ void site(short& tail, short head, short rs18, unsigned& acc, u64* out, int slot) {
  asm volatile("mov.b16 %0, %0;" : "+h"(tail));  // a fresh value each time (no hoisting)
  u64 a = clk();
  asm volatile(TREE : "+r"(acc) : "h"(tail), "h"(head), "h"(rs18) : "memory");
  u64 b = clk();
  if (threadIdx.x == 0) out[slot] = b - a;
}
template <int UNROLL>
__global__ void k(const short* in, u64* out) {
  short tail = in[0], head = in[1], rs18 = in[2];
  unsigned acc = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    if (UNROLL) {
#pragma unroll
      for (int i = 0; i < 8; ++i) site(tail, head, rs18, acc, out, pass * 8 + i);
    } else {
#pragma unroll 1
      for (int i = 0; i < 8; ++i) site(tail, head, rs18, acc, out, pass * 8 + i);
    }
  }
  if (acc == 12345u) out[31] = acc;
}
int main() {
  short* in; u64* out; cudaMalloc(&in, 3 * sizeof(short)); cudaMalloc(&out, 32 * sizeof(u64));
  printf("test,mode,value,warps,pass,cycles of iterations 0..7\n");
  for (int value : {2, 0, 5})
    for (int warps : {1, 4})
      for (int mode = 0; mode < 2; ++mode) {
        // value = rs18 - tail; head = rs18 + 1 (never equal to tail here)
        short h[3] = {10, (short)(10 + value + 1), (short)(10 + value)};
        cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
        if (mode == 0) k<0><<<1, 32 * warps>>>(in, out); else k<1><<<1, 32 * warps>>>(in, out);
        cudaDeviceSynchronize();
        u64 o[32]; cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
        for (int pass = 0; pass < 2; ++pass) {
          printf("branch_tree,%s,%d,%d,%d", mode ? "unrolled" : "rolled", value, warps, pass);
          for (int i = 0; i < 8; ++i) printf(",%llu", o[pass * 8 + i]);
          printf("\n");
        }
      }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
