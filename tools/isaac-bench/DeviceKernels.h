//===- DeviceKernels.h - Data generation and the fp64 reference -*- C++ -*-===//
//
// Everything the correctness checks do on the data runs on the GPU: inputs
// are generated there, the fp64 reference and the comparison are computed
// there, and only a 16-byte summary comes back. That keeps the sweep's
// thousands of checks fast.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_DEVICEKERNELS_H
#define ISAAC_BENCH_DEVICEKERNELS_H

#include "Precision.h"
#include "Problem.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace bench {

/// Fills `count` elements of an isaacDtype (f32, f64, f16, bf16) with values
/// uniform in (-1, 1), never zero, with `bits` significant bits (0: all of
/// the type's; Precision.h, exactUniform), from a counter-based generator:
/// the same seed gives the same data.
void fillUniform(void *data, int dtype, int64_t count, uint64_t seed,
                 cudaStream_t stream, int bits = 0);

/// Fills `count` elements of an isaacDtype with a quiet NaN.
void fillNaN(void *data, int dtype, int64_t count, cudaStream_t stream);

/// ref = alpha*op(A)*op(B) + beta*C0 and bound = |alpha|*|op(A)|*|op(B)| +
/// |beta*C0| in fp64, as dense batch x M x N arrays, with A and B of
/// p.dtype and C0 of p.outDtype. C0 is not read when beta is 0 (it holds
/// NaN then).
void referenceGemm(const Problem &p, const void *A, const void *B,
                   const void *C0, double *ref, double *bound, double alpha,
                   double beta, cudaStream_t stream);

/// Summary of a comparison. `worst` packs the largest error, rounded up to
/// float, in its high 32 bits (so that atomicMax orders by it) and the
/// element index in its low 32 bits.
struct CompareResult {
  unsigned long long worst;
  unsigned long long bad;
};

/// Compares the `count` elements of p.outDtype from the C allocation `C`
/// (base pointers at element p.offset) with the reference: elements of the
/// product must have an error (elementError under `model`) within
/// errorLimit(model); all others (padding, batch gaps, the misalignment
/// gap, the guard after the end) must be bitwise unchanged from `C0`. NaN
/// never passes. `result` must be zeroed first.
void compareWithReference(const Problem &p, const void *C, const void *C0,
                          const double *ref, const double *bound, int64_t count,
                          const ErrorModel &model, CompareResult *result,
                          cudaStream_t stream);

/// Keeps the stream busy for `nanoseconds`, so that work enqueued behind it
/// starts without gaps however long the host takes to enqueue it.
void delayStream(uint64_t nanoseconds, cudaStream_t stream);

/// Reads `bytes` of `data` (16-byte aligned) through L2. A buffer of twice
/// the L2 size evicts whatever the last kernel left there with clean lines:
/// the next kernel reads its operands from memory. `sink` (one int of
/// device memory) is never written in practice.
void readThrough(const void *data, size_t bytes, int *sink,
                 cudaStream_t stream);

} // namespace bench

#endif // ISAAC_BENCH_DEVICEKERNELS_H
