// How long does a bulk store (cp.async.bulk.global.shared::cta.bulk_group,
// UBLKCP shared -> global) take to complete, as cp.async.bulk.wait_group 0
// sees it? (issue #25: the preset's copy_write_global was derived from k4's
// final wait_group 0 site with an assumed issue -> clock gap; this measures
// it directly.) A 1-warp CTA (with `rewrite`, every lane first rewrites the
// N-byte source in shared memory), fence.proxy.async; then lane 0: t0; bulk
// store; commit; t1; [spin D cycles]; t2; wait_group 0; t3. Prints
// `rewrite,bytes,D,issue(t1-t0),wait(t3-t2),done(t3-t0)`
// (medians of REPS; the destination is rewritten every repetition, so its
// lines are in L2).
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_bulk_store.cu -o bs && ./bs
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }

constexpr int REPS = 32;
__global__ void store(int* g, unsigned bytes, unsigned delay, int rewrite, u64* out) {
  __shared__ alignas(128) int s[4096];
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = i;
  __syncthreads();
  unsigned sa = (unsigned)__cvta_generic_to_shared(s);
  for (int r = 0; r < REPS; ++r) {
    __syncwarp();  // lane 0's last store has completed (its wait_group 0)
    if (rewrite) {
      // The warp rewrites the source (generic proxy) right before the fence.
      for (int i = threadIdx.x; i < (int)(bytes / 4); i += 32) s[i] = i + r;
      __syncwarp();
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (threadIdx.x != 0) continue;
    u64 t0 = clk();
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(g), "r"(sa), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    u64 t1 = clk();
    while (clk() - t1 < delay) {}
    u64 t2 = clk();
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    u64 t3 = clk();
    out[r * 4 + 0] = t1 - t0;
    out[r * 4 + 1] = t3 - t2;
    out[r * 4 + 2] = t3 - t0;
  }
}

int main() {
  int* g; u64* out;
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&out, REPS * 4 * sizeof(u64));
  std::vector<u64> h(REPS * 4);
  printf("rewrite,bytes,D,issue,wait,done\n");
  for (int rw = 0; rw < 2; ++rw)
  for (unsigned bytes : {16u, 256u, 1024u, 4096u, 16384u}) {
    for (unsigned d : {0u, 50u, 100u, 200u, 400u, 1000u}) {
      store<<<1, 32>>>(g, bytes, d, rw, out);
      cudaDeviceSynchronize();
      cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost);
      std::vector<u64> a, b, c;
      for (int r = 1; r < REPS; ++r) { a.push_back(h[r * 4]); b.push_back(h[r * 4 + 1]); c.push_back(h[r * 4 + 2]); }
      std::sort(a.begin(), a.end()); std::sort(b.begin(), b.end()); std::sort(c.begin(), c.end());
      printf("%d,%u,%u,%llu,%llu,%llu\n", rw, bytes, d, a[a.size() / 2], b[b.size() / 2], c[c.size() / 2]);
    }
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("error,%s\n", cudaGetErrorString(e));
  return 0;
}
