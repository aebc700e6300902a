//===- HostTest.cpp - The host half of the fused-epilogue checks ----------===//
//
// isaac-bench-host-test: runs compareFusedOutput, the host half of
// isaac-bench's fused-epilogue check, on outputs that a CPU model of a fused
// kernel writes by the ABI (docs/abi.md), without a GPU. A right output must
// pass for every input layout, batch and alignment; outputs with one thing
// wrong (a clobbered padding element, a NaN, an input read at the wrong
// place, beta ignored, batches sharing an input that has a batch stride, x
// beyond the GEMM's error bound) must fail. Prints one line per case and
// `host test: N cases, N unexpected`; exits 1 on any unexpected result.
//
//===----------------------------------------------------------------------===//

#include "EpilogueCheck.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace bench;
using isaac::DType;

namespace {

/// The bits of `v` (exact in `dtype`) in the storage format of `dtype`.
uint64_t encodeBits(double v, int dtype) {
  switch (dtype) {
  case 0: {
    float f = static_cast<float>(v);
    uint32_t b;
    std::memcpy(&b, &f, sizeof(b));
    return b;
  }
  case 1: {
    uint64_t b;
    std::memcpy(&b, &v, sizeof(b));
    return b;
  }
  case 2: {
    uint64_t sign = std::signbit(v) ? 0x8000 : 0;
    double a = std::fabs(v);
    if (std::isnan(v))
      return 0x7e00;
    if (std::isinf(v))
      return sign | 0x7c00;
    if (a == 0)
      return sign;
    int e = std::ilogb(a);
    if (e < -14) // subnormal: multiples of 2^-24
      return sign | static_cast<uint64_t>(std::ldexp(a, 24));
    return sign | static_cast<uint64_t>(e + 15) << 10 |
           (static_cast<uint64_t>(std::ldexp(a, 10 - e)) - 1024);
  }
  default: {
    float f = static_cast<float>(v);
    uint32_t b;
    std::memcpy(&b, &f, sizeof(b));
    return b >> 16;
  }
  }
}

void store(std::vector<char> &data, int dtype, int64_t index, double v) {
  uint64_t bits = encodeBits(v, dtype);
  size_t size = dtypeSize(dtype);
  std::memcpy(data.data() + index * size, &bits, size);
}

enum class Fault {
  None,
  Padding,     // an element outside the product written
  NaN,         // one output NaN
  InputIndex,  // input 0 read one element too far
  BetaIgnored, // C_old not added
  SharedBatch, // every batch reads batch 0 of the inputs
  XError,      // x off by 50 times the GEMM's error bound
};

const char *faultName(Fault f) {
  static const char *const names[] = {
      "none",         "padding",      "nan",    "input-index",
      "beta-ignored", "shared-batch", "x-error"};
  return names[static_cast<int>(f)];
}

struct Case {
  const char *label;
  const char *program;
  Shape shape;
  int64_t batch, ldPad;
  bool misalign;
  double beta;
};

/// Runs a CPU model of the fused kernel of `c` with the inputs laid out as
/// `patterns` (with or without batch strides) and `fault`, and compares its
/// output.
FusedComparison run(const Case &c, const isaac::EpilogueProgram &program,
                    const std::vector<InputPattern> &patterns, bool batchStride,
                    Fault fault, std::mt19937_64 &rng) {
  isaac::GemmTypes types;
  types.ab = types.c = program.accType;
  Problem p = makeProblem(c.shape, types, c.batch, c.ldPad, 1, c.misalign);
  p.outDtype = static_cast<int>(program.outType);
  const double alpha = 1.5;
  std::uniform_real_distribution<double> uniform(-1, 1);
  auto value = [&](DType t) { return isaac::roundToType(uniform(rng), t); };

  // The GEMM part: alpha*acc and its bound, from random A and B values.
  int64_t outputs = p.batch * p.M * p.N;
  std::vector<double> ref(outputs), bound(outputs);
  std::vector<double> a(p.K), b(p.K);
  for (int64_t e = 0; e < outputs; ++e) {
    double acc = 0, abs = 0;
    for (int64_t k = 0; k < p.K; ++k) {
      double x = value(program.accType), y = value(program.accType);
      acc += x * y;
      abs += std::fabs(x * y);
    }
    ref[e] = alpha * acc;
    bound[e] = alpha * abs;
  }
  // C: NaN (not to be read) when beta is 0, else random; 64 guards.
  int64_t countC = p.offset + p.spanC() + 64;
  std::vector<char> out(countC * p.outElementSize());
  for (int64_t e = 0; e < countC; ++e)
    store(out, p.outDtype, e, c.beta == 0 ? NAN : value(program.outType));
  std::vector<char> before = out;
  // The inputs.
  std::vector<InputLayout> layouts;
  std::vector<std::vector<char>> inputs;
  for (int i = 0; i < program.numInputs(); ++i) {
    InputPattern pattern = patterns[i % patterns.size()];
    layouts.push_back(
        makeInputLayout(pattern, p, i == 0 ? 3 : 0, batchStride, i, p.offset));
    int type = static_cast<int>(program.inputTypes[i]);
    inputs.emplace_back(layouts.back().count * dtypeSize(type));
    for (int64_t e = 0; e < layouts.back().count; ++e)
      store(inputs.back(), type, e, value(program.inputTypes[i]));
  }

  // The kernel, by the ABI: C[b*sC + m*ldc + n] = epi(alpha*acc +
  // beta*C_old, in_i[b*sBatch_i + m*sRow_i + n*sCol_i]), sBatch unused for
  // a single matrix.
  for (int64_t bi = 0; bi < p.batch; ++bi)
    for (int64_t m = 0; m < p.M; ++m)
      for (int64_t n = 0; n < p.N; ++n) {
        int64_t e = p.offset + bi * p.sC + m * p.ldc + n;
        int64_t index = (bi * p.M + m) * p.N + n;
        double c0 =
            c.beta != 0 ? loadElement(before.data(), p.outDtype, e) : 0.0;
        double beta = fault == Fault::BetaIgnored ? 0.0 : c.beta;
        double x = isaac::roundToType(ref[index] + beta * c0, program.accType);
        if (fault == Fault::XError)
          x += 50 * 1e-5 * bound[index] * (m % 2 ? 1 : -1);
        double in[isaac::kMaxEpilogueInputs];
        for (int i = 0; i < program.numInputs(); ++i) {
          const InputLayout &l = layouts[i];
          int64_t batch = p.batch > 1 && fault != Fault::SharedBatch ? bi : 0;
          int64_t at = l.offset + batch * l.sBatch + m * l.sRow + n * l.sCol;
          if (fault == Fault::InputIndex && i == 0)
            at = at + 1 < l.count ? at + 1 : at - 1;
          in[i] = loadElement(inputs[i].data(),
                              static_cast<int>(program.inputTypes[i]), at);
        }
        store(out, p.outDtype, e, program.evaluate(x, in));
      }
  if (fault == Fault::NaN)
    store(out, p.outDtype,
          p.offset + (p.batch - 1) * p.sC + (p.M - 1) * p.ldc + p.N - 1, NAN);
  if (fault == Fault::Padding)
    // The first guard after the last matrix.
    store(out, p.outDtype, p.offset + p.spanC(), 0.25);

  FusedOutput output;
  output.p = &p;
  output.beta = c.beta;
  output.gemmTolerance = 1e-5;
  output.countC = countC;
  output.c = out.data();
  output.c0 = before.data();
  output.ref = ref.data();
  output.bound = bound.data();
  output.layouts = layouts;
  for (const std::vector<char> &in : inputs)
    output.inputs.push_back(in.data());
  return compareFusedOutput(program, output);
}

Shape shape(int64_t M, int64_t N, int64_t K, const char *layout) {
  Shape s;
  s.M = M;
  s.N = N;
  s.K = K;
  s.transA = layout[0] == 't';
  s.transB = layout[1] == 't';
  return s;
}

} // namespace

int main() {
  const char *biasRelu = "x:f32, in0:f32; v0 = const 0 : f32; v1 = addf x, "
                         "in0 : f32; v2 = maximumf v1, v0 : f32; yield v2 : "
                         "f32";
  const char *rowScale = "x:f32, in0:f32, in1:f32; v0 = addf x, in0 : f32; "
                         "v1 = mulf v0, in1 : f32; yield v1 : f32";
  const char *geluTanh =
      "x:f32, in0:f32; v0 = const 0.5 : f32; v1 = const 1 : f32; v2 = const "
      "0.79788458347320557 : f32; v3 = const 0.044714998453855515 : f32; v4 "
      "= const 3 : f32; v5 = addf x, in0 : f32; v6 = powf v5, v4 : f32; v7 = "
      "mulf v6, v3 : f32; v8 = addf v5, v7 : f32; v9 = mulf v8, v2 : f32; "
      "v10 = tanh v9 : f32; v11 = addf v10, v1 : f32; v12 = mulf v5, v0 : "
      "f32; v13 = mulf v12, v11 : f32; yield v13 : f32";
  const char *f16Out = "x:f32, in0:f16; v0 = const 0 : f32; v1 = extf in0 : "
                       "f32; v2 = addf x, v1 : f32; v3 = maximumf v2, v0 : "
                       "f32; v4 = truncf v3 : f16; yield v4 : f16";
  const char *bf16Out = "x:f32, in0:bf16; v0 = extf in0 : f32; v1 = addf x, "
                        "v0 : f32; v2 = truncf v1 : bf16; yield v2 : bf16";
  const char *f64 = "x:f64, in0:f64; v0 = const 0 : f64; v1 = addf x, in0 : "
                    "f64; v2 = maximumf v1, v0 : f64; yield v2 : f64";
  const Case cases[] = {
      {"bias-relu", biasRelu, shape(7, 33, 31, "nn"), 1, 0, false, 0.0},
      {"bias-relu", biasRelu, shape(33, 7, 129, "tt"), 3, 3, true, 0.5},
      {"row-scale", rowScale, shape(1, 1, 1, "nt"), 1, 0, true, 0.5},
      {"row-scale", rowScale, shape(31, 17, 2, "tn"), 2, 1, false, 0.0},
      {"gelu-tanh", geluTanh, shape(17, 9, 300, "nn"), 2, 1, true, 0.5},
      {"f16-out", f16Out, shape(9, 31, 33, "nt"), 3, 1, true, 0.5},
      {"f16-out", f16Out, shape(2, 2, 7, "tt"), 1, 0, false, 0.0},
      {"bf16-out", bf16Out, shape(13, 5, 64, "tn"), 2, 3, true, 0.5},
      {"f64", f64, shape(5, 13, 20, "nn"), 2, 0, true, 0.5},
  };
  std::mt19937_64 rng(1);
  int total = 0, unexpected = 0;
  for (const Case &c : cases) {
    std::string err;
    std::optional<isaac::EpilogueProgram> program =
        isaac::EpilogueProgram::parse(c.program, err);
    if (!program) {
      std::printf("%s: %s\n", c.label, err.c_str());
      return 1;
    }
    // Every pattern for input 0 (the others rotate), with and without
    // batch strides; the faults on one layout each.
    for (int pattern = 0; pattern < kNumInputPatterns; ++pattern) {
      for (bool batchStride : {false, true}) {
        std::vector<InputPattern> patterns;
        for (int i = 0; i < std::max(1, program->numInputs()); ++i)
          patterns.push_back(
              static_cast<InputPattern>((pattern + i) % kNumInputPatterns));
        std::vector<Fault> faults = {Fault::None};
        if (pattern == static_cast<int>(InputPattern::Full) && batchStride) {
          faults.insert(faults.end(),
                        {Fault::Padding, Fault::NaN, Fault::XError});
          if (c.beta != 0)
            faults.push_back(Fault::BetaIgnored);
          if (program->numInputs())
            faults.push_back(Fault::InputIndex);
          if (program->numInputs() && c.batch > 1)
            faults.push_back(Fault::SharedBatch);
        }
        for (Fault fault : faults) {
          FusedComparison r =
              run(c, *program, patterns, batchStride, fault, rng);
          bool expectPass = fault == Fault::None;
          bool ok = (r.badElements == 0) == expectPass;
          ++total;
          unexpected += !ok;
          // Right outputs are summarized; every fault is printed.
          if (ok && expectPass)
            continue;
          std::printf(
              "%s %s %s%s M=%lld N=%lld K=%lld batch=%lld beta=%g "
              "fault=%s: %llu bad%s%s\n",
              ok ? "ok" : "UNEXPECTED", c.label, patternName(patterns[0]),
              batchStride ? " batch-stride" : "", (long long)c.shape.M,
              (long long)c.shape.N, (long long)c.shape.K, (long long)c.batch,
              c.beta, faultName(fault), r.badElements,
              r.failure.empty() ? "" : "; ", r.failure.c_str());
        }
      }
    }
  }
  std::printf("host test: %d cases, %d unexpected\n", total, unexpected);
  return unexpected ? 1 : 0;
}
