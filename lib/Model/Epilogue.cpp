//===- Epilogue.cpp - Fused GEMM epilogues as scalar programs -------------===//

#include "isaac/Model/Epilogue.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

using namespace isaac;

namespace {
struct OpInfo {
  const char *mnemonic;
  int arity;
  const char *mlirName;
};
const OpInfo kOps[] = {
#define EPILOGUE_OP(Enum, Mnemonic, Arity, MlirOp) {Mnemonic, Arity, MlirOp},
#include "isaac/Model/EpilogueOps.def"
};
constexpr int kNumOps = sizeof(kOps) / sizeof(kOps[0]);

const char *const kPredicates[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                                   "one",   "ord", "ueq", "ugt", "uge", "ult",
                                   "ule",   "une", "uno", "true"};

bool isPredicateName(const std::string &p) {
  for (const char *name : kPredicates)
    if (p == name)
      return true;
  return false;
}

std::optional<DType> parseDType(const std::string &s) {
  for (DType t : {DType::F32, DType::F64, DType::F16, DType::BF16})
    if (s == dtypeName(t))
      return t;
  return std::nullopt;
}

std::optional<EpilogueOp> opFromMnemonic(const std::string &s) {
  for (int i = 0; i < kNumOps; ++i)
    if (s == kOps[i].mnemonic)
      return static_cast<EpilogueOp>(i);
  return std::nullopt;
}

std::string formatDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

/// Rounds v to a binary format with `p` significand bits (implicit bit
/// included) and exponent range [emin, emax], ties to even, overflow to
/// infinity, gradual underflow.
double roundBinary(double v, int p, int emin, int emax) {
  if (v == 0 || std::isnan(v) || std::isinf(v))
    return v;
  int e = std::ilogb(v);
  int quantumExp = (e < emin ? emin : e) - (p - 1);
  double q = std::ldexp(1.0, quantumExp);
  double r = std::nearbyint(v / q) * q;
  double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, 1 - p), emax);
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, v);
  return r;
}
} // namespace

const char *isaac::epilogueOpMnemonic(EpilogueOp op) {
  return kOps[static_cast<int>(op)].mnemonic;
}
int isaac::epilogueOpArity(EpilogueOp op) {
  return kOps[static_cast<int>(op)].arity;
}
const char *isaac::epilogueOpMlirName(EpilogueOp op) {
  return kOps[static_cast<int>(op)].mlirName;
}
std::optional<EpilogueOp> isaac::epilogueOpFromMlirName(const std::string &n) {
  for (int i = 0; i < kNumOps; ++i)
    if (n == kOps[i].mlirName)
      return static_cast<EpilogueOp>(i);
  return std::nullopt;
}

std::string EpilogueType::str() const {
  return isPredicate ? "i1" : dtypeName(dtype);
}

double isaac::roundToType(double v, DType t) {
  switch (t) {
  case DType::F64:
    return v;
  case DType::F32:
    return static_cast<double>(static_cast<float>(v));
  case DType::F16:
    return roundBinary(v, 11, -14, 15);
  case DType::BF16:
    return roundBinary(v, 8, -126, 127);
  }
  return v;
}

const char *isaac::epilogueDimsSuffix(uint8_t dims) {
  switch (dims) {
  case kEpilogueScalar:
    return "[]";
  case kEpilogueRow:
    return "[m]";
  case kEpilogueCol:
    return "[n]";
  default:
    return "";
  }
}

EpilogueType EpilogueProgram::typeOf(int v) const {
  if (v == 0)
    return EpilogueType::of(accType);
  if (v <= numInputs())
    return EpilogueType::of(inputTypes[v - 1]);
  return insts[v - 1 - numInputs()].type;
}

std::string EpilogueProgram::verify() const {
  if (numInputs() > kMaxEpilogueInputs)
    return "more than " + std::to_string(kMaxEpilogueInputs) + " inputs";
  if (inputDims.size() > inputTypes.size())
    return "dimensions given for more inputs than there are";
  for (uint8_t d : inputDims)
    if (d > kEpilogueRowCol)
      return "an input's dimensions are not a subset of (m, n)";
  for (size_t i = 0; i < insts.size(); ++i) {
    const EpilogueInst &inst = insts[i];
    int self = 1 + numInputs() + static_cast<int>(i);
    std::string where =
        "v" + std::to_string(i) + " (" + epilogueOpMnemonic(inst.op) + "): ";
    if (static_cast<int>(inst.args.size()) != epilogueOpArity(inst.op))
      return where + "expects " + std::to_string(epilogueOpArity(inst.op)) +
             " operands";
    for (int a : inst.args)
      if (a < 0 || a >= self)
        return where + "operand is not defined before it";
    auto argTy = [&](int k) { return typeOf(inst.args[k]); };
    switch (inst.op) {
    case EpilogueOp::Const:
      if (inst.type.isPredicate)
        return where + "constants are floating-point";
      break;
    case EpilogueOp::CmpF:
      if (!inst.type.isPredicate || argTy(0).isPredicate ||
          argTy(0) != argTy(1))
        return where + "compares two values of one floating-point type";
      if (!isPredicateName(inst.predicate))
        return where + "unknown predicate '" + inst.predicate + "'";
      break;
    case EpilogueOp::Select:
      if (!argTy(0).isPredicate || argTy(1) != inst.type ||
          argTy(2) != inst.type || inst.type.isPredicate)
        return where + "selects between two values of its type by a "
                       "predicate";
      break;
    case EpilogueOp::TruncF:
    case EpilogueOp::ExtF: {
      if (argTy(0).isPredicate || inst.type.isPredicate)
        return where + "converts floating-point values";
      int from = dtypeBytes(argTy(0).dtype), to = dtypeBytes(inst.type.dtype);
      if (inst.op == EpilogueOp::TruncF ? to >= from : to <= from)
        return where + (inst.op == EpilogueOp::TruncF
                            ? "must narrow its operand"
                            : "must widen its operand");
      break;
    }
    default:
      if (inst.type.isPredicate)
        return where + "computes a floating-point value";
      for (size_t k = 0; k < inst.args.size(); ++k)
        if (argTy(k) != inst.type)
          return where + "operands must have the result type " +
                 inst.type.str();
    }
  }
  if (result < 0 || result >= numValues())
    return "yields an undefined value";
  if (typeOf(result) != EpilogueType::of(outType))
    return "yields a " + typeOf(result).str() + " value as " +
           dtypeName(outType);
  return "";
}

static std::string valueName(const EpilogueProgram &p, int v) {
  if (v == 0)
    return "x";
  if (v <= p.numInputs())
    return "in" + std::to_string(v - 1);
  return "v" + std::to_string(v - 1 - p.numInputs());
}

std::string EpilogueProgram::str() const {
  std::ostringstream os;
  os << "x:" << dtypeName(accType);
  for (int i = 0; i < numInputs(); ++i)
    os << ", in" << i << ":" << dtypeName(inputTypes[i])
       << epilogueDimsSuffix(dimsOf(i));
  for (size_t i = 0; i < insts.size(); ++i) {
    const EpilogueInst &inst = insts[i];
    os << "; v" << i << " = " << epilogueOpMnemonic(inst.op);
    if (inst.op == EpilogueOp::Const)
      os << " " << formatDouble(inst.value);
    if (inst.op == EpilogueOp::CmpF)
      os << " " << inst.predicate;
    for (size_t k = 0; k < inst.args.size(); ++k)
      os << (k ? ", " : " ") << valueName(*this, inst.args[k]);
    os << " : " << inst.type.str();
  }
  os << "; yield " << valueName(*this, result) << " : " << dtypeName(outType);
  return os.str();
}

namespace {
/// Tokens of the canonical text: words, and the punctuation , ; : =.
std::vector<std::string> tokenize(const std::string &text) {
  std::vector<std::string> toks;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty())
      toks.push_back(cur);
    cur.clear();
  };
  for (char ch : text) {
    if (ch == ' ' || ch == '\t') {
      flush();
    } else if (ch == ',' || ch == ';' || ch == ':' || ch == '=') {
      flush();
      toks.push_back(std::string(1, ch));
    } else {
      cur.push_back(ch);
    }
  }
  flush();
  return toks;
}
} // namespace

std::optional<EpilogueProgram> EpilogueProgram::parse(const std::string &text,
                                                      std::string &err) {
  std::vector<std::string> t = tokenize(text);
  size_t i = 0;
  auto fail = [&](const std::string &what) -> std::optional<EpilogueProgram> {
    err = "epilogue program: " + what + " at token " + std::to_string(i) +
          (i < t.size() ? " ('" + t[i] + "')" : " (end)");
    return std::nullopt;
  };
  auto peek = [&](const char *s) { return i < t.size() && t[i] == s; };
  auto expect = [&](const char *s) {
    if (!peek(s))
      return false;
    ++i;
    return true;
  };
  EpilogueProgram p;
  // Value names defined so far, by number.
  std::vector<std::string> names;
  auto lookup = [&](const std::string &n) -> int {
    for (size_t v = 0; v < names.size(); ++v)
      if (names[v] == n)
        return static_cast<int>(v);
    return -1;
  };
  auto parseType = [&](EpilogueType &ty) {
    if (i >= t.size())
      return false;
    if (t[i] == "i1") {
      ty = EpilogueType::predicate();
      ++i;
      return true;
    }
    std::optional<DType> d = parseDType(t[i]);
    if (!d)
      return false;
    ty = EpilogueType::of(*d);
    ++i;
    return true;
  };

  // Signature: x:T {, inK:T}
  if (!expect("x") || !expect(":"))
    return fail("expected 'x:<type>'");
  EpilogueType ty;
  if (!parseType(ty) || ty.isPredicate)
    return fail("expected the accumulator type");
  p.accType = ty.dtype;
  names.push_back("x");
  while (expect(",")) {
    std::string want = "in" + std::to_string(p.numInputs());
    if (!expect(want.c_str()) || !expect(":") || i >= t.size())
      return fail("expected '" + want + ":<type>'");
    // The type may carry the input's dimensions: f32[n], f32[m], f32[].
    std::string word = t[i];
    uint8_t dims = kEpilogueRowCol;
    if (size_t open = word.find('['); open != std::string::npos) {
      std::string suffix = word.substr(open);
      word = word.substr(0, open);
      bool known = false;
      for (uint8_t d : {kEpilogueScalar, kEpilogueRow, kEpilogueCol})
        if (suffix == epilogueDimsSuffix(d)) {
          dims = d;
          known = true;
        }
      if (!known)
        return fail("expected the dimensions '[]', '[m]' or '[n]'");
    }
    std::optional<DType> d = parseDType(word);
    if (!d)
      return fail("expected '" + want + ":<type>'");
    ++i;
    p.inputTypes.push_back(*d);
    if (dims != kEpilogueRowCol)
      p.setDims(p.numInputs() - 1, dims);
    names.push_back(want);
  }
  // Instructions, then the yield.
  while (expect(";")) {
    if (expect("yield")) {
      if (i >= t.size() || (p.result = lookup(t[i])) < 0)
        return fail("yield of an undefined value");
      ++i;
      if (!expect(":") || !parseType(ty) || ty.isPredicate)
        return fail("expected the output type");
      p.outType = ty.dtype;
      if (i != t.size())
        return fail("text after the yield");
      if (std::string v = p.verify(); !v.empty())
        return fail(v);
      return p;
    }
    std::string want = "v" + std::to_string(p.insts.size());
    if (!expect(want.c_str()) || !expect("="))
      return fail("expected '" + want + " ='");
    if (i >= t.size())
      return fail("expected an operation");
    std::optional<EpilogueOp> op = opFromMnemonic(t[i]);
    if (!op)
      return fail("unknown operation");
    ++i;
    EpilogueInst inst;
    inst.op = *op;
    if (inst.op == EpilogueOp::Const) {
      if (i >= t.size())
        return fail("expected a constant");
      char *end = nullptr;
      inst.value = std::strtod(t[i].c_str(), &end);
      if (!end || *end)
        return fail("malformed constant");
      ++i;
    }
    if (inst.op == EpilogueOp::CmpF) {
      if (i >= t.size() || !isPredicateName(t[i]))
        return fail("expected a cmpf predicate");
      inst.predicate = t[i++];
    }
    for (int k = 0; k < epilogueOpArity(inst.op); ++k) {
      if (k && !expect(","))
        return fail("expected ','");
      int v = i < t.size() ? lookup(t[i]) : -1;
      if (v < 0)
        return fail("undefined operand");
      inst.args.push_back(v);
      ++i;
    }
    if (!expect(":") || !parseType(inst.type))
      return fail("expected ': <type>'");
    p.insts.push_back(inst);
    names.push_back(want);
  }
  return fail("expected '; yield'");
}

std::string EpilogueProgram::id() const {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : str()) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(h));
  return buf;
}

static bool comparePredicate(const std::string &p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  if (p == "false")
    return false;
  if (p == "true")
    return true;
  if (p == "ord")
    return !unordered;
  if (p == "uno")
    return unordered;
  bool isU = p[0] == 'u';
  if (unordered)
    return isU;
  std::string rel = p.substr(1);
  if (rel == "eq")
    return a == b;
  if (rel == "gt")
    return a > b;
  if (rel == "ge")
    return a >= b;
  if (rel == "lt")
    return a < b;
  if (rel == "le")
    return a <= b;
  return a != b; // "ne"
}

double EpilogueProgram::evaluate(double x, const double *inputs) const {
  std::vector<double> v;
  v.reserve(numValues());
  v.push_back(roundToType(x, accType));
  for (int i = 0; i < numInputs(); ++i)
    v.push_back(roundToType(inputs[i], inputTypes[i]));
  for (const EpilogueInst &inst : insts) {
    auto a = [&](int k) { return v[inst.args[k]]; };
    double r = 0;
    switch (inst.op) {
    case EpilogueOp::Const:
      r = inst.value;
      break;
    case EpilogueOp::AddF:
      r = a(0) + a(1);
      break;
    case EpilogueOp::SubF:
      r = a(0) - a(1);
      break;
    case EpilogueOp::MulF:
      r = a(0) * a(1);
      break;
    case EpilogueOp::DivF:
      r = a(0) / a(1);
      break;
    case EpilogueOp::NegF:
      r = -a(0);
      break;
    case EpilogueOp::MaximumF:
      r = (std::isnan(a(0)) || std::isnan(a(1))) ? NAN
          : (a(0) == a(1)) ? (std::signbit(a(0)) ? a(1) : a(0))
                           : std::fmax(a(0), a(1));
      break;
    case EpilogueOp::MinimumF:
      r = (std::isnan(a(0)) || std::isnan(a(1))) ? NAN
          : (a(0) == a(1)) ? (std::signbit(a(0)) ? a(0) : a(1))
                           : std::fmin(a(0), a(1));
      break;
    case EpilogueOp::MaxNumF:
      r = std::fmax(a(0), a(1));
      break;
    case EpilogueOp::MinNumF:
      r = std::fmin(a(0), a(1));
      break;
    case EpilogueOp::CmpF:
      r = comparePredicate(inst.predicate, a(0), a(1)) ? 1 : 0;
      break;
    case EpilogueOp::Select:
      r = a(0) != 0 ? a(1) : a(2);
      break;
    case EpilogueOp::TruncF:
    case EpilogueOp::ExtF:
      r = a(0);
      break;
    case EpilogueOp::AbsF:
      r = std::fabs(a(0));
      break;
    case EpilogueOp::Sqrt:
      r = std::sqrt(a(0));
      break;
    case EpilogueOp::Rsqrt:
      r = 1.0 / std::sqrt(a(0));
      break;
    case EpilogueOp::Exp:
      r = std::exp(a(0));
      break;
    case EpilogueOp::Exp2:
      r = std::exp2(a(0));
      break;
    case EpilogueOp::Log:
      r = std::log(a(0));
      break;
    case EpilogueOp::Log2:
      r = std::log2(a(0));
      break;
    case EpilogueOp::Log1p:
      r = std::log1p(a(0));
      break;
    case EpilogueOp::Expm1:
      r = std::expm1(a(0));
      break;
    case EpilogueOp::Tanh:
      r = std::tanh(a(0));
      break;
    case EpilogueOp::Erf:
      r = std::erf(a(0));
      break;
    case EpilogueOp::Fma:
      r = std::fma(a(0), a(1), a(2));
      break;
    case EpilogueOp::PowF:
      r = std::pow(a(0), a(1));
      break;
    }
    v.push_back(inst.type.isPredicate ? r : roundToType(r, inst.type.dtype));
  }
  return v[result];
}
