//===- EpilogueCheck.h - Reference and tolerance of fused epilogues -*- C++
//-*-//
//
// A kernel with a fused epilogue computes C = epi(alpha*acc + beta*C_old,
// in_0, ...). The bench does not know what `epi` means: it parses the
// program of the kernel's `// isaac.epilogue` line with
// isaac::EpilogueProgram::parse and takes its meaning from
// EpilogueProgram::evaluate, the same definition the compiler emits. This
// file holds that loading, the layouts of the epilogue's inputs, and the
// tolerance model that decides whether one output element is right. It uses
// no CUDA, so that it also runs where there is no GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_EPILOGUECHECK_H
#define ISAAC_BENCH_EPILOGUECHECK_H

#include "Problem.h"

#include "isaac/Model/Epilogue.h"
#include "isaac/Runtime/Runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

/// The fused epilogue of a kernel, from its PTX header.
struct KernelEpilogue {
  isaac::EpilogueProgram program;
  std::string text; // the `program=` text of the header
};

/// Whether the comment header of `ptx` says anything about a fused epilogue
/// (an `isaac.epilogue` line, an `epilogue=` key, an `_ep` name suffix):
/// such a file must load completely or not at all.
bool mentionsEpilogue(const std::string &ptx);

/// Reads the `// isaac.epilogue ... program=<text>` line of a fused kernel
/// whose header the runtime has parsed into `info`, parses the program and
/// checks that it is the kernel's: its hash is the ID of the name, and its
/// accumulation, output and input types and its number of inputs are those
/// of the header. False with `error` set otherwise.
bool loadKernelEpilogue(const std::string &ptx, const isaacKernelInfo &info,
                        KernelEpilogue &out, std::string &error);

/// How an epilogue input is laid out over the (batch, M, N) output: an
/// M x N matrix (row-major with a leading dimension, or transposed), a
/// vector per row or per column, or a scalar (docs/abi.md).
enum class InputPattern { Full, Transposed, Row, Column, Scalar };
constexpr int kNumInputPatterns = 5;

/// "full", "full-t", "row", "col", "scalar".
const char *patternName(InputPattern pattern);

/// Whether a kernel that was compiled for an input varying with `dims`
/// (isaac::EpilogueDims: a per-column input, kEpilogueCol, is read once
/// per column and its row stride never) reads an input laid out as
/// `pattern` correctly: the pattern must not vary along an index the
/// kernel broadcasts.
bool patternFits(InputPattern pattern, uint8_t dims);

/// `wanted` where it fits `dims`, else the pattern `dims` describes (a
/// column vector for kEpilogueCol, ...).
InputPattern fitPattern(InputPattern wanted, uint8_t dims);

/// Parses a comma-separated list of pattern names.
bool parsePatternList(const std::string &text,
                      std::vector<InputPattern> &patterns, std::string &error);

/// One epilogue input of one problem: its strides in elements of its own
/// type (0 broadcasts), where its base pointer lies in its allocation, and
/// the allocation's size.
struct InputLayout {
  InputPattern pattern = InputPattern::Column;
  int64_t ld = 0; ///< Full: the row stride; Transposed: the column stride
  int64_t sBatch = 0, sRow = 0, sCol = 0;
  int64_t offset = 0; ///< elements before the base pointer
  int64_t count = 0;  ///< elements of the allocation

  /// Element (b, m, n) of the input, relative to the allocation.
  int64_t index(int64_t b, int64_t m, int64_t n) const {
    return offset + b * sBatch + m * sRow + n * sCol;
  }
  /// e.g. "full ld=35 sBatch=0".
  std::string describe() const;
};

/// The layout of an input of `p` with `pattern`: leading dimensions are the
/// minimum plus `ldPad`; with `batchStride` (and p.batch > 1) each batch has
/// its own copy, `batchPad` elements apart, else one copy serves all
/// batches; `offset` elements precede the base pointer.
InputLayout makeInputLayout(InputPattern pattern, const Problem &p,
                            int64_t ldPad, bool batchStride, int64_t batchPad,
                            int64_t offset);

/// Value of element `index` of `data`, an array of an isaacDtype.
double loadElement(const void *data, int dtype, int64_t index);

/// Converts a raw bit pattern (the low bits of `bits`) of an isaacDtype.
double decodeBits(uint64_t bits, int dtype);

/// Whether element `index` of two arrays of an isaacDtype has the same bits.
bool sameElementBits(const void *a, const void *b, int dtype, int64_t index);

/// Whether an element of a fused kernel's output is right, given the fp64
/// reference of the GEMM part. The kernel's GEMM value x_k (alpha*acc +
/// beta*C_old before the epilogue) is trusted to lie within `xError` of the
/// reference x, the bound the plain GEMM check accepts. The output must then
/// lie in the range the epilogue takes over [x - xError, x + xError]
/// (evaluated at x and both ends; where that fails, at 33 points with the
/// largest step between neighbouring points added, for epilogues that are
/// not monotonic), widened by
///   - the epilogue's own arithmetic: kRoundingUlps (kApproximationUlps when
///     the program has tanh, erf, exp, log, powf, ..., which the kernel
///     computes with polynomial approximations) units of the roundoff of the
///     program's least precise computed type, times the scale
///     max(|x|, |in_i|, |epi(x)|), for FMA contraction, double rounding and
///     the approximations;
///   - one unit in the last place of the output type (2*2^-24, 2*2^-53,
///     2*2^-11, 2*2^-8 relative for f32, f64, f16, bf16, and the smallest
///     subnormal), since a value perturbed as above may round to the
///     neighbour of the reference's rounding.
/// NaN passes only where the epilogue of the reference x is NaN.
class EpilogueReference {
public:
  static constexpr double kRoundingUlps = 4;
  static constexpr double kApproximationUlps = 16;
  static constexpr int kRefineSteps = 32;

  explicit EpilogueReference(const isaac::EpilogueProgram &program);

  struct Verdict {
    bool passed = false;
    /// |c - expected| over the accepted deviation on c's side: at most 1
    /// for a passing element; infinity for a wrong NaN.
    double error = 0;
    double expected = 0;      ///< the epilogue at the reference x
    double low = 0, high = 0; ///< the accepted range
  };

  /// Checks the kernel's output `c` for the reference GEMM value `x` (fp64),
  /// the bound `xError` on the GEMM part's error, and the element's inputs.
  /// `expected`, when given, is the epilogue at x (from errorBound).
  Verdict check(double c, double x, double xError, const double *inputs,
                const double *expected = nullptr) const;

  /// The epilogue at x and, from that one evaluation, an upper bound of
  /// check(c, x, xError, inputs).error for any xError (infinity when it
  /// cannot tell): an element whose bound is at most 1 passes. Lets the
  /// comparison skip the full check of elements that can change neither
  /// the verdict nor the worst error.
  double errorBound(double c, double x, const double *inputs,
                    double &expected) const;

  /// The allowance for the epilogue's arithmetic, relative to the scale.
  double arithmeticUnit() const { return arithmetic; }
  /// Whether the program has operations the kernel approximates.
  bool approximated() const { return hasApproximations; }

private:
  double evaluate(double x, const double *inputs) const {
    return program.evaluate(x, inputs);
  }

  const isaac::EpilogueProgram &program;
  bool hasApproximations = false;
  double arithmetic = 0;    ///< units of the scale
  double outputUlp = 0;     ///< relative
  double outputMinimum = 0; ///< absolute
};

/// A fused kernel's output as the host sees it after a launch, with what it
/// is checked against. Arrays are copies of the device allocations.
struct FusedOutput {
  const Problem *p = nullptr; ///< outDtype is the epilogue's output type
  double beta = 0;
  double gemmTolerance = 0; ///< the plain check's bound, relative
  int64_t countC = 0;       ///< elements of the C allocation
  const void *c = nullptr;  ///< the C allocation after the launch
  const void *c0 = nullptr; ///< and before it
  /// alpha*acc and |alpha|*sum|a||b| in fp64, dense batch x M x N.
  const double *ref = nullptr, *bound = nullptr;
  std::vector<const void *> inputs; ///< each input's allocation
  std::vector<InputLayout> layouts;
};

struct FusedComparison {
  unsigned long long badElements = 0;
  double maxError = 0; ///< fraction of the tolerance; infinity for NaN
  std::string failure; ///< the worst element explained, when any is bad
};

/// Checks every element of the C allocation: elements of the product with
/// EpilogueReference at x = ref + beta*C_old (error bound gemmTolerance *
/// (bound + |beta*C_old|)), the others (padding, batch gaps, the gap before
/// a misaligned base pointer, guards) for unchanged bits. Runs on all CPU
/// threads.
FusedComparison compareFusedOutput(const isaac::EpilogueProgram &program,
                                   const FusedOutput &output);

/// How many threads parallelFor uses for `count` items: one for small
/// counts, else up to the CPU's threads.
int workerCount(int64_t count);

/// Runs `body(begin, end, worker)` over [0, count) in `workers` contiguous
/// pieces, one thread each.
void parallelFor(int64_t count, int workers,
                 const std::function<void(int64_t, int64_t, int)> &body);

} // namespace bench

#endif // ISAAC_BENCH_EPILOGUECHECK_H
