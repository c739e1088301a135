// h100_fence_next.cu -- what a GPU-scope fence costs the memory operation after it (issue #25:
// in o7, h100_last_block.cu, `__threadfence()` after a volatile store returns in 390-433 cycles and
// the atomicInc after it takes 726-827, where an atomicInc alone takes 273-292).
//
// Thread 0 of one CTA, its lines warm in L2; clock reads around the fence and around the
// operation after it (its result used before the clock read):
//   <pre>_<fence>_<next>
//   pre:   st   a volatile store to another line just before the first clock read;  none   no store
//   fence: sc   fence.sc.gpu (__threadfence);  acqrel  fence.acq_rel.gpu;  nofence  nothing
//   next:  atom atomicInc;  ld  ld.global.cg;  st  a volatile store
// Prints `fence_next,variant,fence_cycles,next_cycles` (medians over 31 repetitions after 3), and
// `fence_gap,gap,cycles`: a fence `gap` cycles of spinning after the previous fence.
//
// Build and run (device machine): nvcc -O3 -arch=sm_90a h100_fence_next.cu -o fn && ./fn
#include "micro.cuh"


constexpr int REPS = 34;

template <int PRE, int FENCE, int NEXT>
__global__ void probe(unsigned* g, u64* rec) {
  if (threadIdx.x != 0) return;
  unsigned acc = 0;
  // Warm every line used (one store and one load each).
  for (int i = 0; i < 4; ++i) { g[i * 32] = i; acc += ((volatile unsigned*)g)[i * 32]; }
  for (int r = 0; r < REPS; ++r) {
    if (PRE) ((volatile unsigned*)g)[32] = r;
    u64 t0 = clk();
    if (FENCE == 0) asm volatile("fence.sc.gpu;" ::: "memory");
    if (FENCE == 1) asm volatile("fence.acq_rel.gpu;" ::: "memory");
    u64 t1 = clk();
    unsigned v = 0;
    if (NEXT == 0) v = atomicInc(g + 64, 1u << 30);
    if (NEXT == 1) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(g + 96) : "memory");
    if (NEXT == 2) ((volatile unsigned*)g)[96] = r;
    // An instruction that reads the result, kept before the clock read (asm volatile order).
    asm volatile("add.u32 %0, %0, 1;" : "+r"(v));
    u64 t2 = clk();
    acc += v;
    rec[r * 2] = t1 - t0;
    rec[r * 2 + 1] = t2 - t1;
    // Let everything drain before the next repetition.
    u64 a = clk(); while (clk() - a < 3000) {}
  }
  if (acc == 0xdeadbeef) g[0] = acc;
}

typedef void (*Probe)(unsigned*, u64*);
#define P3(pre, f) probe<pre, f, 0>, probe<pre, f, 1>, probe<pre, f, 2>
static const Probe kProbes[18] = {P3(0, 0), P3(0, 1), P3(0, 2), P3(1, 0), P3(1, 1), P3(1, 2)};

// A fence `gap` cycles after the previous one (spin in between), thread 0 alone: the fence's own
// cycles between two clock reads, the first fence of each pair discarded.
__global__ void gap_probe(unsigned gap, u64* rec) {
  if (threadIdx.x != 0) return;
  for (int r = 0; r < REPS; ++r) {
    asm volatile("fence.sc.gpu;" ::: "memory");
    u64 a = clk(); while (clk() - a < gap) {}
    u64 t0 = clk();
    asm volatile("fence.sc.gpu;" ::: "memory");
    u64 t1 = clk();
    rec[r * 2] = t1 - t0;
  }
}

static u64 med(std::vector<u64> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main() {
  print_sm_mhz("fence_next");
  unsigned* g; u64* rec;
  CK(cudaMalloc(&g, 4096));
  CK(cudaMemset(g, 0, 4096));
  CK(cudaMalloc(&rec, REPS * 2 * sizeof(u64)));
  const char* pn[2] = {"none", "st"};
  const char* fn[3] = {"sc", "acqrel", "nofence"};
  const char* nn[3] = {"atom", "ld", "st"};
  for (int pre = 0; pre < 2; ++pre)
    for (int fence = 0; fence < 3; ++fence)
      for (int next = 0; next < 3; ++next) {
        kProbes[pre * 9 + fence * 3 + next]<<<1, 32>>>(g, rec);
        CK(cudaDeviceSynchronize());
        std::vector<u64> h(REPS * 2);
        CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
        std::vector<u64> f, n;
        for (int r = 3; r < REPS; ++r) { f.push_back(h[r * 2]); n.push_back(h[r * 2 + 1]); }
        printf("fence_next,%s_%s_%s,%llu,%llu\n", pn[pre], fn[fence], nn[next], med(f), med(n));
      }
  for (unsigned gap : {0u, 50u, 100u, 200u, 400u, 800u, 1600u, 3200u, 6400u}) {
    gap_probe<<<1, 32>>>(gap, rec);
    CK(cudaDeviceSynchronize());
    std::vector<u64> h(REPS * 2);
    CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    std::vector<u64> f;
    for (int r = 3; r < REPS; ++r) f.push_back(h[r * 2]);
    printf("fence_gap,%u,%llu\n", gap, med(f));
  }
  return 0;
}
