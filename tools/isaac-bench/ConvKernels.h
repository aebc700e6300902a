//===- ConvKernels.h - fp64 reference convolution and comparison -*- C++
//-*-===//
//
// The GPU side of the convolution checks: an fp64 reference computed from
// the same input values (converted to double, accumulated in double) and
// a comparison of every element of the output allocation, so that only a
// small summary comes back to the host.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_CONVKERNELS_H
#define ISAAC_BENCH_CONVKERNELS_H

#include "ConvGeometry.h"
#include "Precision.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace bench {

/// ref = alpha*conv(I, F) + beta*O0 and bound = |alpha|*sum|i*f| +
/// |beta*O0| in fp64 (input elements in the padding read as zero), stored
/// at the output's own offsets (outputOffset(g, ...)): dense arrays of
/// N*P*Q*K doubles in the output's layout. I and F hold `dtype` elements,
/// O0 `outDtype` ones; O0 is not read when beta is 0 (it holds NaN then).
void referenceConv(const ConvGeometry &g, int dtype, int outDtype,
                   const void *I, const void *F, const void *O0, double *ref,
                   double *bound, double alpha, double beta,
                   cudaStream_t stream);

/// Summary of a comparison: `worst` packs the largest error, rounded up to
/// float, in its high 32 bits and its element's index in the low 32 bits;
/// `firstBad` is the index of the first failing element (~0 if none).
/// Indices count elements of the output allocation.
struct ConvCompareResult {
  unsigned long long worst;
  unsigned long long bad;
  unsigned long long firstBad;
};

/// Compares the `count` elements of the output allocation `O` (of
/// `outDtype`; the output starts at element `offset` and has `outputs`
/// elements) with the reference: the output's elements must have an error
/// (elementError under `model`) within errorLimit(model), the others (the
/// misalignment gap, the guard after the end) must be bitwise unchanged
/// from `O0`. NaN never passes. `result` must be set to {0, 0, ~0} first
/// (resetConvCompare).
void compareConvOutput(int outDtype, const void *O, const void *O0,
                       const double *ref, const double *bound, int64_t offset,
                       int64_t outputs, int64_t count, const ErrorModel &model,
                       ConvCompareResult *result, cudaStream_t stream);

/// Sets `result` to {0, 0, ~0} on `stream`.
void resetConvCompare(ConvCompareResult *result, cudaStream_t stream);

} // namespace bench

#endif // ISAAC_BENCH_CONVKERNELS_H
