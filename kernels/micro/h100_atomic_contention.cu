// h100_atomic_contention.cu -- what does an atomicInc cost when several SMs hit one counter at
// once, as o7's CTAs do (kernels/own/o7_last_block_reduce.cu; h100_last_block.cu times its atomic
// at 726-827 cycles on the device, the executor 255)? (issue #25)
//
// N CTAs of 32 threads (one per SM); thread 0 of each waits until the global timer passes a start
// time common to all (a few microseconds after the launch), then times one atomic on
//   same       one counter shared by every CTA (o7's case)
//   same_line  its own counter, all counters in one 128-byte line
//   own_line   its own counter, each in its own line
// with its result used (a dependent add before the second clock read). Prints
// `atomic_contention,placement,ctas=N,median,min,max` over the CTAs and 31 launches after 3.
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_atomic_contention.cu -o ac && ./ac
#include "micro.cuh"

__device__ __forceinline__ u64 gtimer() { u64 t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

enum { SAME, SAME_LINE, OWN_LINE, NP };
static const char* kName[NP] = {"same", "same_line", "own_line"};

__global__ void contend(int placement, unsigned* counters, u64 start_ns, u64* rec) {
  if (threadIdx.x != 0) return;
  const int stride = placement == SAME ? 0 : placement == SAME_LINE ? 1 : 32;
  unsigned* c = counters + blockIdx.x * stride;
  while (gtimer() < start_ns) {}
  const u64 a = clk();
  unsigned v = atomicInc(c, 1u << 30);
  v += 1;
  asm volatile("" : "+r"(v));
  const u64 b = clk();
  rec[blockIdx.x] = b - a;
  if (v == 0xdeadbeef) counters[0] = v;
}

__global__ void now_ns(u64* out) { *out = gtimer(); }

int main() {
  print_sm_mhz("atomic_contention");
  unsigned* counters; u64 *rec, *t;
  CK(cudaMalloc(&counters, 64 * 32 * sizeof(unsigned)));
  CK(cudaMemset(counters, 0, 64 * 32 * sizeof(unsigned)));
  CK(cudaMalloc(&rec, 64 * sizeof(u64)));
  CK(cudaMalloc(&t, sizeof(u64)));
  for (int p = 0; p < NP; ++p)
    for (int n : {1, 2, 4, 6, 8, 16}) {
      std::vector<u64> v;
      for (int rep = 0; rep < 34; ++rep) {
        now_ns<<<1, 1>>>(t);
        CK(cudaDeviceSynchronize());
        u64 h; CK(cudaMemcpy(&h, t, sizeof h, cudaMemcpyDeviceToHost));
        contend<<<n, 32>>>(p, counters, h + 20000, rec);
        CK(cudaDeviceSynchronize());
        if (rep < 3) continue;
        std::vector<u64> r(n);
        CK(cudaMemcpy(r.data(), rec, n * sizeof(u64), cudaMemcpyDeviceToHost));
        v.insert(v.end(), r.begin(), r.end());
      }
      std::sort(v.begin(), v.end());
      printf("atomic_contention,%s,ctas=%d,%llu,%llu,%llu\n", kName[p], n, v[v.size() / 2], v[0], v.back());
    }
  return 0;
}
