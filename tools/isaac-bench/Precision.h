//===- Precision.h - Check inputs and error bounds per element type -*- C++
//-*-//
//
// What a correctness check draws as inputs, and how far an element of C may
// lie from the fp64 reference, for every GEMM type isaac-bench checks: f32
// and f64; f16 and bf16 operands with f32 accumulation and a 16-bit or f32
// C; f32 operands multiplied in TF32. The functions are shared by the GPU
// side of the check (DeviceKernels.cu) and the host tests
// (PrecisionTest.cpp), so that the rule the host tests exercise is the one
// the GPU applies. README.md, "Tolerances", derives the bounds.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_PRECISION_H
#define ISAAC_BENCH_PRECISION_H

#include <cfloat>
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define BENCH_HD __host__ __device__
#else
#define BENCH_HD
#endif

namespace bench {

/// splitmix64's finalizer: consecutive indices give independent values.
BENCH_HD inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/// The random bits of element `index` of an array filled with `seed`: the
/// same seed gives the same data.
BENCH_HD inline uint64_t elementBits(uint64_t seed, uint64_t index) {
  return mix64(seed ^ mix64(index));
}

/// A value uniform in (-1, 1) with at most `bits` significant bits (1 to
/// 52): (2x + 1) * 2^-bits - 1, x the top `bits` bits of `random`. It is
/// exact in every type with at least `bits` significant bits and never
/// zero, so no product term of the GEMM vanishes and hides a wrong index.
BENCH_HD inline double exactUniform(uint64_t random, int bits) {
  double odd = static_cast<double>(random >> (64 - bits)) * 2.0 + 1.0;
  return ldexp(odd, -bits) - 1.0;
}

/// Significant bits of the values a check draws for an isaacDtype (0 f32,
/// 1 f64, 2 f16, 3 bf16): all of the type's (52 for f64, which keeps the
/// construction above exact). kTf32Bits: f32 values exact in TF32.
BENCH_HD inline int inputBits(int dtype) {
  switch (dtype) {
  case 0:
    return 24;
  case 1:
    return 52;
  case 2:
    return 11;
  default:
    return 8;
  }
}
constexpr int kTf32Bits = 11;

/// How far an element c of C may lie from its fp64 reference `ref`, whose
/// bound is |alpha| * sum_k |a_ik b_kj| + |beta * c0|:
///   |c - ref| <= boundRel * bound + valueRel * |ref| + absolute.
/// boundRel covers the accumulation (and, for TF32 multiplies of f32
/// inputs, the inputs' rounding), valueRel and absolute the rounding of
/// the result to C's type.
struct ErrorModel {
  double boundRel = 0;
  double valueRel = 0;
  double absolute = 0;
  /// Whether the error is reported as a fraction of the allowance above
  /// (1 passes), or, as for f32 and f64, as |c - ref| / bound (boundRel
  /// passes; valueRel and absolute are 0).
  bool fraction = false;
};

/// The error of element c against `ref` and `bound` under `model`;
/// infinity for NaN and infinities, so that they never pass.
BENCH_HD inline double elementError(double c, double ref, double bound,
                                    const ErrorModel &model) {
  double deviation = fabs(c - ref);
  double error = model.fraction
                     ? deviation / (model.boundRel * bound +
                                    model.valueRel * fabs(ref) + model.absolute)
                     : deviation / (bound + DBL_MIN);
  // Written so that NaN counts as the largest error.
  return error <= DBL_MAX ? error : INFINITY;
}

/// The largest error that passes.
BENCH_HD inline double errorLimit(const ErrorModel &model) {
  return model.fraction ? 1.0 : model.boundRel;
}

struct Problem;

/// The accumulation's part of the bound: base + 4*sqrt(K)*u, u the unit
/// roundoff of the accumulation (2^-24 for f32, 2^-53 for f64). A length-K
/// sum's rounding errors, relative to sum|a||b|, grow like sqrt(K)*u for
/// random data (Higham's worst case is K*u): measured on an H200, kernels
/// that sum K = 60000 terms in one f32 accumulator reach 1.9e-5 = 330u.
/// Wrong indices or missing terms give errors near 1, far above it. For
/// TF32 multiplies of arbitrary f32 inputs, 2^-9 + 2^-20 more: each input
/// loses up to 2^-10 of its value (truncated to 10 mantissa bits; 2^-11
/// when rounded to nearest), so each product up to 2*2^-10 + 2^-20.
double checkTolerance(double base, const Problem &p);

/// The error model of a check of `p` with base tolerance `base` (--tol-f32
/// for every type that accumulates in f32, --tol-f64 for f64):
///   f32, f64   boundRel = checkTolerance(base, p), reported as
///              |c - ref| / bound (as isaac-bench always did);
///   others     boundRel as above, valueRel and absolute the rounding of
///              the result to C's type: 2^-11 and 2^-25 for f16 (half the
///              spacing of its subnormals), 2^-8 and 2^-134 for bf16, 2^-24
///              and 2^-150 for f32; reported as a fraction of the
///              allowance.
ErrorModel checkErrorModel(const Problem &p, double base);

} // namespace bench

#endif // ISAAC_BENCH_PRECISION_H
