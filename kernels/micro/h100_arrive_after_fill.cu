// h100_arrive_after_fill.cu -- why does k3's producers' loop `bar.arrive` cost 23 cycles between
// its clock reads on the H100 (kernels/reference/k3_named_barrier_ws.cu: 2 producer warps fill a
// 4 KB stage with `buf[i] = 3 * src[i] + 1`, 4 loads then 4 shared stores a round, then
// `VIADD; BAR.ARV R, 0xc0; STS probe`), where its consumers' loop arrive, the same three
// instructions after their compute, costs 13 and h100_arrive_after_stores.cu's arrive after
// four STS.128 12? (issue #25)
//
// One CTA of 192 threads as k3's: warps 0-1 produce, 2-5 consume. Each repetition: everybody
// meets at __syncthreads(); the producers run a variant, then the timed arrive
// (`t0; bar.arrive id, 192; st.shared probe; t1`, the id a register made after t0 as k3's);
// the consumers `bar.sync id, 192`. Variants (what the producers do before t0):
//   fill        k3's fill: for (i = tid; i < 1024; i += 64) buf[i] = 3 * src[i] + 1 (unroll 4)
//   fill_const  the same loop storing 3 * i + 1 (no global loads)
//   fill_spin   fill, then a 300-cycle spin (the stores long drained)
//   loads_only  the loop's loads summed into a register (no shared stores)
//   nothing     no work
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_arrive_after_fill.cu -o af && ./af
// Prints `arrive_after_fill,variant,median,min,max` (producer warps' t1 - t0 over 31 repetitions).
#include "micro.cuh"


constexpr int NT = 192, PROD_T = 64, TILE = 1024, REPS = 32;
enum { FILL, FILL_CONST, FILL_SPIN, LOADS_ONLY, NOTHING, NV };
static const char* kName[NV] = {"fill", "fill_const", "fill_spin", "loads_only", "nothing"};

__global__ void __launch_bounds__(NT) probe(int variant, const unsigned* __restrict__ in, u64* rec, unsigned* sink) {
  __shared__ unsigned buf[2][TILE];
  __shared__ unsigned sprobe[NT];
  const int tid = threadIdx.x, warp = tid >> 5;
  const unsigned pa = (unsigned)__cvta_generic_to_shared(sprobe + tid);
  unsigned acc = 0;
  for (int r = 0; r < REPS; ++r) {
    const int s = r & 1;
    __syncthreads();
    if (warp < 2) {
      const unsigned* src = in + (size_t)r * TILE;
      if (variant == FILL || variant == FILL_SPIN) {
#pragma unroll 4
        for (int i = tid; i < TILE; i += PROD_T) buf[s][i] = 3u * src[i] + 1u;
      } else if (variant == FILL_CONST) {
#pragma unroll 4
        for (int i = tid; i < TILE; i += PROD_T) buf[s][i] = 3u * (unsigned)i + 1u;
      } else if (variant == LOADS_ONLY) {
#pragma unroll 4
        for (int i = tid; i < TILE; i += PROD_T) acc += src[i];
      }
      if (variant == FILL_SPIN) { u64 a = clk(); while (clk() - a < 300) {} }
      const u64 t0 = clk();
      unsigned id = 1u + (unsigned)s;
      asm volatile("add.u32 %0, %0, 0;" : "+r"(id));
      asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(NT) : "memory");
      asm volatile("st.shared.u32 [%0], %0;" ::"r"(pa) : "memory");
      const u64 t1 = clk();
      if ((tid & 31) == 0) rec[r * 2 + warp] = t1 - t0;
    } else {
      unsigned id = 1u + (unsigned)s;
      asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(NT) : "memory");
      acc += buf[s][tid];
    }
  }
  if (acc == 0xdeadbeef) sink[0] = acc;
}

int main() {
  print_sm_mhz("arrive_after_fill");
  unsigned *in, *sink; u64* rec;
  CK(cudaMalloc(&in, (size_t)REPS * TILE * 4));
  CK(cudaMemset(in, 3, (size_t)REPS * TILE * 4));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&rec, REPS * 2 * sizeof(u64)));
  std::vector<u64> h(REPS * 2);
  for (int v = 0; v < NV; ++v) {
    for (int launch = 0; launch < 2; ++launch) {  // the first launch warms the code and L2
      probe<<<1, NT>>>(v, in, rec, sink);
      CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    std::vector<u64> x(h.begin() + 2, h.end());
    std::sort(x.begin(), x.end());
    printf("arrive_after_fill,%s,%llu,%llu,%llu\n", kName[v], x[x.size() / 2], x[0], x.back());
  }
  return 0;
}
