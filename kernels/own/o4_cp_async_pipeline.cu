// o4_cp_async_pipeline.cu -- a 2-stage pipeline of non-bulk cp.async (LDGSTS, 8 bytes per thread,
// cp.async.ca) with the pipeline primitives: __pipeline_memcpy_async / __pipeline_commit /
// __pipeline_wait_prior(1), then __syncthreads(), and a neighbour sum that reads other threads'
// copies. out[i] = t[i] + t[(i+1) % 128] within each 128-int tile.
#include <cuda_pipeline_primitives.h>
constexpr int TILES = 6, TILE = 128, NT = 64;
__global__ void __launch_bounds__(NT) cp_async_pipeline(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ __align__(8) int buf[2][TILE];
  const int t0 = threadIdx.x;
  const int* src = in + blockIdx.x * TILES * TILE;
  int* dst = out + blockIdx.x * TILES * TILE;
  __pipeline_memcpy_async(&buf[0][2 * t0], src + 2 * t0, 8);
  __pipeline_commit();
  for (int t = 0; t < TILES; ++t) {
    if (t + 1 < TILES) __pipeline_memcpy_async(&buf[(t + 1) & 1][2 * t0], src + (t + 1) * TILE + 2 * t0, 8);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int k = 0; k < 2; ++k) {
      const int i = 2 * t0 + k;
      dst[t * TILE + i] = buf[t & 1][i] + buf[t & 1][(i + 1) % TILE];
    }
    __syncthreads();
  }
}
