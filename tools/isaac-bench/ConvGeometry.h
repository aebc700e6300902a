//===- ConvGeometry.h - Where a convolution's elements live -----*- C++ -*-===//
//
// The index arithmetic of the fp64 reference convolution, shared by the GPU
// kernel (ConvKernels.cu) and the host test (ConvTest.cpp), so that the
// rule the host test checks against a direct loop is the one the GPU runs.
// A tensor is described by its element strides, so the same reference
// serves isaac's layouts (NHWC input and output, HWCF or FHWC filters) and
// both of cuDNN's (NHWC with KRSC filters, NCHW with KCRS filters).
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_CONVGEOMETRY_H
#define ISAAC_BENCH_CONVGEOMETRY_H

#include "Precision.h" // BENCH_HD

#include <cstdint>

namespace bench {

/// A convolution's sizes and the strides (in elements) of its packed
/// tensors. The implicit GEMM's rows are m = (n*P + p)*Q + q, its
/// reduction index j = (r*S + s)*C + c (c fastest, as isaac's kernels order
/// it; the reference's order does not matter in fp64).
struct ConvGeometry {
  int64_t n, h, w, c, k, r, s, p, q;
  int64_t strideH, strideW, dilationH, dilationW, padTop, padLeft;
  int64_t in[4];     ///< input strides along n, y, x, c
  int64_t filter[4]; ///< filter strides along k, r, s, c
  int64_t out[4];    ///< output strides along n, p, q, k
};

BENCH_HD inline void decodeRow(const ConvGeometry &g, int64_t m, int64_t &n,
                               int64_t &p, int64_t &q) {
  q = m % g.q;
  int64_t np = m / g.q;
  p = np % g.p;
  n = np / g.p;
}

BENCH_HD inline void decodeReduction(const ConvGeometry &g, int64_t j,
                                     int64_t &r, int64_t &s, int64_t &c) {
  c = j % g.c;
  int64_t rs = j / g.c;
  s = rs % g.s;
  r = rs / g.s;
}

/// The offset of the input element that output pixel (n, p, q) reads at
/// filter tap (r, s), channel c; -1 when it lies in the padding (zero).
BENCH_HD inline int64_t inputOffset(const ConvGeometry &g, int64_t n, int64_t p,
                                    int64_t q, int64_t r, int64_t s,
                                    int64_t c) {
  int64_t y = p * g.strideH - g.padTop + r * g.dilationH;
  int64_t x = q * g.strideW - g.padLeft + s * g.dilationW;
  if (y < 0 || y >= g.h || x < 0 || x >= g.w)
    return -1;
  return n * g.in[0] + y * g.in[1] + x * g.in[2] + c * g.in[3];
}

BENCH_HD inline int64_t filterOffset(const ConvGeometry &g, int64_t k,
                                     int64_t r, int64_t s, int64_t c) {
  return k * g.filter[0] + r * g.filter[1] + s * g.filter[2] + c * g.filter[3];
}

BENCH_HD inline int64_t outputOffset(const ConvGeometry &g, int64_t n,
                                     int64_t p, int64_t q, int64_t k) {
  return n * g.out[0] + p * g.out[1] + q * g.out[2] + k * g.out[3];
}

/// The output element at `offset` (in [0, N*P*Q*K)) as (n, p, q, k): the
/// inverse of outputOffset for packed layouts (strides that are products
/// of sizes; a dimension of size 1 may tie with the next, and takes 0).
BENCH_HD inline void decodeOutput(const ConvGeometry &g, int64_t offset,
                                  int64_t &n, int64_t &p, int64_t &q,
                                  int64_t &k) {
  int64_t index[4] = {0, 0, 0, 0};
  // Peel the dimensions from the largest stride down.
  bool used[4] = {false, false, false, false};
  for (int step = 0; step < 4; ++step) {
    int best = -1;
    for (int d = 0; d < 4; ++d)
      if (!used[d] && (best < 0 || g.out[d] > g.out[best]))
        best = d;
    used[best] = true;
    index[best] = offset / g.out[best];
    offset -= index[best] * g.out[best];
  }
  n = index[0];
  p = index[1];
  q = index[2];
  k = index[3];
}

} // namespace bench

#endif // ISAAC_BENCH_CONVGEOMETRY_H
