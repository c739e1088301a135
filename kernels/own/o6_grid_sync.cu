// o6_grid_sync.cu -- cooperative grid-wide synchronisation as nvcc lowers grid.sync() (the grid
// workspace in %envreg1/2, atom.add.release.gpu + ld.acquire.gpu spin, barrier.sync): phase 1 each
// block writes its partial sum, grid.sync(), phase 2 every block reads all partials; a second
// grid.sync() separates a second round. out[b] = total of round 1, out[NB + b] = total of round 2.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __launch_bounds__(64) grid_sync(const int* __restrict__ in, int* partial, int* __restrict__ out) {
  cg::grid_group g = cg::this_grid();
  __shared__ int s[64];
  s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int k = 32; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  g.sync();
  if (threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    out[blockIdx.x] = t;
  }
  g.sync();
  if (threadIdx.x == 0) partial[blockIdx.x] = out[(blockIdx.x + 1) % gridDim.x] + (int)blockIdx.x;
  g.sync();
  if (threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    out[gridDim.x + blockIdx.x] = t;
  }
}
