// How often does a dependent mbarrier spin loop poll, and how late does it see
// an arrive? (issue #25: the model's test_wait spin polls every ~139 cycles and
// wakes 64–210 cycles after an arrive; the H100's one-lane spin wakes 92–241
// cycles after it on a 150-cycle grid, `wake_after_wait` rows of
// data/calibration/h100_micro.csv, although a dependent chain of failing
// test_waits costs 58 cycles a link, sync calibration §2.3.)
//
// Lane 0 of warp 1 spins on a count-1 mbarrier and counts its polls; lane 0 of
// warp 0 arrives D cycles after the spin began. Loop forms:
//   0 test_wait, predicate -> selp -> loop   (as h100_try_wait.cu)
//   1 test_wait, branch on the predicate     (PTX `@!p bra`)
//   2 try_wait,  branch on the predicate
//   3 test_wait + 8 dependent IMADs in the loop body
// Each with lane 0 alone or all 32 lanes of warp 1 spinning (lanes 0..L-1 with
// `./sp L1,L2,...`: forms 1 and 2 only, a few D, for how many lanes a warp
// needs to be answered as a full warp).
// Prints `lanes,form,D,polls,cycles_per_poll,wake` (medians of REPS).
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_spin_period.cu -o sp && ./sp
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

__device__ __forceinline__ unsigned tw(unsigned a) {
  unsigned d;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
               : "=r"(d) : "r"(a) : "memory");
  return d;
}

constexpr int REPS = 32;
__global__ void probe(int form, unsigned delay, int nlanes, u64* out) {
  __shared__ alignas(8) unsigned long long mb;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  unsigned a = (unsigned)__cvta_generic_to_shared(&mb);
  for (int r = 0; r < REPS; ++r) {
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(a) : "memory");
    __syncthreads();
    if (warp == 0) {
      if (lane == 0) {
        u64 t0 = clk();
        while (clk() - t0 < delay) {}
        u64 ta = clk();
        asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(a) : "memory");
        out[r * 4 + 0] = ta;
      }
    } else if (lane < nlanes) {
      u64 t1 = clk();
      unsigned n = 0, x = 1;
      if (form == 0) {
        unsigned done;
        do { done = tw(a); ++n; } while (!done);
      } else if (form == 1) {
        asm volatile("{ .reg .pred p;\nL1: mbarrier.test_wait.parity.shared.b64 p, [%1], 0;\n add.u32 %0, %0, 1;\n @!p bra L1; }"
                     : "+r"(n) : "r"(a) : "memory");
      } else if (form == 2) {
        asm volatile("{ .reg .pred p;\nL2: mbarrier.try_wait.parity.shared.b64 p, [%1], 0;\n add.u32 %0, %0, 1;\n @!p bra L2; }"
                     : "+r"(n) : "r"(a) : "memory");
      } else {
        unsigned done;
        do {
          done = tw(a);
          ++n;
#pragma unroll
          for (int i = 0; i < 8; ++i) asm volatile("mad.lo.u32 %0, %0, 3, 1;" : "+r"(x));
        } while (!done);
      }
      u64 t2 = clk();
      if (lane == 0) {
        out[r * 4 + 1] = t2;
        out[r * 4 + 2] = t1;
        out[r * 4 + 3] = n + (x == 12345 ? 1 : 0);
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(a) : "memory");
    __syncthreads();
  }
}

int main(int argc, char** argv) {
  u64* out;
  cudaMalloc(&out, REPS * 4 * sizeof(u64));
  std::vector<u64> h(REPS * 4);
  std::vector<int> lane_set = {1, 32}, forms = {0, 1, 2, 3};
  std::vector<unsigned> ds = {0u, 20u, 40u, 60u, 80u, 100u, 120u, 140u, 160u, 200u, 250u, 300u, 400u, 500u, 700u, 1000u, 20000u};
  if (argc > 1) {
    lane_set.clear();
    for (char* t = strtok(argv[1], ","); t; t = strtok(nullptr, ",")) lane_set.push_back(atoi(t));
    forms = {1, 2};
    ds = {20u, 140u, 500u, 20000u};
  }
  printf("lanes,form,D,polls,cycles_per_poll,wake\n");
  for (int nl : lane_set)
  for (int form : forms) {
    for (unsigned d : ds) {
      probe<<<1, 64>>>(form, d, nl, out);
      probe<<<1, 64>>>(form, d, nl, out);
      cudaDeviceSynchronize();
      cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost);
      std::vector<long long> polls, per, wake;
      for (int r = 1; r < REPS; ++r) {
        long long n = (long long)h[r * 4 + 3];
        polls.push_back(n);
        per.push_back((long long)(h[r * 4 + 1] - h[r * 4 + 2]) / (n ? n : 1));
        wake.push_back((long long)(h[r * 4 + 1] - h[r * 4 + 0]));
      }
      std::sort(polls.begin(), polls.end());
      std::sort(per.begin(), per.end());
      std::sort(wake.begin(), wake.end());
      printf("%d,%d,%u,%lld,%lld,%lld\n", nl, form, d, polls[polls.size() / 2], per[per.size() / 2], wake[wake.size() / 2]);
    }
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
