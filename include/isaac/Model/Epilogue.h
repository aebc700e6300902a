//===- Epilogue.h - Fused GEMM epilogues as scalar programs ----*- C++ -*-===//
//
// MLIR-free form of a fused epilogue: what a GEMM kernel applies to each
// output element after the reduction (bias, scaling, residual, activation,
// conversion to the output type). The compiler builds one from the region of
// an `isaac.gemm` op; the kernel generator emits exactly it; its canonical
// text names the kernel (a hash), travels in the PTX header, and lets
// isaac-bench compute the reference of any fused kernel on the CPU.
//
// A program is straight-line SSA over scalars. Value 0 is `x`, the GEMM's
// value for the element (alpha*acc + beta*C); values 1..n are the element's
// inputs `in0`..`in<n-1>` (read from the epilogue operands); each
// instruction defines the next value. The program yields one value of the
// output element type.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_EPILOGUE_H
#define ISAAC_MODEL_EPILOGUE_H

#include "isaac/Model/GemmConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace isaac {

/// Most operands (bias, residual, ...) an epilogue reads per element; the
/// runtime's ISAAC_MAX_EPILOGUE_INPUTS.
constexpr int kMaxEpilogueInputs = 8;

enum class EpilogueOp {
#define EPILOGUE_OP(Enum, Mnemonic, Arity, MlirOp) Enum,
#include "isaac/Model/EpilogueOps.def"
};

const char *epilogueOpMnemonic(EpilogueOp op);
int epilogueOpArity(EpilogueOp op);
/// The MLIR operation name, e.g. "arith.addf".
const char *epilogueOpMlirName(EpilogueOp op);
/// The operation whose MLIR name is `name`, if an epilogue may contain it.
std::optional<EpilogueOp> epilogueOpFromMlirName(const std::string &name);

/// Type of a value: a floating-point element type, or a predicate (the
/// result of cmpf).
struct EpilogueType {
  bool isPredicate = false;
  DType dtype = DType::F32;

  static EpilogueType predicate() { return {true, DType::F32}; }
  static EpilogueType of(DType t) { return {false, t}; }
  bool operator==(const EpilogueType &o) const {
    return isPredicate == o.isPredicate && (isPredicate || dtype == o.dtype);
  }
  bool operator!=(const EpilogueType &o) const { return !(*this == o); }
  /// "i1", "f32", ...
  std::string str() const;
};

struct EpilogueInst {
  EpilogueOp op = EpilogueOp::Const;
  EpilogueType type;     ///< result type
  std::vector<int> args; ///< value numbers (see file comment)
  double value = 0;      ///< Const: the value (exact in its type)
  std::string predicate; ///< CmpF: "ogt", "ult", ... (arith's names)
};

/// The output coordinates an epilogue input varies with (a bit set). A
/// per-column bias varies with n only: the kernel loads it once per column
/// of a thread's tile instead of once per element, and the runtime checks
/// that the row stride it is given is 0.
enum EpilogueDims : uint8_t {
  kEpilogueScalar = 0, ///< one value (per batch)
  kEpilogueRow = 1,    ///< varies with m
  kEpilogueCol = 2,    ///< varies with n
  kEpilogueRowCol = 3, ///< a full matrix (the default)
};
/// "[]", "[m]", "[n]" or "" (the default prints nothing).
const char *epilogueDimsSuffix(uint8_t dims);

class EpilogueProgram {
public:
  DType accType = DType::F32;    ///< type of x
  std::vector<DType> inputTypes; ///< in0..in<n-1>
  /// EpilogueDims of each input; missing entries are kEpilogueRowCol.
  std::vector<uint8_t> inputDims;
  std::vector<EpilogueInst> insts;
  int result = 0; ///< value number yielded
  DType outType = DType::F32;

  int numInputs() const { return static_cast<int>(inputTypes.size()); }
  int numValues() const {
    return 1 + numInputs() + static_cast<int>(insts.size());
  }
  uint8_t dimsOf(int input) const {
    return input < static_cast<int>(inputDims.size())
               ? inputDims[input]
               : static_cast<uint8_t>(kEpilogueRowCol);
  }
  void setDims(int input, uint8_t dims) {
    if (static_cast<int>(inputDims.size()) <= input)
      inputDims.resize(input + 1, kEpilogueRowCol);
    inputDims[input] = dims;
  }

  /// Type of value `v`.
  EpilogueType typeOf(int v) const;

  /// The identity epilogue (yield x): what a plain GEMM computes.
  bool isIdentity() const {
    return insts.empty() && result == 0 && outType == accType;
  }

  /// Checks operand numbering, arities and types; empty when well formed,
  /// else what is wrong.
  std::string verify() const;

  /// Canonical one-line text, e.g.
  ///   x:f32, in0:f32[n]; v0 = addf x, in0 : f32; v1 = const 0 : f32;
  ///   v2 = maximumf v0, v1 : f32; yield v2 : f32
  /// (in0 a per-column input: see EpilogueDims).
  /// Constants print with 17 significant digits (exact for f64).
  std::string str() const;
  /// Parses str()'s output (and nothing else); nullopt with `err` set on
  /// malformed text.
  static std::optional<EpilogueProgram> parse(const std::string &text,
                                              std::string &err);
  /// 16 lower-case hex digits: FNV-1a (64 bits) of str(). Names kernels.
  std::string id() const;

  /// The reference semantics, in double precision with each result rounded
  /// to its type (f32, f16, bf16) as the kernel's arithmetic would be:
  /// out = program(x, in...).
  double evaluate(double x, const double *inputs) const;
};

/// Rounds `v` to the nearest value of `t` (ties to even); f64 unchanged.
double roundToType(double v, DType t);

} // namespace isaac

#endif // ISAAC_MODEL_EPILOGUE_H
