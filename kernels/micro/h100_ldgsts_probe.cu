// h100_ldgsts_probe.cu -- what does k5's `async_issue` site pay for? (issue #25)
//
// k5 (cp.async pipeline) measures `clock; LDGSTS; LDGDEPBAR; st.shared probe; clock`
// at 30-48 cycles a warp (6 when the copy is predicated off), where a lone
// `cp.async` + commit between two clock reads costs 9 (h100_async_wait.cu). The
// kcommon.cuh instrumentation puts a `st.shared` probe before the closing clock
// read. Does a shared-memory access issued after an LDGSTS wait for it, how long,
// and does the wait end at a fixed time after the LDGSTS?
//
// Tests (all lanes of 1 or 4 warps of one CTA unless lanes=1; the statistic is
// over 31 repetitions and the warps; cycles of the SM clock):
//   cp_commit               t0; LDGSTS 16 B; commit; t1
//   probe_alone             t0; st.shared; t1
//   cp_commit_sts           t0; LDGSTS 16 B; commit; st.shared; t1            (k5's site)
//   cp_commit_lds           t0; LDGSTS 16 B; commit; ld.shared (used after t1); t1
//   cp_commit_stg           t0; LDGSTS 16 B; commit; st.global; t1
//   cp_commit_alu           t0; LDGSTS 16 B; commit; 4 dependent IADDs; t1
//   cp_commit_sts_after_D   LDGSTS 16 B; commit; spin D; ta; st.shared; t1   (reports t1 - ta)
//   cp2_commit_sts          t0; 2 x LDGSTS 16 B; commit; st.shared; t1
//   cp4b_commit_sts         t0; LDGSTS 4 B (.ca); commit; st.shared; t1
//   cp_commit_sts_sts       LDGSTS 16 B; commit; st.shared; ta; st.shared; t1 (reports t1 - ta)
//   cp_commit_sts_lane0     as cp_commit_sts, only lane 0 copies (lanes=1)
//   cp_addr_commit_sts      t0; 64-bit address add chain; LDGSTS 16 B; commit; st.shared; t1
//   cp_add64_commit_sts     t0; offset (cvt) + one add.s64 of the address; LDGSTS 16 B; commit; st.shared; t1
//   stg_x4                  t0; 4 st.global (lines 512 B apart); t1
//   cp_D_stg_x4             LDGSTS 16 B; commit; spin D; t0; 4 st.global; t1  (is a store held by a copy in flight?)
//   cp_D_lds_x4             LDGSTS 16 B; commit; spin D; t0; 4 ld.shared, summed; t1
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_ldgsts_probe.cu -o lp && ./lp
// Prints `ldgsts_probe,test,warps=W;D=d,median,min,max`.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

typedef unsigned long long u64;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error,%s,%d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ u64 clk() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory"); return t; }
__device__ __forceinline__ void spin(unsigned d) { u64 t = clk(); while (clk() - t < d) {} }
__device__ __forceinline__ void cp16(unsigned s, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void cp4(unsigned s, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait0() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void sts(unsigned a) { asm volatile("st.shared.u32 [%0], %0;" ::"r"(a) : "memory"); }
__device__ __forceinline__ unsigned lds(unsigned a) {
  unsigned v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v;
}

constexpr int REPS = 32;
enum { CP_COMMIT, PROBE_ALONE, CP_COMMIT_STS, CP_COMMIT_LDS, CP_COMMIT_STG, CP_COMMIT_ALU,
       CP_COMMIT_STS_AFTER_D, CP2_COMMIT_STS, CP4B_COMMIT_STS, CP_COMMIT_STS_STS, CP_COMMIT_STS_LANE0,
       CP_ADDR_COMMIT_STS, CP_ADD64_COMMIT_STS,
       STG_X4, CP_D_STG_X4, CP_D_LDS_X4, NTESTS };
static const char* kName[NTESTS] = {"cp_commit", "probe_alone", "cp_commit_sts", "cp_commit_lds",
                                    "cp_commit_stg", "cp_commit_alu", "cp_commit_sts_after_D",
                                    "cp2_commit_sts", "cp4b_commit_sts", "cp_commit_sts_sts",
                                    "cp_commit_sts_lane0", "cp_addr_commit_sts", "cp_add64_commit_sts",
                                    "stg_x4", "cp_D_stg_x4", "cp_D_lds_x4"};

__global__ void probe(int which, unsigned d, u64* out, const int* gsrc, int* gdst) {
  __shared__ alignas(16) int sbuf[2 * 4096];
  __shared__ unsigned sprobe[256];
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, nw = blockDim.x >> 5;
  const unsigned s = (unsigned)__cvta_generic_to_shared(sbuf + 4 * tid);
  const unsigned s2 = (unsigned)__cvta_generic_to_shared(sbuf + 4096 + 4 * tid);
  const unsigned pa = (unsigned)__cvta_generic_to_shared(sprobe + tid);
  unsigned acc = 0;
  for (int r = 0; r < REPS; ++r) {
    const int* src = gsrc + (size_t)r * 2 * blockDim.x * 4 + 4 * tid;
    const int* src2 = src + blockDim.x * 4;
    int* g = gdst + (size_t)r * blockDim.x + tid;
    wait0();
    __syncthreads();
    u64 t0 = 0, t1 = 0;
    switch (which) {
      case CP_COMMIT: t0 = clk(); cp16(s, src); commit(); t1 = clk(); break;
      case PROBE_ALONE: t0 = clk(); sts(pa); t1 = clk(); break;
      case CP_COMMIT_STS: t0 = clk(); cp16(s, src); commit(); sts(pa); t1 = clk(); break;
      case CP_COMMIT_LDS: { t0 = clk(); cp16(s, src); commit(); unsigned v = lds(pa); t1 = clk(); acc += v; break; }
      case CP_COMMIT_STG: t0 = clk(); cp16(s, src); commit(); *(volatile int*)g = r; t1 = clk(); break;
      case CP_COMMIT_ALU: {
        unsigned x = (unsigned)r;
        t0 = clk(); cp16(s, src); commit();
        asm volatile("add.u32 %0, %0, 1;\n\tadd.u32 %0, %0, 3;\n\tadd.u32 %0, %0, 5;\n\tadd.u32 %0, %0, 7;" : "+r"(x));
        t1 = clk(); acc += x; break;
      }
      case CP_COMMIT_STS_AFTER_D: cp16(s, src); commit(); spin(d); t0 = clk(); sts(pa); t1 = clk(); break;
      case CP2_COMMIT_STS: t0 = clk(); cp16(s, src); cp16(s2, src2); commit(); sts(pa); t1 = clk(); break;
      case CP4B_COMMIT_STS: t0 = clk(); cp4(s, src); commit(); sts(pa); t1 = clk(); break;
      case CP_COMMIT_STS_STS: cp16(s, src); commit(); sts(pa); t0 = clk(); sts(pa + 4 * 64); t1 = clk(); break;
      case CP_COMMIT_STS_LANE0:
        t0 = clk(); if (lane == 0) cp16(s, src); commit(); sts(pa); t1 = clk(); break;
      case CP_ADDR_COMMIT_STS: {
        // The global address computed after t0 (64-bit add chain), as in k5's unrolled SASS.
        unsigned lo = (unsigned)(size_t)src, hi = (unsigned)((size_t)src >> 32);
        t0 = clk();
        asm volatile("add.cc.u32 %0, %0, 4096;\n\taddc.u32 %1, %1, 0;\n\tsub.cc.u32 %0, %0, 4096;\n\tsubc.u32 %1, %1, 0;"
                     : "+r"(lo), "+r"(hi));
        cp16(s, (const void*)(((size_t)hi << 32) | lo)); commit(); sts(pa); t1 = clk(); break;
      }
      case CP_ADD64_COMMIT_STS: {
        // The global address = a register + a register offset made after t0 (one add.s64).
        unsigned long long off;
        t0 = clk();
        asm volatile("cvt.u64.u32 %0, %1;" : "=l"(off) : "r"(d));  // d = 0 here, a run-time value
        const char* q; asm volatile("add.s64 %0, %1, %2;" : "=l"(q) : "l"(src), "l"(off));
        cp16(s, q); commit(); sts(pa); t1 = clk(); break;
      }
      case STG_X4:
        t0 = clk(); *(volatile int*)g = r; *((volatile int*)g + 128) = r; *((volatile int*)g + 256) = r;
        *((volatile int*)g + 384) = r; t1 = clk(); break;
      case CP_D_STG_X4:
        cp16(s, src); commit(); spin(d);
        t0 = clk(); *(volatile int*)g = r; *((volatile int*)g + 128) = r; *((volatile int*)g + 256) = r;
        *((volatile int*)g + 384) = r; t1 = clk(); break;
      case CP_D_LDS_X4: {
        cp16(s, src); commit(); spin(d);
        t0 = clk(); unsigned v = lds(pa) + lds(pa + 4) + lds(pa + 8) + lds(pa + 12); t1 = clk(); acc += v; break;
      }
    }
    if (lane == 0) out[(size_t)r * nw + warp] = t1 - t0;
  }
  wait0();
  if (acc == 0xdeadbeef) gdst[0] = acc;
}

int main() {
  int *gsrc, *gdst; u64* out;
  CK(cudaMalloc(&gsrc, (size_t)REPS * 2 * 128 * 4 * sizeof(int)));
  CK(cudaMalloc(&gdst, (size_t)REPS * 128 * sizeof(int) + 512 * sizeof(int)));
  CK(cudaMemset(gsrc, 1, (size_t)REPS * 2 * 128 * 4 * sizeof(int)));
  CK(cudaMalloc(&out, (size_t)REPS * 4 * sizeof(u64)));
  std::vector<u64> h(REPS * 4);
  for (int which = 0; which < NTESTS; ++which)
    for (int warps : {1, 4}) {
      std::vector<unsigned> ds = {0};
      if (which == CP_COMMIT_STS_AFTER_D) ds = {0, 10, 20, 30, 40, 60, 80, 160};
      if (which == CP_D_STG_X4 || which == CP_D_LDS_X4) ds = {0, 25, 50, 100, 200, 400, 800};
      for (unsigned d : ds) {
        probe<<<1, 32 * warps>>>(which, d, out, gsrc, gdst);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h.data(), out, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
        std::vector<u64> v;
        for (int r = 1; r < REPS; ++r)
          for (int w = 0; w < warps; ++w) v.push_back(h[(size_t)r * warps + w]);
        std::sort(v.begin(), v.end());
        printf("ldgsts_probe,%s,warps=%d;D=%u,%llu,%llu,%llu\n", kName[which], warps, d, v[v.size() / 2], v[0],
               v.back());
      }
    }
  return 0;
}
