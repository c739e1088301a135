// h100_smem_banks.cu -- what a shared-memory bank conflict costs (issue #25). k5's stencil
// reads each lane's neighbours at a 16-byte stride (`t[4 * lane + k - 1]`): 32 lanes hit
// 8 of the 32 banks, four words each. Its loop spends 220 cycles between its two
// __syncthreads on the H100; the executor, charging every ld.shared the same, 136.
// Tests (all lanes of 1 or 4 warps; lane l reads word (l * stride + j) mod 8192; the
// statistic is the median over 31 repetitions and the warps):
//   chain    16 dependent ld.shared (the address depends on the last value, always 0):
//            cycles for the 16
//   burst    16 independent ld.shared, then their sum: cycles for the 16
//   st_burst 16 st.shared, then a clock read
// stride 1 (every lane its own bank), 2, 4, 8, 16, 32 (all lanes one bank); 0: every lane
// the same word (a broadcast).
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_smem_banks.cu -o sb && ./sb
// Prints `smem_banks,test,stride=S;warps=W,median,min,max`.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
typedef unsigned long long u64;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error,%s,%d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ unsigned lds(unsigned a) {
  unsigned v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v;
}
__device__ __forceinline__ void sts(unsigned a, unsigned v) { asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory"); }
constexpr int REPS = 32;
constexpr int WORDS = 8192;
__global__ void banks(int test, int stride, u64* out, unsigned* sink) {
  __shared__ unsigned s[WORDS];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nw = blockDim.x >> 5;
  for (int i = tid; i < WORDS; i += blockDim.x) s[i] = 0;
  __syncthreads();
  const unsigned base = (unsigned)__cvta_generic_to_shared(s);
  unsigned acc = 0;
  for (int r = 0; r < REPS; ++r) {
    __syncthreads();
    u64 t0 = 0, t1 = 0;
    if (test == 0) {
      unsigned v = 0;
      t0 = clk();
#pragma unroll
      for (int j = 0; j < 16; ++j) v = lds(base + 4 * ((lane * stride + j * 64 + v) % WORDS));
      t1 = clk();
      acc += v;
    } else if (test == 1) {
      unsigned v[16];
      t0 = clk();
#pragma unroll
      for (int j = 0; j < 16; ++j) v[j] = lds(base + 4 * ((lane * stride + j * 64) % WORDS));
      unsigned sum = 0;
#pragma unroll
      for (int j = 0; j < 16; ++j) sum += v[j];
      t1 = clk();
      acc += sum;
    } else {
      t0 = clk();
#pragma unroll
      for (int j = 0; j < 16; ++j) sts(base + 4 * ((lane * stride + j * 64) % WORDS), 0u);
      t1 = clk();
    }
    if (lane == 0) out[(size_t)r * nw + warp] = t1 - t0;
  }
  if (acc == 0xdeadbeef) sink[0] = acc;
}
int main() {
  u64* out; unsigned* sink;
  CK(cudaMalloc(&out, REPS * 4 * sizeof(u64))); CK(cudaMalloc(&sink, 4));
  std::vector<u64> h(REPS * 4);
  const char* names[] = {"chain", "burst", "st_burst"};
  for (int test = 0; test < 3; ++test)
    for (int warps : {1, 4})
      for (int stride : {0, 1, 2, 4, 8, 16, 32}) {
        banks<<<1, 32 * warps>>>(test, stride, out, sink);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
        std::vector<u64> v;
        for (int r = 1; r < REPS; ++r) for (int w = 0; w < warps; ++w) v.push_back(h[(size_t)r * warps + w]);
        std::sort(v.begin(), v.end());
        printf("smem_banks,%s,stride=%d;warps=%d,%llu,%llu,%llu\n", names[test], stride, warps, v[v.size() / 2], v[0], v.back());
      }
  return 0;
}
