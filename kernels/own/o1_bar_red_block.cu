// o1_bar_red_block.cu -- block reductions with bar.red: a 2-D block (32 x 8 threads) reduces its
// tile with a shared-memory tree, and counts with __syncthreads_count / _or / _and (bar.red.popc,
// bar.red.or.pred, bar.red.and.pred). Per block out[4*b..] = {sum, count(v%3==0), any(v>990), all(v<1000)}.
__global__ void __launch_bounds__(256) bar_red_block(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int s[256];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int v = in[blockIdx.x * 256 + t];
  s[t] = v;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  const int c = __syncthreads_count(v % 3 == 0);
  const int o = __syncthreads_or(v > 990);
  const int a = __syncthreads_and(v < 1000);
  if (t == 0) {
    out[4 * blockIdx.x + 0] = s[0];
    out[4 * blockIdx.x + 1] = c;
    out[4 * blockIdx.x + 2] = o ? 1 : 0;
    out[4 * blockIdx.x + 3] = a ? 1 : 0;
  }
}
