// What does an mbarrier arrive wait for while other warps spin on test_wait?
// (issue #25: sync §2.4's 2f row with 31 `test_wait` spinners, the producer's
// arrive costs 83 cycles on the H100 and 118 in the model; with 15 spinners 50
// and 50.) The model's SM has one mbarrier path, held 6 cycles by each poll
// (`test_wait_occupancy`), and serves the warps in an order that rotates by one
// warp each cycle, so a new arrive waits for ~12 polls when 31 warps spin.
//
// Lane 0 of warp P arrives on a count-1 mbarrier (its clock before and after:
// the arrive's cost; ptxas puts the barrier address's S2UR/UMOV/ULEA between
// the two clock reads, as in §2.4's bench) while a set S of full warps spins
// on it. The arrive comes D cycles after the spin began, D = 400 + 37 r over
// the repetitions r (so it meets the spin at many phases). Spin forms: 0
// `test_wait` then `add` then `@!p bra`; 1 the C++ `while (!test_wait)` (selp);
// 2 `test_wait; @!p bra` alone (the model's probe). `setup` 11: 11 dependent
// IMADs before the arrive (ptxas moves them out of the clock pair: same cost).
// Sets: the first n warps other than P, all 31, the warps on P's scheduler
// only (warp % 4 == P % 4: 7), the warps on the other three (24), 7 warps on
// the other three.
// Prints `set,form,setup,P,n_spinners,arrive_median,arrive_min,arrive_max,
// first_wake,median_wake,last_wake` (medians over the repetitions but the
// first; wakes from the clock before the arrive).
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_arrive_contention.cu -o ac && ./ac
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

constexpr int REPS = 24, NW = 32;
__device__ __forceinline__ unsigned tw(unsigned a) {
  unsigned d;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
               : "=r"(d) : "r"(a) : "memory");
  return d;
}

template <int SETUP>
__global__ void probe(int P, unsigned mask, int form, u64* out) {
  __shared__ alignas(8) unsigned long long mb;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  unsigned a = (unsigned)__cvta_generic_to_shared(&mb);
  for (int r = 0; r < REPS; ++r) {
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(a) : "memory");
    __syncthreads();
    u64 t0 = clk();
    if (warp == P) {
      if (lane == 0) {
        unsigned delay = 400 + 37 * r;
        while (clk() - t0 < delay) {}
        u64 ta = clk();
        unsigned x = r;
#pragma unroll
        for (int i = 0; i < SETUP; ++i) asm volatile("mad.lo.u32 %0, %0, 3, 1;" : "+r"(x));
        asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(a) : "memory");
        u64 tb = clk();
        out[(r * NW + warp) * 2 + 0] = ta;
        out[(r * NW + warp) * 2 + 1] = tb;
      }
    } else if (mask >> warp & 1) {
      unsigned n = 0;
      if (form == 0) {
        asm volatile("{ .reg .pred p;\nL1: mbarrier.test_wait.parity.shared.b64 p, [%1], 0;\n add.u32 %0, %0, 1;\n @!p bra L1; }"
                     : "+r"(n) : "r"(a) : "memory");
      } else if (form == 1) {
        while (!tw(a)) ++n;
      } else {
        asm volatile("{ .reg .pred p;\nL2: mbarrier.test_wait.parity.shared.b64 p, [%0], 0;\n @!p bra L2; }"
                     :: "r"(a) : "memory");
      }
      u64 t2 = clk();
      if (lane == 0) { out[(r * NW + warp) * 2 + 0] = t2; out[(r * NW + warp) * 2 + 1] = n; }
    }
    __syncthreads();
    if (threadIdx.x == 0) asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(a) : "memory");
    __syncthreads();
  }
}

static long long med(std::vector<long long> v) { std::sort(v.begin(), v.end()); return v.empty() ? -1 : v[v.size() / 2]; }

int main() {
  u64* out;
  cudaMalloc(&out, REPS * NW * 2 * sizeof(u64));
  std::vector<u64> h(REPS * NW * 2);
  printf("set,form,setup,P,n_spinners,arrive_median,arrive_min,arrive_max,first_wake,median_wake,last_wake\n");
  int form = 0, setup = 0;
  auto go = [&](const char* set, int P, unsigned mask) {
    mask &= ~(1u << P);
    for (int k = 0; k < 2; ++k) {
      if (setup) probe<11><<<1, NW * 32>>>(P, mask, form, out);
      else probe<0><<<1, NW * 32>>>(P, mask, form, out);
    }
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost);
    std::vector<long long> cost, first, mid, last;
    for (int r = 1; r < REPS; ++r) {
      u64 ta = h[(r * NW + P) * 2], tb = h[(r * NW + P) * 2 + 1];
      cost.push_back((long long)(tb - ta));
      std::vector<long long> wk;
      for (int w = 0; w < NW; ++w) if (mask >> w & 1) wk.push_back((long long)(h[(r * NW + w) * 2] - ta));
      std::sort(wk.begin(), wk.end());
      if (!wk.empty()) { first.push_back(wk.front()); mid.push_back(wk[wk.size() / 2]); last.push_back(wk.back()); }
    }
    std::vector<long long> c = cost;
    std::sort(c.begin(), c.end());
    printf("%s,%d,%d,%d,%d,%lld,%lld,%lld,%lld,%lld,%lld\n", set, form, setup, P, __builtin_popcount(mask), med(cost), c.front(), c.back(), med(first), med(mid), med(last));
  };
  for (form = 1; form <= 2; ++form)
    for (int n : {1, 3, 7, 15, 31}) {
      unsigned m = 0;
      for (int w = 1; w <= n; ++w) m |= 1u << w;
      go("first_n", 0, m);
    }
  for (setup = 11; setup <= 11; ++setup)
    for (form = 0; form <= 2; ++form)
      for (int n : {1, 15, 31}) {
        unsigned m = 0;
        for (int w = 1; w <= n; ++w) m |= 1u << w;
        go("first_n", 0, m);
      }
  form = 0;
  setup = 0;
  for (int n = 0; n <= 31; n += (n < 8 ? 1 : 4)) {
    unsigned m = 0;
    for (int w = 1, k = 0; w < NW && k < n; ++w, ++k) m |= 1u << w;
    go("first_n", 0, m);
  }
  go("first_n", 0, 0xfffffffeu);
  for (int P : {0, 1, 2, 3, 17, 31}) {
    unsigned same = 0, other = 0;
    for (int w = 0; w < NW; ++w) (w % 4 == P % 4 ? same : other) |= 1u << w;
    go("all", P, 0xffffffffu);
    go("same_sched", P, same);
    go("other_scheds", P, other);
  }
  // As many spinners on P's scheduler as on the others (7 each way).
  unsigned o7 = 0;
  for (int w = 1, k = 0; w < NW && k < 7; ++w) if (w % 4 != 0) { o7 |= 1u << w; ++k; }
  go("other_scheds_7", 0, o7);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
