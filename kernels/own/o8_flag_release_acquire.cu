// o8_flag_release_acquire.cu -- message passing with release/acquire flags between CTAs: block 0
// writes 64 values and publishes them with cuda::atomic_ref<int, device>.store(1, release)
// (st.release.gpu); block 1 spins with load(acquire) (ld.acquire.gpu) on the flag, then reads the
// values and writes out[i] = data[i] + 1; it answers with a second flag that block 0 acquires
// before it writes out[64] = the sum block 1 published.
#include <cuda/atomic>
__global__ void __launch_bounds__(64) flag_release_acquire(int* data, int* flags, int* __restrict__ out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f0(flags[0]), f1(flags[1]);
  __shared__ int s[64];
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 7 * threadIdx.x + 3;
    __syncthreads();
    if (threadIdx.x == 0) {
      f0.store(1, cuda::memory_order_release);
      while (f1.load(cuda::memory_order_acquire) == 0) {}
      out[64] = data[64];
    }
  } else {
    if (threadIdx.x == 0) while (f0.load(cuda::memory_order_acquire) == 0) {}
    __syncthreads();
    const int v = data[threadIdx.x];
    out[threadIdx.x] = v + 1;
    s[threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
      int t = 0;
      for (int i = 0; i < 64; ++i) t += s[i];
      data[64] = t;
      f1.store(1, cuda::memory_order_release);
    }
  }
}
