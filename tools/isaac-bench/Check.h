//===- Check.h - Check one isaac launch against the fp64 reference -*- C++
//-*-===//

#ifndef ISAAC_BENCH_CHECK_H
#define ISAAC_BENCH_CHECK_H

#include "DeviceBuffer.h"
#include "KernelDir.h"
#include "Problem.h"

#include <cuda_runtime.h>

#include <string>

namespace bench {

/// Default tolerances on max |c - ref| / (|alpha|*sum|a||b| + |beta*c0|).
/// Rounding errors of a length-K dot product grow like sqrt(K)*u for random
/// data (worst case K*u), but this metric divides by sum|a||b|, which grows
/// like K, so it stays near the unit roundoff u for any K: f32 (u = 6e-8)
/// passes with two orders of magnitude to spare at 1e-5, f64 (u = 1.1e-16)
/// with three at 1e-13. Wrong indices or missing terms give errors near 1.
constexpr double kDefaultToleranceF32 = 1e-5;
constexpr double kDefaultToleranceF64 = 1e-13;

struct CheckBuffers {
  DeviceBuffer A, B, C, C0, ref, bound, result;
};

struct CheckOutcome {
  bool passed = false;
  double maxError = 0; // infinity for NaN or a clobbered padding element
  unsigned long long badElements = 0;
  std::string failure; // why it failed: launch error or the worst element
};

/// Runs `kernel` once on `p` with fresh random inputs (C poisoned with NaN
/// when beta is 0, random otherwise) through isaacGemmLaunch and compares
/// every element of the C allocation with the fp64 reference.
CheckOutcome checkKernel(const KernelFile &kernel, const Problem &p,
                         double alpha, double beta, int flags, uint64_t seed,
                         double tolerance, CheckBuffers &buffers,
                         cudaStream_t stream);

} // namespace bench

#endif // ISAAC_BENCH_CHECK_H
