// h100_fetch.cu -- what fetching code costs a warp (issue #25: the executor has no instruction
// fetch; the own kernels, timed from their first instruction, run 20-55 % longer on the device
// than in the model, and a short kernel's first steps cost 80-90 cycles more than their parts,
// h100_cold_start.cu / h100_first_touch.cu). One warp, two tests, each launched 3 times in a row
// (launch 0 may find its code outside L2; the SM's instruction caches start each launch cold or
// not, which is what this says):
//   straight: 4096 independent IMADs (4 chains interleaved, one issue a cycle when fetched),
//     a clock read every 256; pass 0 runs fresh code, pass 1 the same code again (#pragma unroll 1
//     loop of 2 around it);
//   jump: a taken branch over D instructions (D = 0, 64, 256, 1024, 4096 IMADs never run) between
//     two clock reads, each D its own kernel, run once per launch.
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_fetch.cu -o fe && ./fe
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
#define M4 asm volatile("mad.lo.u32 %0, %0, %4, 1;\n mad.lo.u32 %1, %1, %4, 3;\n mad.lo.u32 %2, %2, %4, 5;\n mad.lo.u32 %3, %3, %4, 7;" : "+r"(a), "+r"(b), "+r"(c), "+r"(d) : "r"(m));
#define M16 M4 M4 M4 M4
#define M64 M16 M16 M16 M16
#define M256 M64 M64 M64 M64
__global__ void straight(unsigned m, u64* out) {
  unsigned a = m, b = m + 1, c = m + 2, d = m + 3;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    u64 t[17];
    t[0] = clk();
    M256 t[1] = clk(); M256 t[2] = clk(); M256 t[3] = clk(); M256 t[4] = clk();
    M256 t[5] = clk(); M256 t[6] = clk(); M256 t[7] = clk(); M256 t[8] = clk();
    M256 t[9] = clk(); M256 t[10] = clk(); M256 t[11] = clk(); M256 t[12] = clk();
    M256 t[13] = clk(); M256 t[14] = clk(); M256 t[15] = clk(); M256 t[16] = clk();
    if (threadIdx.x == 0)
      for (int i = 0; i < 16; ++i) out[pass * 16 + i] = t[i + 1] - t[i];
  }
  if (a + b + c + d == 0x1234567u) out[63] = a;
}
template <int D>
__global__ void jump(unsigned m, int go, u64* out) {
  unsigned a = m, b = m + 1, c = m + 2, d = m + 3;
  u64 t0 = clk();
  if (!go) {  // never true at run time (go = 1); ptxas keeps the code and branches over it
    if (D >= 64) { M64 }
    if (D >= 256) { M64 M64 M64 }
    if (D >= 1024) { M256 M256 M256 }
    if (D >= 4096) { M256 M256 M256 M256 M256 M256 M256 M256 M256 M256 M256 M256 }
  }
  u64 t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (a + b + c + d == 0x1234567u) out[63] = a;
}
int main() {
  u64* d; cudaMalloc(&d, 64 * 8);
  u64 h[64];
  printf("test,launch,what,cycles...\n");
  for (int l = 0; l < 3; ++l) {
    straight<<<1, 32>>>(3u, d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int p = 0; p < 2; ++p) {
      printf("fetch,%d,straight_pass%d_per256", l, p);
      for (int i = 0; i < 16; ++i) printf(",%llu", h[p * 16 + i]);
      printf("\n");
    }
  }
  for (int l = 0; l < 3; ++l) {
    printf("fetch,%d,jump_over_D=0/64/256/1024/4096", l);
    jump<0><<<1, 32>>>(3u, 1, d); cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost); printf(",%llu", h[0]);
    jump<64><<<1, 32>>>(3u, 1, d); cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost); printf(",%llu", h[0]);
    jump<256><<<1, 32>>>(3u, 1, d); cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost); printf(",%llu", h[0]);
    jump<1024><<<1, 32>>>(3u, 1, d); cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost); printf(",%llu", h[0]);
    jump<4096><<<1, 32>>>(3u, 1, d); cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost); printf(",%llu", h[0]);
    printf("\n");
  }
  return 0;
}
