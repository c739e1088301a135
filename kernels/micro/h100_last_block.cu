// h100_last_block.cu -- where the own kernel o7 (kernels/own/o7_last_block_reduce.cu: 6 CTAs of 128
// threads; each writes its partial, __threadfence(), atomicInc a ticket; the last CTA sums the
// partials) spends its cycles on the device, phase by phase (issue #25: the executor predicts
// 1,575-3,219 cycles a warp against the device's 2,259-2,980). The same PTX runs on the executor
// (`membar run --launch` with a `rec` buffer), so each phase compares one to one.
//
// o7's body with a clock read between its phases; per CTA, warp 0's lane 0 (thread 0):
//   load       entry .. its input loaded and stored to shared memory
//   tree       the 7-step tree reduction and its barriers
//   store      thread 0's volatile store of the partial
//   fence      __threadfence()
//   atomic     atomicInc of the ticket (its result used)
//   bar        the __syncthreads() after it
//   sum        the last CTA's sum of the partials (other CTAs: nothing)
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_last_block.cu -o lb && ./lb
// Prints `last_block,phase,cta=C,median,min,max` (cycles over 31 launches after 3) and the clock.
#include "micro.cuh"


constexpr int NB = 6, NP = 8;
__device__ unsigned int g_count = 0;

__global__ void __launch_bounds__(128) last_block_reduce(const int* __restrict__ in, volatile int* partial,
                                                         int* __restrict__ out, u64* rec) {
  u64 t[NP];
  t[0] = clk();
  __shared__ int s[128];
  __shared__ bool last;
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  t[1] = clk();
  __syncthreads();
  for (int k = 64; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  t[2] = clk();
  t[3] = t[2]; t[4] = t[2]; t[5] = t[2];
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    t[3] = clk();
    __threadfence();
    t[4] = clk();
    const unsigned ticket = atomicInc(&g_count, gridDim.x);
    last = (ticket == gridDim.x - 1);
    t[5] = clk();
  }
  __syncthreads();
  t[6] = clk();
  if (last && threadIdx.x == 0) {
    int a = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) a += partial[b];
    out[0] = a;
    out[1] = (int)gridDim.x;
  }
  t[7] = clk();
  if (threadIdx.x == 0)
    for (int i = 0; i + 1 < NP; ++i) rec[blockIdx.x * NP + i] = t[i + 1] - t[i];
}

int main() {
  print_sm_mhz("last_block");
  int *in, *partial, *out; u64* rec;
  CK(cudaMalloc(&in, NB * 128 * sizeof(int)));
  CK(cudaMemset(in, 1, NB * 128 * sizeof(int)));
  CK(cudaMalloc(&partial, NB * sizeof(int)));
  CK(cudaMalloc(&out, 2 * sizeof(int)));
  CK(cudaMalloc(&rec, NB * NP * sizeof(u64)));
  const char* names[NP - 1] = {"load", "tree", "store", "fence", "atomic", "bar", "sum"};
  std::vector<std::vector<u64>> v(NB * (NP - 1));
  const unsigned zero = 0;
  for (int rep = 0; rep < 34; ++rep) {
    CK(cudaMemcpyToSymbol(g_count, &zero, sizeof zero));
    last_block_reduce<<<NB, 128>>>(in, partial, out, rec);
    CK(cudaDeviceSynchronize());
    if (rep < 3) continue;
    std::vector<u64> h(NB * NP);
    CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    for (int b = 0; b < NB; ++b)
      for (int i = 0; i + 1 < NP; ++i) v[b * (NP - 1) + i].push_back(h[b * NP + i]);
  }
  for (int b = 0; b < NB; ++b)
    for (int i = 0; i + 1 < NP; ++i) {
      std::vector<u64> x = v[b * (NP - 1) + i];
      std::sort(x.begin(), x.end());
      printf("last_block,%s,cta=%d,%llu,%llu,%llu\n", names[i], b, x[x.size() / 2], x[0], x.back());
    }
  return 0;
}
