// o2_named_barrier_ws.cu -- named-barrier warp specialisation: warp 0 produces tiles into a
// 3-stage shared ring, warps 1..3 consume them. FULL[s] = barrier 1+s and EMPTY[s] = 4+s, each
// counting all 128 threads: the waiting side uses bar.sync, the signalling side bar.arrive
// (immediate ids and counts). out[t] = sum over the tile of (x * 5 + lane), per tile.
constexpr int STAGES = 3, TILES = 6, TILE = 96;
#define SYNC(id) asm volatile("bar.sync %0, 128;" ::"n"(id) : "memory")
#define ARRIVE(id) asm volatile("bar.arrive %0, 128;" ::"n"(id) : "memory")
__device__ __forceinline__ void bar_sync_full(int s) { if (s == 0) SYNC(1); else if (s == 1) SYNC(2); else SYNC(3); }
__device__ __forceinline__ void bar_arrive_full(int s) { if (s == 0) ARRIVE(1); else if (s == 1) ARRIVE(2); else ARRIVE(3); }
__device__ __forceinline__ void bar_sync_empty(int s) { if (s == 0) SYNC(4); else if (s == 1) SYNC(5); else SYNC(6); }
__device__ __forceinline__ void bar_arrive_empty(int s) { if (s == 0) ARRIVE(4); else if (s == 1) ARRIVE(5); else ARRIVE(6); }

__global__ void __launch_bounds__(128) named_barrier_ws(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int ring[STAGES][TILE];
  __shared__ int part[3][TILES];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (warp == 0) {
    for (int t = 0; t < TILES; ++t) {
      const int s = t % STAGES;
      if (t >= STAGES) bar_sync_empty(s);
      for (int i = lane; i < TILE; i += 32) ring[s][i] = in[t * TILE + i] * 5;
      bar_arrive_full(s);
    }
  } else {
    for (int t = 0; t < TILES; ++t) {
      const int s = t % STAGES;
      bar_sync_full(s);
      const int v = ring[s][(warp - 1) * 32 + lane] + lane;
      if (t + STAGES < TILES) bar_arrive_empty(s);
      int x = v;
      for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
      if (lane == 0) part[warp - 1][t] = x;
    }
  }
  __syncthreads();
  if (threadIdx.x < TILES) out[threadIdx.x] = part[0][threadIdx.x] + part[1][threadIdx.x] + part[2][threadIdx.x];
}
