// o7_last_block_reduce.cu -- the last-block reduction with a GPU-scope fence (the CUDA programming
// guide's threadFenceReduction): each block writes its partial sum to global memory,
// __threadfence() (fence.sc.gpu / membar.gl), then one atomicInc on a counter; the block that sees
// count == gridDim.x - 1 is the last, and sums every partial. out[0] = total, out[1] = 1 + the
// index of the last block's ticket (gridDim.x).
__device__ unsigned int g_count = 0;
__global__ void __launch_bounds__(128) last_block_reduce(const int* __restrict__ in, volatile int* partial, int* __restrict__ out) {
  __shared__ int s[128];
  __shared__ bool last;
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  for (int k = 64; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    const unsigned ticket = atomicInc(&g_count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    out[0] = t;
    out[1] = (int)gridDim.x;
  }
}
