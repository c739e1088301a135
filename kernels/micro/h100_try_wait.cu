// h100_try_wait.cu -- how long a waiting warp takes to notice an mbarrier phase completion, as
// a function of how long it has been waiting: warp 1 starts waiting (try_wait.parity loop, or a
// test_wait.parity spin) at t_w; warp 0 arrives (count-1 barrier) D cycles later. Prints, per D,
// the median over repetitions of (waiter's clock after its loop - arriver's clock before arrive).
//
// Build and run (on the device machine): nvcc -O3 -arch=sm_90a h100_try_wait.cu -o tw && ./tw
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

constexpr int REPS = 64;
__global__ void probe(int test_wait, unsigned delay, u64* out) {
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
        out[r * 4 + 2] = t0;
      }
    } else if (lane == 0) {
      u64 tw = clk();
      unsigned done = 0;
      if (test_wait) {
        do {
          asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                       : "=r"(done) : "r"(a) : "memory");
        } while (!done);
      } else {
        do {
          asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                       : "=r"(done) : "r"(a) : "memory");
        } while (!done);
      }
      u64 t2 = clk();
      out[r * 4 + 1] = t2;
      out[r * 4 + 3] = tw;
    }
    __syncthreads();
    if (threadIdx.x == 0) asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(a) : "memory");
    __syncthreads();
  }
}

int main() {
  u64* out;
  cudaMalloc(&out, REPS * 4 * sizeof(u64));
  std::vector<u64> h(REPS * 4);
  printf("kind,delay,median_wake(t2-ta),median_wait_start_to_arrive(ta-tw),p10_wake,p90_wake\n");
  for (int tw = 0; tw < 2; ++tw) {
    for (unsigned d : {0u, 10u, 20u, 30u, 40u, 50u, 60u, 70u, 80u, 100u, 120u, 150u, 200u, 300u, 500u, 1000u, 2000u}) {
      probe<<<1, 64>>>(tw, d, out);
      probe<<<1, 64>>>(tw, d, out);
      cudaDeviceSynchronize();
      cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost);
      std::vector<long long> wake, age;
      for (int r = 1; r < REPS; ++r) {
        wake.push_back((long long)(h[r * 4 + 1] - h[r * 4 + 0]));
        age.push_back((long long)(h[r * 4 + 0] - h[r * 4 + 3]));
      }
      std::sort(wake.begin(), wake.end());
      std::sort(age.begin(), age.end());
      printf("%s,%u,%lld,%lld,%lld,%lld\n", tw ? "test_wait" : "try_wait", d, wake[wake.size() / 2],
             age[age.size() / 2], wake[wake.size() / 10], wake[wake.size() * 9 / 10]);
    }
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
