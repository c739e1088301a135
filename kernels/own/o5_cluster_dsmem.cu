// o5_cluster_dsmem.cu -- a cluster kernel using distributed shared memory: clusters of 4 CTAs; each
// CTA sums its 128 inputs into its shared memory, cluster.sync() (barrier.cluster.arrive/wait),
// then every CTA reads the other CTAs' partial sums through map_shared_rank (mapa + generic loads
// of another CTA's shared memory) and writes the cluster total and its rank's neighbour's partial;
// a second cluster.sync() keeps the shared memory alive until all reads are done.
// out[2*b] = cluster total, out[2*b+1] = partial of rank (r+1)%4.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128) cluster_dsmem(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int part[128];
  cg::cluster_group cl = cg::this_cluster();
  const unsigned r = cl.block_rank();
  part[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  for (int k = 64; k > 0; k >>= 1) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  cl.sync();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned q = 0; q < cl.num_blocks(); ++q) total += *cl.map_shared_rank(&part[0], q);
    out[2 * blockIdx.x] = total;
    out[2 * blockIdx.x + 1] = *cl.map_shared_rank(&part[0], (r + 1) % cl.num_blocks());
  }
  cl.sync();
}
