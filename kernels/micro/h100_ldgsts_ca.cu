// h100_ldgsts_ca.cu -- how long does an L1-allocating cp.async (LDGSTS .ca) take when its
// line is in L2 but not in the SM's L1, against a .cg copy of the same line? (issue #25)
//
// The own kernel o4 (kernels/own/o4_cp_async_pipeline.cu: 8-byte cp.async.ca, a 2-stage
// pipeline, 2 warps a CTA) runs 1,857-1,921 cycles a warp on the device where the executor
// predicts 1,206-1,210, which charges every copy from L2 the `.cg` figure of sync §4.2
// (`ldgsts_l2_latency`). §4.2 measures `.ca` only with its lines in L1 (hot) or in DRAM
// (cold). These tests time one copy per lane from a line that is in L2 only (read before
// with ld.global.cg, its value consumed before the first clock) or also in L1 (read with
// ld.global.ca), and o4's own loop with a clock at each wait.
//
// Tests (1 or 2 warps of one CTA; lines of a fresh 4 KB region each repetition):
//   ca8_l2     t0; cp.async.ca 8 B; commit; wait_group 0; t1       (line in L2 only)
//   ca16_l2    t0; cp.async.ca 16 B; commit; wait_group 0; t1
//   cg16_l2    t0; cp.async.cg 16 B; commit; wait_group 0; t1
//   ca8_l1     t0; cp.async.ca 8 B; commit; wait_group 0; t1       (line in L1 too)
//   ldca8_l2   t0; ld.global.ca 8 B; dependent add; t1               (line in L2 only)
//   ldcg8_l2   t0; ld.global.cg 8 B; dependent add; t1
//   o4_wait_k  o4's loop (tile k = 0..5): the cycles warp w spends in wait_group 1 at tile k
//   o4_iter_k  ... from tile k's start to tile k+1's start
//
// The GPU is first kept busy ~0.3 s (`print_sm_mhz`, micro.cuh), which prints the SM clock: memory
// latencies in SM cycles depend on it, and a process's first launches can run slower.
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_ldgsts_ca.cu -o lc && ./lc
// Prints `ldgsts_ca,test,warps=W,median,min,max` (cycles over 31 repetitions and the warps).
#include "micro.cuh"

__device__ __forceinline__ void ca8(unsigned s, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void ca16(unsigned s, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void cg16(unsigned s, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait0() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void wait1() { asm volatile("cp.async.wait_group 1;" ::: "memory"); }
__device__ __forceinline__ unsigned long long ldcg(const void* g) {
  unsigned long long v; asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(g) : "memory"); return v;
}
__device__ __forceinline__ unsigned long long ldca(const void* g) {
  unsigned long long v; asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(g) : "memory"); return v;
}

constexpr int REPS = 32;
enum { CA8_L2, CA16_L2, CG16_L2, CA8_L1, LDCA8_L2, LDCG8_L2, NTESTS };
static const char* kName[NTESTS] = {"ca8_l2", "ca16_l2", "cg16_l2", "ca8_l1", "ldca8_l2", "ldcg8_l2"};

__global__ void probe(int which, u64* out, const char* gsrc, int* gdst) {
  __shared__ alignas(16) char sbuf[64 * 16];
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, nw = blockDim.x >> 5;
  const unsigned s = (unsigned)__cvta_generic_to_shared(sbuf + 16 * tid);
  unsigned long long acc = 0;
  for (int r = 0; r < REPS; ++r) {
    const char* src = gsrc + (size_t)r * 4096 + 16 * tid;
    // The line into L2 (and for ca8_l1 into L1 too), its value used before t0.
    unsigned long long pre = (which == CA8_L1) ? ldca(src) : ldcg(src);
    acc += pre;
    if (pre == 0x1234567) gdst[1] = 1;
    __syncthreads();
    u64 t0 = 0, t1 = 0;
    switch (which) {
      case CA8_L2: case CA8_L1: t0 = clk(); ca8(s, src); commit(); wait0(); t1 = clk(); break;
      case CA16_L2: t0 = clk(); ca16(s, src); commit(); wait0(); t1 = clk(); break;
      case CG16_L2: t0 = clk(); cg16(s, src); commit(); wait0(); t1 = clk(); break;
      case LDCA8_L2: { t0 = clk(); unsigned long long v = ldca(src + 8); v += 1; acc += v; t1 = clk(); break; }
      case LDCG8_L2: { t0 = clk(); unsigned long long v = ldcg(src + 8); v += 1; acc += v; t1 = clk(); break; }
    }
    if (lane == 0) out[(size_t)r * nw + warp] = t1 - t0;
    __syncthreads();
  }
  if (acc == 0xdeadbeef) gdst[0] = (int)acc;
}

// o4's kernel body (kernels/own/o4_cp_async_pipeline.cu) with a clock at each tile's start
// and around its wait.
constexpr int TILES = 6, TILE = 128;
__global__ void o4(const int* __restrict__ in, int* __restrict__ out, u64* rec) {
  const u64 t_entry = clk();
  __shared__ __align__(8) int buf[2][TILE];
  const int t0 = threadIdx.x, warp = t0 >> 5, lane = t0 & 31;
  const int* src = in + blockIdx.x * TILES * TILE;
  int* dst = out + blockIdx.x * TILES * TILE;
  u64 ts[TILES + 1], wt[TILES];
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"((unsigned)__cvta_generic_to_shared(&buf[0][2 * t0])),
               "l"(src + 2 * t0) : "memory");
  commit();
#pragma unroll
  for (int t = 0; t < TILES; ++t) {
    ts[t] = clk();
    if (t + 1 < TILES)
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"((unsigned)__cvta_generic_to_shared(&buf[(t + 1) & 1][2 * t0])),
                   "l"(src + (t + 1) * TILE + 2 * t0) : "memory");
    commit();
    u64 a = clk();
    wait1();
    wt[t] = clk() - a;
    __syncthreads();
    for (int k = 0; k < 2; ++k) {
      const int i = 2 * t0 + k;
      dst[t * TILE + i] = buf[t & 1][i] + buf[t & 1][(i + 1) % TILE];
    }
    __syncthreads();
  }
  ts[TILES] = clk();
  if (lane == 0 && blockIdx.x == 0) {
    for (int t = 0; t < TILES; ++t) {
      rec[(warp * TILES + t) * 2] = wt[t];
      rec[(warp * TILES + t) * 2 + 1] = ts[t + 1] - ts[t];
    }
    rec[2 * TILES * 2 + warp * 2] = ts[0] - t_entry;
    rec[2 * TILES * 2 + warp * 2 + 1] = clk() - ts[TILES];
  }
}

// The first use of a kernel parameter at the launch: t0; load a parameter (the constant
// bank) and use it; t1. `param_first`: the first one; `param_second`: another one after it.
__global__ void param_first(const int* p0, const int* p1, u64* rec) {
  const u64 a = clk();
  unsigned long long v0; asm volatile("mov.b64 %0, %1;" : "=l"(v0) : "l"(p0));
  unsigned long long w0 = v0 + 1;
  asm volatile("" : "+l"(w0));
  const u64 b = clk();
  unsigned long long v1; asm volatile("mov.b64 %0, %1;" : "=l"(v1) : "l"(p1));
  unsigned long long w1 = v1 + 1;
  asm volatile("" : "+l"(w1));
  const u64 c = clk();
  if ((threadIdx.x & 31) == 0) { rec[(threadIdx.x >> 5) * 2] = b - a; rec[(threadIdx.x >> 5) * 2 + 1] = c - b; }
  if (w0 == 7 && w1 == 9) rec[100] = 1;
}

static void report(const char* name, int warps, std::vector<u64> v) {
  std::sort(v.begin(), v.end());
  printf("ldgsts_ca,%s,warps=%d,%llu,%llu,%llu\n", name, warps, v[v.size() / 2], v[0], v.back());
}

int main() {
  char* gsrc; int *gdst, *in, *outb; u64 *out, *rec;
  print_sm_mhz("ldgsts_ca");
  CK(cudaMalloc(&gsrc, (size_t)REPS * 4096 + 4096));
  CK(cudaMemset(gsrc, 1, (size_t)REPS * 4096 + 4096));
  CK(cudaMalloc(&gdst, 4096));
  CK(cudaMalloc(&out, (size_t)REPS * 4 * sizeof(u64)));
  std::vector<u64> h(REPS * 4);
  for (int which = 0; which < NTESTS; ++which)
    for (int warps : {1, 2}) {
      probe<<<1, 32 * warps>>>(which, out, gsrc, gdst);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
      std::vector<u64> v;
      for (int r = 1; r < REPS; ++r)
        for (int w = 0; w < warps; ++w) v.push_back(h[(size_t)r * warps + w]);
      report(kName[which], warps, v);
    }
  // o4: 2 CTAs of 64 threads, as its launch file; 3 warm launches, then 31 timed.
  const int N = 2 * TILES * TILE;
  CK(cudaMalloc(&in, N * sizeof(int)));
  CK(cudaMalloc(&outb, N * sizeof(int)));
  CK(cudaMemset(in, 2, N * sizeof(int)));
  CK(cudaMalloc(&rec, (2 * TILES * 2 + 4) * sizeof(u64)));
  std::vector<std::vector<u64>> waits(TILES), iters(TILES);
  std::vector<u64> hr(2 * TILES * 2 + 4);
  std::vector<u64> pro, epi;
  for (int rep = 0; rep < 34; ++rep) {
    o4<<<2, 64>>>(in, outb, rec);
    CK(cudaDeviceSynchronize());
    if (rep < 3) continue;
    CK(cudaMemcpy(hr.data(), rec, hr.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    for (int w = 0; w < 2; ++w)
      for (int t = 0; t < TILES; ++t) {
        waits[t].push_back(hr[(w * TILES + t) * 2]);
        iters[t].push_back(hr[(w * TILES + t) * 2 + 1]);
      }
    for (int w = 0; w < 2; ++w) { pro.push_back(hr[2 * TILES * 2 + w * 2]); epi.push_back(hr[2 * TILES * 2 + w * 2 + 1]); }
  }
  char name[32];
  for (int t = 0; t < TILES; ++t) {
    snprintf(name, sizeof name, "o4_wait_%d", t);
    report(name, 2, waits[t]);
    snprintf(name, sizeof name, "o4_iter_%d", t);
    report(name, 2, iters[t]);
  }
  report("o4_entry_to_loop", 2, pro);
  report("o4_loop_to_exit", 2, epi);
  u64* prec; CK(cudaMalloc(&prec, 128 * sizeof(u64)));
  std::vector<u64> hp(4), pf, ps;
  for (int rep = 0; rep < 34; ++rep) {
    param_first<<<1, 64>>>(in, outb, prec);
    CK(cudaDeviceSynchronize());
    if (rep < 3) continue;
    CK(cudaMemcpy(hp.data(), prec, 4 * sizeof(u64), cudaMemcpyDeviceToHost));
    for (int w = 0; w < 2; ++w) { pf.push_back(hp[w * 2]); ps.push_back(hp[w * 2 + 1]); }
  }
  report("param_first", 2, pf);
  report("param_second", 2, ps);
  return 0;
}
