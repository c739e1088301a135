// o3_bulk_copy_mbarrier.cu -- a bulk-copy pipeline with mbarriers and proxy fences: lane 0 of warp 0
// copies 2 KB tiles from global memory into a 2-stage shared ring with
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes, arming FULL[s] with
// mbarrier.arrive.expect_tx; warps 1..2 wait on FULL[s] (try_wait.parity), read, release EMPTY[s]
// (one arrive per warp). The consumers write their results back into shared memory, make them
// visible to the async proxy (fence.proxy.async.shared::cta) and one thread stores the tile with a
// bulk copy shared -> global (bulk_group, wait_group 0). out[i] = 2 * in[i] + 1.
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;
constexpr int STAGES = 2, TILES = 4, TILE = 512;          // ints per tile (2 KB)
struct Smem {
  alignas(128) int in[STAGES][TILE];
  alignas(128) int out[TILE];
  uint64_t full[STAGES], empty[STAGES];
};
__device__ __forceinline__ void wait_parity(uint64_t* bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {}
}
__global__ void __launch_bounds__(96) bulk_copy_mbarrier(const int* __restrict__ gin, int* __restrict__ gout) {
  extern __shared__ __align__(128) unsigned char smem_raw[];
  Smem& S = *reinterpret_cast<Smem*>(smem_raw);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      ptx::mbarrier_init(&S.full[s], 1);
      ptx::mbarrier_init(&S.empty[s], 2);
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  const int* src = gin + blockIdx.x * TILES * TILE;
  int* dst = gout + blockIdx.x * TILES * TILE;
  if (warp == 0) {
    if (lane == 0) {
      for (int t = 0; t < TILES; ++t) {
        const int s = t % STAGES;
        if (t >= STAGES) wait_parity(&S.empty[s], ((t / STAGES) - 1) & 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &S.full[s], TILE * 4);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &S.in[s][0], src + t * TILE, TILE * 4, &S.full[s]);
      }
    }
  } else {
    const int c = threadIdx.x - 32;                       // 0..63
    for (int t = 0; t < TILES; ++t) {
      const int s = t % STAGES;
      wait_parity(&S.full[s], (t / STAGES) & 1);
      int v[TILE / 64];
      for (int k = 0; k < TILE / 64; ++k) v[k] = S.in[s][k * 64 + c];
      __syncwarp();
      if (lane == 0) ptx::mbarrier_arrive(&S.empty[s]);
      asm volatile("bar.sync 1, 64;" ::: "memory");        // the previous tile's store read S.out
      for (int k = 0; k < TILE / 64; ++k) S.out[k * 64 + c] = 2 * v[k] + 1;
      ptx::fence_proxy_async(ptx::space_shared);
      asm volatile("bar.sync 1, 64;" ::: "memory");
      if (c == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst + t * TILE, &S.out[0], TILE * 4);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
      }
    }
    if (c == 0) ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
  }
}
