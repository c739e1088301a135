// h100_mbar_init.cu -- what k4's setup costs its thread 0 (issue #25). Before its first
// __syncthreads, k4's thread 0 initialises 2 * STAGES mbarriers, then runs
// fence.mbarrier_init.release.cluster and fence.proxy.async.shared::cta; every other warp
// waits for it at the barrier (147-157 cycles on the H100, the model 97-98).
// Tests (one CTA of 4 warps, like k4's consumers; thread 0 runs the part under test inside
// `if (tid == 0)`, then every warp reads the clock, passes __syncthreads, a st.shared
// probe, and reads the clock again; the statistic is warp 1's median over 31 runs of the
// cycles from its first clock read to its second, and warp 0's from before the `if`; then
// the same two of the launch's first run, where the objects are new):
//   nothing        the if with nothing in it
//   init4 / init8  4 / 8 mbarrier.init
//   init8_fence    8 inits, fence.mbarrier_init.release.cluster
//   init8_fences   8 inits, both fences (k4's setup with STAGES = 4)
//   proxy_fence    fence.proxy.async.shared::cta alone
//   init_fence     fence.mbarrier_init.release.cluster alone
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_mbar_init.cu -o mi && ./mi
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
typedef unsigned long long u64;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error,%s,%d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ void init(unsigned a, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n) : "memory");
}
constexpr int REPS = 32;
__global__ void setup(int test, u64* out) {
  __shared__ alignas(8) unsigned long long mb[8];
  __shared__ unsigned probe[128];
  const int tid = threadIdx.x, warp = tid >> 5;
  const unsigned base = (unsigned)__cvta_generic_to_shared(mb);
  const unsigned pa = (unsigned)__cvta_generic_to_shared(probe + tid);
  for (int r = 0; r < REPS; ++r) {
    __syncthreads();
    u64 t0 = clk();
    if (tid == 0) {
      const int n = test == 1 ? 4 : (test >= 2 && test <= 4) ? 8 : 0;
      for (int s = 0; s < n; ++s) init(base + 8 * s, 1 + s);
      if (test == 3 || test == 4 || test == 6) asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      if (test == 4 || test == 5) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    u64 t1 = clk();
    __syncthreads();
    asm volatile("st.shared.u32 [%0], %0;" ::"r"(pa) : "memory");
    u64 t2 = clk();
    if ((tid & 31) == 0) { out[(r * 4 + warp) * 2] = t2 - t1; out[(r * 4 + warp) * 2 + 1] = t2 - t0; }
  }
}
int main() {
  u64* out; CK(cudaMalloc(&out, REPS * 4 * 2 * sizeof(u64)));
  std::vector<u64> h(REPS * 4 * 2);
  const char* names[] = {"nothing", "init4", "init8", "init8_fence", "init8_fences", "proxy_fence", "init_fence"};
  printf("test,warp 1 (clock..barrier..probe..clock),warp 0 (from before the if),the same in the launch's first run (the objects new)\n");
  for (int test = 0; test < 7; ++test) {
    for (int rep = 0; rep < 2; ++rep) { setup<<<1, 128>>>(test, out); CK(cudaDeviceSynchronize()); }
    CK(cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    std::vector<u64> w1, w0;
    for (int r = 1; r < REPS; ++r) { w1.push_back(h[(r * 4 + 1) * 2]); w0.push_back(h[(r * 4 + 0) * 2 + 1]); }
    std::sort(w1.begin(), w1.end()); std::sort(w0.begin(), w0.end());
    printf("mbar_init,%s,%llu,%llu,first run %llu,%llu\n", names[test], w1[w1.size() / 2], w0[w0.size() / 2],
           h[(0 * 4 + 1) * 2], h[(0 * 4 + 0) * 2 + 1]);
  }
  return 0;
}
