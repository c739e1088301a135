// o9_device_calls.cu -- device-function calls (nvcc's call sequences with .param arguments and a
// return value): __noinline__ functions, a nested call, and calls on divergent paths (odd lanes
// call f, even lanes call sq directly). out[t] = put(v): v if v is odd, else -v.
__device__ __noinline__ int sq(int x) { return x * x; }
__device__ __noinline__ int f(int a, int b) { return a > b ? sq(a - b) : sq(b - a) + 1; }
__device__ __noinline__ void put(int* p, int v) {
  if (v & 1) *p = v;
  else *p = -v;
}
__global__ void __launch_bounds__(64) device_calls(const int* __restrict__ in, int* __restrict__ out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (threadIdx.x & 1) ? f(in[t], 100) : sq(in[t]);
  put(out + t, v);
}
