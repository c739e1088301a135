// h100_latency.cu -- the latencies the SM timing preset (`configs/sm_timing/h100.yaml`) needs
// and no calibration file gives: dependent ALU, clock read, warp shuffle, shared and global
// loads, the issue cost of a store, a one-warp bar.sync, and whether named-barrier arrivals
// of different barrier ids or of different resident CTAs share one port per SM.
//
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_latency.cu -o lat && ./lat
// Prints `test,metric,value` lines (cycles of the SM clock; medians over repetitions).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error,%s,%d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

constexpr int REPS = 64;
// out[rep] = cycles of one repetition, for the test selected by `which`.
__global__ void chains(int which, u64* out, unsigned* gbuf, unsigned seed) {
  __shared__ unsigned sbuf[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) sbuf[i] = (i * 33 + 1) & 1023;
  __syncthreads();
  unsigned v = seed + threadIdx.x;
  for (int r = 0; r < REPS; ++r) {
    u64 t0 = 0, t1 = 0;
    switch (which) {
      case 0: t0 = clk(); t1 = clk(); break;  // clock read after clock read
      case 1:                                  // 32 dependent add.u32
        t0 = clk();
#pragma unroll
        for (int k = 0; k < 32; ++k) asm volatile("add.u32 %0, %0, 3;" : "+r"(v));
        asm volatile("mov.u32 %0, %0;" : "+r"(v)); t1 = clk(); break;
      case 2:                                  // 32 dependent mad.lo.u32 (IMAD)
        t0 = clk();
#pragma unroll
        for (int k = 0; k < 32; ++k) asm volatile("mad.lo.u32 %0, %0, 3, 1;" : "+r"(v));
        t1 = clk(); break;
      case 3:                                  // 32 dependent shfl.sync.bfly
        t0 = clk();
#pragma unroll
        for (int k = 0; k < 32; ++k) asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v));
        t1 = clk(); break;
      case 4: {                                // 32 dependent ld.shared (pointer chase)
        unsigned a = (unsigned)__cvta_generic_to_shared(sbuf), p = v & 1023;
        t0 = clk();
#pragma unroll
        for (int k = 0; k < 32; ++k) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(p) : "r"(a + 4 * p));
        v += p; t1 = clk(); break;
      }
      case 5: {                                // 16 dependent ld.global.cg (L2)
        unsigned p = (v * 64) & ((1 << 20) - 1);
        t0 = clk();
#pragma unroll
        for (int k = 0; k < 16; ++k) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p) : "l"(gbuf + p));
        v += p; t1 = clk(); break;
      }
      case 6: {                                // 16 dependent ld.global.ca, hot in L1
        unsigned p = v & 255;
        t0 = clk();
#pragma unroll
        for (int k = 0; k < 16; ++k) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(p) : "l"(gbuf + (p & 255)));
        v += p; t1 = clk(); break;
      }
      case 7: {                                // 4 independent ld.global.cg, then use all
        unsigned a, b, c, d, base = (v * 64 + r * 4096) & ((1 << 20) - 1);
        t0 = clk();
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(a) : "l"(gbuf + base));
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(b) : "l"(gbuf + base + 64));
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(c) : "l"(gbuf + base + 128));
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(d) : "l"(gbuf + base + 192));
        v += a + b + c + d; asm volatile("mov.u32 %0, %0;" : "+r"(v)); t1 = clk(); break;
      }
      case 8: {                                // st.shared then clock
        unsigned a = (unsigned)__cvta_generic_to_shared(sbuf + (threadIdx.x & 1023));
        t0 = clk(); asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory"); t1 = clk(); break;
      }
      case 9:                                  // bar.sync 0 with the whole block (clock before, st.shared probe, clock)
        t0 = clk(); asm volatile("bar.sync 0;" ::: "memory");
        asm volatile("st.shared.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(sbuf)), "r"(v) : "memory");
        t1 = clk(); break;
      case 10: {                               // 32 dependent ld.global.cg over 64 MB (DRAM)
        unsigned p = (v * 4099) & ((1 << 24) - 1);
        t0 = clk();
#pragma unroll
        for (int k = 0; k < 8; ++k) { asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p) : "l"(gbuf + (p & ((1 << 24) - 1)))); p = p * 2654435761u + 12345u; }
        v += p; t1 = clk(); break;
      }
    }
    if (threadIdx.x == 0) out[blockIdx.x * REPS + r] = t1 - t0;
  }
  if (v == 0x12345678) gbuf[0] = v;
}

// Arrival-port probe: every warp of every block loops `bar.sync id` (id = 1 + group, the
// group's warps only) ITER times; out[block] = cycles per iteration of warp 0 of the block.
constexpr int ITER = 256;
__global__ void arrivals(int groups, u64* out) {
  const int warps = blockDim.x / 32, w = threadIdx.x / 32, per = warps / groups;
  const unsigned id = 1 + w / per, n = per * 32;
  __syncthreads();
  u64 t0 = clk();
  for (int i = 0; i < ITER; ++i) asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
  u64 t1 = clk();
  unsigned smid; asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = (t1 - t0) / ITER; out[2 * blockIdx.x + 1] = smid; }
}

static u64 median(std::vector<u64> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main() {
  const char* names[] = {"clock_after_clock", "add_u32_x32", "imad_x32", "shfl_bfly_x32", "ld_shared_chase_x32",
                         "ld_global_cg_chase_x16", "ld_global_ca_hot_chase_x16", "ld_global_cg_4_independent",
                         "st_shared_issue", "bar_sync_block", "ld_global_cg_dram_x8"};
  unsigned* gbuf; u64* out;
  CK(cudaMalloc(&gbuf, (64u << 20)));
  std::vector<unsigned> h(1 << 24);
  for (size_t i = 0; i < h.size(); ++i) h[i] = (unsigned)((i * 2654435761ull + 17) & ((1 << 20) - 1)) & ~63u;
  CK(cudaMemcpy(gbuf, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&out, 1024 * REPS * sizeof(u64)));
  std::vector<u64> ho(1024 * REPS);
  for (int which = 0; which < 11; ++which) {
    for (int threads : {32, 256}) {
      if (which != 9 && threads != 32) continue;
      chains<<<1, threads>>>(which, out, gbuf, 7);
      CK(cudaDeviceSynchronize());
      chains<<<1, threads>>>(which, out, gbuf, 7);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(ho.data(), out, REPS * sizeof(u64), cudaMemcpyDeviceToHost));
      std::vector<u64> v(ho.begin() + 1, ho.begin() + REPS);
      printf("%s,threads=%d,median,%llu\n", names[which], threads, median(v));
      printf("%s,threads=%d,min,%llu\n", names[which], threads, *std::min_element(v.begin(), v.end()));
    }
  }
  int nsm; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
  // Arrival port: blocks per SM 1, 2, 4 (grid = nsm * k); warps per block 8 or 16; groups 1 or 2.
  for (int warps : {8, 16}) for (int groups : {1, 2}) for (int k : {1, 2, 4}) {
    if (warps * k > 64) continue;
    int grid = nsm * k;
    arrivals<<<grid, warps * 32>>>(groups, out);
    CK(cudaDeviceSynchronize());
    arrivals<<<grid, warps * 32>>>(groups, out);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(ho.data(), out, 2 * grid * sizeof(u64), cudaMemcpyDeviceToHost));
    std::vector<int> per_sm(nsm, 0); std::vector<u64> v;
    for (int b = 0; b < grid; ++b) { v.push_back(ho[2 * b]); per_sm[ho[2 * b + 1]]++; }
    int mx = *std::max_element(per_sm.begin(), per_sm.end());
    printf("bar_arrivals,warps=%d groups=%d ctas_per_sm=%d (max seen %d),period_median,%llu\n", warps, groups, k, mx, median(v));
  }
  return 0;
}
