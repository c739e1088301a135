// h100_grid_sync.cu -- where the own kernel o6 (kernels/own/o6_grid_sync.cu: 4 CTAs of 64 threads,
// three grid.sync()s, cooperative launch) spends its cycles on the device, phase by phase (issue #25:
// the executor predicts 3,235-4,443 cycles a warp against the device's 7,633-8,782).
//
// o6's body with a clock read between its phases; per warp (lane 0's clock), median over 31
// launches after 3, each phase's cycles:
//   reduce     entry .. the tree reduction and its barriers done
//   sync1      the first grid.sync()
//   sum1       thread 0 sums the 4 partials (other threads: nothing)
//   sync2      the second grid.sync()
//   write2     thread 0 writes its partial again
//   sync3      the third grid.sync()
//   sum2       thread 0's second sum
// and the parts of one grid.sync() as nvcc lowers it, by thread 0 of each CTA alone:
//   gs_bar_in  the barrier.sync before the arrive
//   gs_atom    the atom.add.release.gpu arrive (its result used)
//   gs_spin    the ld.acquire.gpu spin until every CTA arrived
//   gs_bar_out the barrier.sync after it
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_grid_sync.cu -o gs && ./gs
// Prints `grid_sync,phase,warp=W,median,min,max` (cycles) and the SM clock.
#include <cooperative_groups.h>
#include "micro.cuh"
namespace cg = cooperative_groups;


constexpr int NB = 4, NT = 64, NP = 8;

__global__ void __launch_bounds__(64) grid_sync(const int* __restrict__ in, int* partial, int* __restrict__ out, u64* rec) {
  u64 t[NP];
  t[0] = clk();
  cg::grid_group g = cg::this_grid();
  __shared__ int s[64];
  s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int k = 32; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  t[1] = clk();
  g.sync();
  t[2] = clk();
  if (threadIdx.x == 0) {
    int a = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) a += partial[b];
    out[blockIdx.x] = a;
  }
  t[3] = clk();
  g.sync();
  t[4] = clk();
  if (threadIdx.x == 0) partial[blockIdx.x] = out[(blockIdx.x + 1) % gridDim.x] + (int)blockIdx.x;
  t[5] = clk();
  g.sync();
  t[6] = clk();
  if (threadIdx.x == 0) {
    int a = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) a += partial[b];
    out[gridDim.x + blockIdx.x] = a;
  }
  t[7] = clk();
  if ((threadIdx.x & 31) == 0) {
    const int w = blockIdx.x * 2 + (threadIdx.x >> 5);
    for (int i = 0; i + 1 < NP; ++i) rec[w * NP + i] = t[i + 1] - t[i];
  }
}

// One grid barrier by hand, as nvcc's grid.sync() lowers it (o6's PTX): barrier.sync; thread 0:
// atom.add.release.gpu on a counter (the last CTA adds 0x80000000 - (n - 1)), spin with
// ld.acquire.gpu until the counter's top bit flips; barrier.sync.
__global__ void __launch_bounds__(64) grid_parts(unsigned* counter, u64* rec) {
  u64 a = clk();
  __syncthreads();
  u64 b = clk();
  u64 c = b, d = b;
  if (threadIdx.x == 0) {
    const unsigned inc = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1) : 1u;
    unsigned old;
    asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(counter), "r"(inc) : "memory");
    c = clk();
    unsigned v;
    do {
      asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(counter) : "memory");
    } while (((v ^ old) & 0x80000000u) == 0);
    d = clk();
  }
  __syncthreads();
  u64 e = clk();
  if (threadIdx.x == 0) {
    rec[blockIdx.x * 4 + 0] = b - a;
    rec[blockIdx.x * 4 + 1] = c - b;
    rec[blockIdx.x * 4 + 2] = d - c;
    rec[blockIdx.x * 4 + 3] = e - d;
  }
}

static void report(const char* name, int w, std::vector<u64> v) {
  std::sort(v.begin(), v.end());
  printf("grid_sync,%s,warp=%d,%llu,%llu,%llu\n", name, w, v[v.size() / 2], v[0], v.back());
}

int main() {
  print_sm_mhz("grid_sync");
  int *in, *partial, *out; u64* rec;
  CK(cudaMalloc(&in, NB * NT * sizeof(int)));
  CK(cudaMemset(in, 1, NB * NT * sizeof(int)));
  CK(cudaMalloc(&partial, NB * sizeof(int)));
  CK(cudaMalloc(&out, 2 * NB * sizeof(int)));
  CK(cudaMalloc(&rec, NB * 2 * NP * sizeof(u64)));
  const char* names[NP - 1] = {"reduce", "sync1", "sum1", "sync2", "write2", "sync3", "sum2"};
  std::vector<std::vector<u64>> v(2 * NB * (NP - 1));
  for (int rep = 0; rep < 34; ++rep) {
    void* args[] = {&in, &partial, &out, &rec};
    CK(cudaLaunchCooperativeKernel((void*)grid_sync, dim3(NB), dim3(NT), args, 0, 0));
    CK(cudaDeviceSynchronize());
    if (rep < 3) continue;
    std::vector<u64> h(NB * 2 * NP);
    CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    for (int w = 0; w < 2 * NB; ++w)
      for (int i = 0; i + 1 < NP; ++i) v[w * (NP - 1) + i].push_back(h[w * NP + i]);
  }
  for (int w = 0; w < 2 * NB; ++w)
    for (int i = 0; i + 1 < NP; ++i) report(names[i], w, v[w * (NP - 1) + i]);
  unsigned* counter; CK(cudaMalloc(&counter, 4));
  CK(cudaMemset(counter, 0, 4));
  std::vector<std::vector<u64>> p(NB * 4);
  for (int rep = 0; rep < 34; ++rep) {
    void* args[] = {&counter, &rec};
    CK(cudaLaunchCooperativeKernel((void*)grid_parts, dim3(NB), dim3(NT), args, 0, 0));
    CK(cudaDeviceSynchronize());
    if (rep < 3) continue;
    std::vector<u64> h(NB * 4);
    CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    for (int i = 0; i < NB * 4; ++i) p[i].push_back(h[i]);
  }
  const char* pn[4] = {"gs_bar_in", "gs_atom", "gs_spin", "gs_bar_out"};
  for (int b = 0; b < NB; ++b)
    for (int i = 0; i < 4; ++i) report(pn[i], b * 2, p[b * 4 + i]);
  return 0;
}
