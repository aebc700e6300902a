// The rate of each f64 mma.sync shape on the GPU at hand (docs/perf.md,
// "f64 on DMMA"): m8n8k4 (sm_80's only f64 shape) against sm_90's
// m16n8k4, m16n8k8 and m16n8k16, each warp issuing 8 independent chains of
// register-only instructions, 528 blocks of 1-8 warps. On the GPU machine:
//   nvcc -arch=sm_90 -O3 -o dmma-rate scripts/gpu/dmma-rate.cu && ./dmma-rate
#include <cstdio>
#include <cuda_runtime.h>
template <int SHAPE>
__global__ void k(double *out, int iters) {
  double a[8], b[4], c[8][4];
  for (int i = 0; i < 8; ++i) a[i] = threadIdx.x * 1e-9 + i;
  for (int i = 0; i < 4; ++i) b[i] = threadIdx.x * 1e-9 - i;
  for (int t = 0; t < 8; ++t) for (int i = 0; i < 4; ++i) c[t][i] = 0;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      if (SHAPE == 0)
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1},{%2},{%3},{%0,%1};"
                     : "+d"(c[t][0]), "+d"(c[t][1]) : "d"(a[0]), "d"(b[0]));
      else if (SHAPE == 1)
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3},{%4,%5},{%6},{%0,%1,%2,%3};"
                     : "+d"(c[t][0]), "+d"(c[t][1]), "+d"(c[t][2]), "+d"(c[t][3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]));
      else if (SHAPE == 2)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%0,%1,%2,%3};"
                     : "+d"(c[t][0]), "+d"(c[t][1]), "+d"(c[t][2]), "+d"(c[t][3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
      else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3},{%4,%5,%6,%7,%8,%9,%10,%11},{%12,%13,%14,%15},{%0,%1,%2,%3};"
                     : "+d"(c[t][0]), "+d"(c[t][1]), "+d"(c[t][2]), "+d"(c[t][3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
    }
  }
  double s = 0;
  for (int t = 0; t < 8; ++t) for (int i = 0; i < 4; ++i) s += c[t][i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <int S> void run(const char *name, long flopsPerInstr, int warps) {
  double *out; cudaMalloc(&out, 132 * 16 * 1024 * 8);
  int blocks = 132 * 4, threads = 32 * warps, iters = 2000;
  k<S><<<blocks, threads>>>(out, 10);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaEventRecord(e0);
  k<S><<<blocks, threads>>>(out, iters);
  cudaEventRecord(e1); cudaEventSynchronize(e1);
  float ms; cudaEventElapsedTime(&ms, e0, e1);
  double flops = 2.0 * flopsPerInstr * 8 * iters * (double)blocks * warps;
  printf("%-10s warps/block %2d: %7.2f TFLOP/s (%s)\n", name, warps, flops / ms / 1e9, cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
}
int main() {
  for (int w : {1, 2, 4, 8}) {
    run<0>("m8n8k4", 8 * 8 * 4, w);
    run<1>("m16n8k4", 16 * 8 * 4, w);
    run<2>("m16n8k8", 16 * 8 * 8, w);
    run<3>("m16n8k16", 16 * 8 * 16, w);
  }
}
