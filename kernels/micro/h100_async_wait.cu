// h100_async_wait.cu -- two questions the SM timing preset could not answer from the
// calibration files:
//   1. What does `cp.async.wait_group N` wait for? In k5 (cp.async pipeline) every
//      iteration's wait takes ~150 cycles, also when the awaited copies completed long
//      before. Tests: a wait with nothing outstanding, after a copy that completed, after
//      global stores (D cycles before the wait), after shared stores, after global loads.
//   2. How fast does the SM answer `mbarrier.test_wait` / `try_wait` polls of k warps on
//      a phase that never completes? (2f: spins of 15 and 31 warps leave much later than
//      the model's one answer per 3 cycles predicts.)
//   Also: the cost of a single `cp.async` (+ commit) between two clock reads (k5's issue
//   site: 40 cycles, 6 without the copy).
//
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_async_wait.cu -o aw && ./aw
// Prints `test,configuration,median,min,max` lines (cycles of the SM clock; the statistic
// over repetitions and, for the poll test, over warps).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error,%s,%d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ void spin(unsigned d) { u64 t = clk(); while (clk() - t < d) {} }

constexpr int REPS = 32;
__device__ __forceinline__ void cp16(unsigned s, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait0() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void wait2() { asm volatile("cp.async.wait_group 2;" ::: "memory"); }

// One repetition of test `which` (delay `d`), all lanes of every warp; lane 0 of each warp
// writes t1 - t0 to out[(rep * warps + warp)].
__global__ void waits(int which, unsigned d, u64* out, int* gsrc, int* gdst) {
  __shared__ alignas(16) int sbuf[4096];
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, nw = blockDim.x >> 5;
  const unsigned s = (unsigned)__cvta_generic_to_shared(sbuf + 4 * tid);
  int acc = 0;
  for (int r = 0; r < REPS; ++r) {
    int* g = gdst + (size_t)r * blockDim.x * 4 + 4 * tid;
    const int* src = gsrc + (size_t)r * blockDim.x * 4 + 4 * tid;
    __syncthreads();
    u64 t0 = 0, t1 = 0;
    switch (which) {
      case 0: t0 = clk(); wait0(); t1 = clk(); break;                       // nothing outstanding
      case 1: cp16(s, src); commit(); spin(3000); t0 = clk(); wait0(); t1 = clk(); break;  // copy long done
      case 2:                                                                // 4 st.global, D, wait 0
        g[0] = r; g[1] = r + 1; g[2] = r + 2; g[3] = r + 3;
        spin(d); t0 = clk(); wait0(); t1 = clk(); break;
      case 3:                                                                // same, wait_group 2
        g[0] = r; g[1] = r + 1; g[2] = r + 2; g[3] = r + 3;
        spin(d); t0 = clk(); wait2(); t1 = clk(); break;
      case 4: {                                                              // 4 st.shared, wait 0
        sbuf[4 * tid] = r; sbuf[4 * tid + 1] = r; sbuf[4 * tid + 2] = r; sbuf[4 * tid + 3] = r;
        t0 = clk(); wait0(); t1 = clk(); break;
      }
      case 5:                                                                // 4 st.global, D, bar.sync
        g[0] = r; g[1] = r + 1; g[2] = r + 2; g[3] = r + 3;
        spin(d); t0 = clk(); __syncthreads(); t1 = clk(); break;
      case 6:                                                                // 4 st.global, D, clock only
        g[0] = r; g[1] = r + 1; g[2] = r + 2; g[3] = r + 3;
        spin(d); t0 = clk(); t1 = clk(); break;
      case 7: t0 = clk(); cp16(s, src); t1 = clk(); commit(); wait0(); break;  // one cp.async
      case 8: t0 = clk(); cp16(s, src); commit(); t1 = clk(); wait0(); break;  // cp.async + commit
      case 9: t0 = clk(); commit(); t1 = clk(); wait0(); break;              // commit alone
      case 10: t0 = clk(); cp16(s, src); commit(); wait0(); t1 = clk(); break;  // copy round trip (L2)
      case 11:                                                               // copy, stores, D, wait 0
        cp16(s, src); commit(); spin(3000);
        g[0] = r; g[1] = r + 1; g[2] = r + 2; g[3] = r + 3;
        spin(d); t0 = clk(); wait0(); t1 = clk(); break;
      case 12:                                                               // 1 st.global, D, wait 0
        g[0] = r; spin(d); t0 = clk(); wait0(); t1 = clk(); break;
      case 13: {                                                             // ld.global used, D, wait 0
        int v = src[0]; acc += v; spin(d); t0 = clk(); wait0(); t1 = clk(); break;
      }
      case 14:                                                               // st.global, D, membar.cta
        g[0] = r; g[1] = r + 1; g[2] = r + 2; g[3] = r + 3;
        spin(d); t0 = clk(); __threadfence_block(); t1 = clk(); break;
    }
    if (lane == 0) out[r * nw + warp] = t1 - t0;
    __syncthreads();
  }
  if (acc == 12345678) gdst[0] = acc;
}

// k warps (all lanes or lane 0 only) poll an mbarrier whose phase never completes,
// POLLS times each; out[warp] = cycles per poll of that warp.
constexpr int POLLS = 64;
__global__ void polls(int try_wait, int one_lane, u64* out) {
  __shared__ alignas(8) unsigned long long mb;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  unsigned a = (unsigned)__cvta_generic_to_shared(&mb);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(a) : "memory");
  __syncthreads();
  unsigned done = 0;
  u64 t0 = clk();
  if (!one_lane || lane == 0) {
    for (int i = 0; i < POLLS; ++i) {
      unsigned p;
      if (try_wait)
        asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
                     : "=r"(p) : "r"(a) : "memory");
      else
        asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
                     : "=r"(p) : "r"(a) : "memory");
      done += p;
    }
  }
  u64 t1 = clk();
  if (lane == 0) out[warp] = (t1 - t0) / POLLS + (done > 1000000 ? 1 : 0);
}

static void stats(const char* test, const char* cfg, std::vector<u64>& v) {
  std::sort(v.begin(), v.end());
  printf("%s,%s,%llu,%llu,%llu\n", test, cfg, v[v.size() / 2], v.front(), v.back());
}

int main() {
  int *gsrc, *gdst;
  u64* out;
  const size_t n = (size_t)REPS * 1024 * 4;
  CK(cudaMalloc(&gsrc, n * sizeof(int)));
  CK(cudaMalloc(&gdst, n * sizeof(int)));
  CK(cudaMalloc(&out, 4096 * sizeof(u64)));
  CK(cudaMemset(gsrc, 1, n * sizeof(int)));
  printf("test,configuration,median,min,max\n");
  const char* names[] = {"wait0_nothing", "wait0_after_done_copy", "wait0_after_4_stg", "wait2_after_4_stg",
                         "wait0_after_4_sts", "barsync_after_4_stg", "clock_after_4_stg", "one_cp_async",
                         "cp_async_commit", "commit_alone", "cp_async_round_trip", "wait0_after_done_copy_then_4_stg",
                         "wait0_after_1_stg", "wait0_after_ld_global_used", "membar_cta_after_4_stg"};
  for (int warps : {1, 4}) {
    for (int which = 0; which < 15; ++which) {
      bool delays = which == 2 || which == 3 || which == 5 || which == 6 || which == 11 || which == 12 ||
                    which == 13 || which == 14;
      std::vector<unsigned> ds = delays ? std::vector<unsigned>{0, 100, 200, 300, 400, 600, 1000}
                                        : std::vector<unsigned>{0};
      for (unsigned d : ds) {
        waits<<<1, 32 * warps>>>(which, d, out, gsrc, gdst);  // warm-up (L2-hot source)
        waits<<<1, 32 * warps>>>(which, d, out, gsrc, gdst);
        CK(cudaDeviceSynchronize());
        std::vector<u64> h(REPS * warps);
        CK(cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
        std::vector<u64> v(h.begin() + warps, h.end());  // drop repetition 0
        char cfg[96];
        snprintf(cfg, sizeof cfg, "warps=%d;delay=%u", warps, d);
        stats(names[which], cfg, v);
      }
    }
  }
  for (int tw = 0; tw < 2; ++tw)
    for (int one = 0; one < 2; ++one)
      for (int k : {1, 2, 4, 8, 12, 16, 24, 32}) {
        polls<<<1, 32 * k>>>(tw, one, out);
        polls<<<1, 32 * k>>>(tw, one, out);
        CK(cudaDeviceSynchronize());
        std::vector<u64> h(k);
        CK(cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
        char cfg[96];
        snprintf(cfg, sizeof cfg, "warps=%d;lanes=%s", k, one ? "1" : "32");
        stats(tw ? "try_wait_poll_cycles" : "test_wait_poll_cycles", cfg, h);
      }
  CK(cudaGetLastError());
  return 0;
}
