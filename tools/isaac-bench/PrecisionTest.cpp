//===- PrecisionTest.cpp - The checks' inputs and bounds per element type -===//
//
// isaac-bench-precision-test: the part of isaac-bench's correctness check
// that decides, per element type, what a right kernel is, exercised without
// a GPU. It draws the inputs the GPU check draws (Precision.h, the same
// functions), computes the fp64 reference and bound, and runs CPU models of
// kernels through the same error model (checkErrorModel, elementError):
//   right         products of the inputs (TF32: truncated to 10 mantissa
//                 bits, or rounded to nearest), summed in f32 in K order,
//                 alpha*acc + beta*c0 in f32, rounded to C's type;
//   f16-acc       the same with the accumulator rounded to f16 after every
//                 addition (16-bit types);
//   drop-tile     one 16-deep K tile left out (the middle one; for K = 33
//                 the tail);
//   beta-ignored  C's old value not added;
//   tf32-unbounded  TF32 products of arbitrary f32 inputs checked with the
//                 bound for inputs exact in TF32 (the input term missing).
// Right kernels must pass for every type, K and beta; the faults must fail
// where they exceed the bound (mustFail): f16-acc from K = 33 on,
// drop-tile whenever there is a tile to drop, up to K = 60000 (4096 for
// arbitrary TF32 inputs), beta-ignored and tf32-unbounded up to K = 4096
// (beta-ignored up to 256 for arbitrary TF32 inputs). It also checks that the
// generated inputs are exact in their types, never zero, in (-1, 1) and of both
// signs. Prints one line per case and `precision test: N cases, N unexpected`;
// exits 1 on any unexpected result.
//
//===----------------------------------------------------------------------===//

#include "Precision.h"
#include "Problem.h"

#include "isaac/Model/Epilogue.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace bench;
using isaac::DType;

namespace {

enum class Model {
  Right,
  RightNearest,
  F16Acc,
  DropTile,
  BetaIgnored,
  Tf32Unbounded
};

const char *modelName(Model m) {
  static const char *const names[] = {"right",        "right-rna",
                                      "f16-acc",      "drop-tile",
                                      "beta-ignored", "tf32-unbounded"};
  return names[static_cast<int>(m)];
}

/// x truncated (toward zero) to 10 mantissa bits, as tensor cores read the
/// f32 bits of a TF32 operand.
double truncateTf32(double x) {
  float f = static_cast<float>(x);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  bits &= ~uint32_t(0x1fff);
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// x rounded to the nearest value with 11 significant bits (cvt.rna: ties
/// away from zero).
double roundTf32(double x) {
  if (x == 0)
    return x;
  int e = std::ilogb(x);
  double quantum = std::ldexp(1.0, e - 10);
  return std::round(x / quantum) * quantum;
}

struct Result {
  unsigned long long bad = 0;
  double worst = 0;
};

/// One case: the inputs of `types` for an M x N x K problem drawn as the
/// GPU check draws them, the model's output, and the error model's
/// verdict on every element.
Result run(isaac::GemmTypes types, bool fullInputs, int64_t K, double beta,
           Model model, uint64_t seed) {
  const int64_t M = 16, N = 8;
  const double alpha = 1.5;
  Shape shape;
  shape.M = M;
  shape.N = N;
  shape.K = K;
  Problem p = makeProblem(shape, types, 1, 0, 0, false);
  p.tf32FullInputs = fullInputs && types.tf32;
  int ab = p.dtype, c = p.outDtype;
  int bits = types.tf32 && !p.tf32FullInputs ? kTf32Bits : inputBits(ab);
  std::vector<double> a(M * K), b(K * N), c0(M * N);
  for (int64_t i = 0; i < M * K; ++i)
    a[i] = exactUniform(elementBits(seed * 3, i), bits);
  for (int64_t i = 0; i < K * N; ++i)
    b[i] = exactUniform(elementBits(seed * 3 + 1, i), bits);
  for (int64_t i = 0; i < M * N; ++i)
    c0[i] = exactUniform(elementBits(seed * 3 + 2, i), inputBits(c));

  // The bound the check applies; tf32-unbounded uses the one for inputs
  // exact in TF32 on arbitrary inputs.
  Problem checked = p;
  if (model == Model::Tf32Unbounded)
    checked.tf32FullInputs = false;
  ErrorModel errorModel = checkErrorModel(checked, 1e-5);
  // The tile left out: the middle one of 16, or the tail past the last
  // whole tile.
  int64_t tiles = K / 16;
  int64_t dropBegin = K % 16 && tiles > 0 ? tiles * 16
                      : tiles > 1         ? (tiles / 2) * 16
                                          : K;
  int64_t dropEnd = std::min(K, dropBegin + 16);

  Result result;
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double ref = 0, abs = 0;
      float acc = 0;
      for (int64_t k = 0; k < K; ++k) {
        double x = a[m * K + k], y = b[k * N + n];
        ref += x * y;
        abs += std::fabs(x * y);
        if (types.tf32) {
          bool nearest = model == Model::RightNearest;
          x = nearest ? roundTf32(x) : truncateTf32(x);
          y = nearest ? roundTf32(y) : truncateTf32(y);
        }
        if (model == Model::DropTile && k >= dropBegin && k < dropEnd)
          continue;
        // Exact for 16-bit and TF32 operands (at most 22 significant bits).
        float product = static_cast<float>(x * y);
        acc = acc + product;
        if (model == Model::F16Acc)
          acc = static_cast<float>(isaac::roundToType(acc, DType::F16));
      }
      double old = beta != 0 ? c0[m * N + n] : 0.0;
      ref = alpha * ref + beta * old;
      double bound = alpha * abs + std::fabs(beta * old);
      double keptBeta = model == Model::BetaIgnored ? 0.0 : beta;
      float x = std::fma(static_cast<float>(alpha), acc,
                         static_cast<float>(keptBeta * old));
      double out = isaac::roundToType(x, static_cast<DType>(c));
      double error = elementError(out, ref, bound, errorModel);
      if (!(error <= errorLimit(errorModel)))
        ++result.bad;
      result.worst = std::max(result.worst, error);
    }
  return result;
}

/// Whether the model must fail. A right kernel must pass. The faults are
/// visible only while they exceed the bound, which grows like K (the
/// bound is relative to sum|a||b|, while a fault's error grows like
/// sqrt(K) at most, or not at all): beta ignored (|beta*c0| <= 0.5) and
/// TF32 rounding left out of the bound up to K = 4096; with arbitrary TF32
/// inputs, whose bound is 2^-9 wider, a dropped tile up to K = 4096 and
/// beta ignored up to K = 256.
bool mustFail(Model model, isaac::GemmTypes types, bool fullInputs, int64_t K,
              double beta) {
  bool wide = types.tf32 && fullInputs;
  switch (model) {
  case Model::Right:
  case Model::RightNearest:
    return false;
  case Model::F16Acc:
    return K >= 33;
  case Model::DropTile:
    return K > 16 && K <= (wide ? 4096 : 60000);
  case Model::BetaIgnored:
    return beta != 0 && K <= (wide ? 256 : 4096);
  case Model::Tf32Unbounded:
    return types.tf32 && K <= 4096;
  }
  return false;
}

/// The generator's values for `bits`: exact in `type`, in (-1, 1), never
/// zero, and of both signs. Returns the number of failures.
int checkInputs(const char *label, int bits, DType type) {
  int failures = 0;
  int negative = 0, positive = 0;
  for (uint64_t i = 0; i < 100000; ++i) {
    double v = exactUniform(elementBits(7, i), bits);
    if (!(v > -1 && v < 1) || v == 0 || isaac::roundToType(v, type) != v) {
      if (++failures <= 3)
        std::printf("UNEXPECTED inputs %s: value %.17g\n", label, v);
    }
    (v < 0 ? negative : positive)++;
  }
  bool balanced = negative > 45000 && positive > 45000;
  std::printf("%s inputs %s: %d negative, %d positive, %d not exact\n",
              failures || !balanced ? "UNEXPECTED" : "ok", label, negative,
              positive, failures);
  return failures || !balanced;
}

} // namespace

int main() {
  int total = 0, unexpected = 0;
  // TF32-exact values are checked against f16, which has their 11 bits
  // (and the range of (-1, 1)).
  const struct {
    const char *label;
    int bits;
    DType type;
  } inputs[] = {{"f32", inputBits(0), DType::F32},
                {"f64", inputBits(1), DType::F64},
                {"f16", inputBits(2), DType::F16},
                {"bf16", inputBits(3), DType::BF16},
                {"tf32-exact", kTf32Bits, DType::F16}};
  for (const auto &in : inputs) {
    ++total;
    unexpected += checkInputs(in.label, in.bits, in.type);
  }

  const struct {
    const char *token;
    bool fullInputs;
  } types[] = {{"f32", false},    {"f16", false},     {"bf16", false},
               {"f16f32", false}, {"bf16f32", false}, {"tf32", false},
               {"tf32", true}};
  const int64_t sizes[] = {1, 7, 16, 33, 64, 256, 1000, 4096, 60000};
  uint64_t seed = 1;
  for (const auto &t : types) {
    isaac::GemmTypes gemmTypes = *isaac::GemmTypes::parseToken(t.token);
    std::vector<Model> models = {Model::Right, Model::DropTile,
                                 Model::BetaIgnored};
    if (gemmTypes.ab == DType::F16 || gemmTypes.ab == DType::BF16)
      models.push_back(Model::F16Acc);
    if (gemmTypes.tf32)
      models.push_back(Model::RightNearest);
    if (gemmTypes.tf32 && t.fullInputs)
      models.push_back(Model::Tf32Unbounded);
    for (int64_t K : sizes)
      for (double beta : {0.0, 0.5})
        for (Model model : models) {
          Result r = run(gemmTypes, t.fullInputs, K, beta, model, seed++);
          bool fail = mustFail(model, gemmTypes, t.fullInputs, K, beta);
          bool ok = (r.bad > 0) == fail;
          // Only right kernels (which must pass), beta ignored where it
          // changes nothing (beta = 0) and faults that must fail are
          // judged; the others are printed for information.
          bool judged = fail || model == Model::Right ||
                        model == Model::RightNearest ||
                        (model == Model::BetaIgnored && beta == 0);
          ++total;
          unexpected += judged && !ok;
          std::printf("%s %s%s K=%lld beta=%g %s: %llu bad, worst %.3g%s\n",
                      !judged ? "info"
                      : ok    ? "ok"
                              : "UNEXPECTED",
                      t.token, t.fullInputs ? " full-inputs" : "", (long long)K,
                      beta, modelName(model), r.bad, r.worst,
                      fail ? " (must fail)" : "");
        }
  }
  std::printf("precision test: %d cases, %d unexpected\n", total, unexpected);
  return unexpected ? 1 : 0;
}
