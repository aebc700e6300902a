//===- EpilogueCheck.cpp - Reference and tolerance of fused epilogues -----===//

#include "EpilogueCheck.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

namespace bench {
namespace {

using isaac::DType;
using isaac::EpilogueOp;

/// The comment lines at the top of a PTX file (the header isaac writes),
/// without their leading blanks.
std::vector<std::string> headerLines(const std::string &ptx) {
  std::vector<std::string> lines;
  std::istringstream in(ptx);
  std::string line;
  while (std::getline(in, line)) {
    size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos)
      continue;
    if (line.compare(begin, 2, "//") != 0)
      break;
    size_t end = line.find_last_not_of(" \t\r");
    lines.push_back(line.substr(begin, end - begin + 1));
  }
  return lines;
}

bool startsWith(const std::string &text, const char *prefix) {
  return text.compare(0, std::strlen(prefix), prefix) == 0;
}

/// Unit roundoff of a type: half the distance from 1 to the next value.
double unitRoundoff(DType t) {
  switch (t) {
  case DType::F32:
    return 0x1p-24;
  case DType::F64:
    return 0x1p-53;
  case DType::F16:
    return 0x1p-11;
  case DType::BF16:
    return 0x1p-8;
  }
  return 0;
}

/// The smallest positive (subnormal) value of a type.
double smallestValue(DType t) {
  switch (t) {
  case DType::F32:
    return 0x1p-149;
  case DType::F64:
    return 0x1p-1074;
  case DType::F16:
    return 0x1p-24;
  case DType::BF16:
    return 0x1p-133;
  }
  return 0;
}

/// Operations whose result is exact: no rounding in the kernel or in the
/// reference.
bool isExact(EpilogueOp op) {
  switch (op) {
  case EpilogueOp::Const:
  case EpilogueOp::NegF:
  case EpilogueOp::AbsF:
  case EpilogueOp::MaximumF:
  case EpilogueOp::MinimumF:
  case EpilogueOp::MaxNumF:
  case EpilogueOp::MinNumF:
  case EpilogueOp::CmpF:
  case EpilogueOp::Select:
  case EpilogueOp::ExtF:
    return true;
  default:
    return false;
  }
}

/// Operations the kernel does not round correctly: isaac-legalize-math's
/// polynomial approximations (tanh, erf, exp, log, ...), exp2 and powf
/// through them or through repeated multiplication, rsqrt as 1/sqrt (f64
/// uses libdevice, also within a few ulp).
bool isApproximated(EpilogueOp op) {
  switch (op) {
  case EpilogueOp::Rsqrt:
  case EpilogueOp::Exp:
  case EpilogueOp::Exp2:
  case EpilogueOp::Log:
  case EpilogueOp::Log2:
  case EpilogueOp::Log1p:
  case EpilogueOp::Expm1:
  case EpilogueOp::Tanh:
  case EpilogueOp::Erf:
  case EpilogueOp::PowF:
    return true;
  default:
    return false;
  }
}

} // namespace

bool mentionsEpilogue(const std::string &ptx) {
  for (const std::string &line : headerLines(ptx)) {
    if (startsWith(line, "// isaac.epilogue"))
      return true;
    if (startsWith(line, "// isaac.kernel") &&
        (line.find("epilogue=") != std::string::npos ||
         line.find("_ep") != std::string::npos))
      return true;
  }
  return false;
}

bool loadKernelEpilogue(const std::string &ptx, const isaacKernelInfo &info,
                        KernelEpilogue &out, std::string &error) {
  const std::string *line = nullptr;
  std::vector<std::string> lines = headerLines(ptx);
  for (const std::string &l : lines)
    if (startsWith(l, "// isaac.epilogue ")) {
      line = &l;
      break;
    }
  if (!line) {
    error = "kernel " + std::string(info.name) +
            " has a fused epilogue but no '// isaac.epilogue' line";
    return false;
  }
  size_t program = line->find(" program=");
  if (program == std::string::npos) {
    error = "the isaac.epilogue line has no program=";
    return false;
  }
  out.text = line->substr(program + 9);
  std::string why;
  std::optional<isaac::EpilogueProgram> parsed =
      isaac::EpilogueProgram::parse(out.text, why);
  if (!parsed) {
    error = "the program of the isaac.epilogue line does not parse: " + why +
            " (program=" + out.text + ")";
    return false;
  }
  const isaac::EpilogueProgram &p = *parsed;
  auto typeName = [](int dtype) { return dtypeName(dtype); };
  if (p.numInputs() != info.numInputs) {
    error = "the program reads " + std::to_string(p.numInputs()) +
            (p.numInputs() == 1 ? " input" : " inputs") +
            " but the isaac.epilogue line says inputs=" +
            std::to_string(info.numInputs);
    return false;
  }
  for (int i = 0; i < p.numInputs(); ++i)
    if (static_cast<int>(p.inputTypes[i]) != info.inputDtypes[i]) {
      error = "the program's in" + std::to_string(i) + " is " +
              isaac::dtypeName(p.inputTypes[i]) + " but the isaac.epilogue " +
              "line says in" + std::to_string(i) + "=" +
              typeName(info.inputDtypes[i]);
      return false;
    }
  if (static_cast<int>(p.outType) != info.outDtype) {
    error = std::string("the program yields ") + isaac::dtypeName(p.outType) +
            " but the isaac.epilogue line says out=" + typeName(info.outDtype);
    return false;
  }
  // x is the accumulation's value (f32 for 16-bit operands).
  if (static_cast<int>(p.accType) != info.computeDtype) {
    error = std::string("the program's x is ") + isaac::dtypeName(p.accType) +
            " but the kernel accumulates in " + typeName(info.computeDtype);
    return false;
  }
  // The ID in the name is the hash of the program's canonical text: a
  // program that does not hash to it is not the one the kernel was
  // compiled from.
  if (p.id() != info.epilogue) {
    error = "the program hashes to " + p.id() + ", not to the kernel's ID " +
            info.epilogue + " (the text is not the one it was compiled from)";
    return false;
  }
  out.program = std::move(*parsed);
  return true;
}

const char *patternName(InputPattern pattern) {
  switch (pattern) {
  case InputPattern::Full:
    return "full";
  case InputPattern::Transposed:
    return "full-t";
  case InputPattern::Row:
    return "row";
  case InputPattern::Column:
    return "col";
  case InputPattern::Scalar:
    return "scalar";
  }
  return "?";
}

bool patternFits(InputPattern pattern, uint8_t dims) {
  switch (pattern) {
  case InputPattern::Full:
  case InputPattern::Transposed:
    return dims == isaac::kEpilogueRowCol;
  case InputPattern::Row:
    return dims & isaac::kEpilogueRow;
  case InputPattern::Column:
    return dims & isaac::kEpilogueCol;
  case InputPattern::Scalar:
    return true;
  }
  return false;
}

InputPattern fitPattern(InputPattern wanted, uint8_t dims) {
  if (patternFits(wanted, dims))
    return wanted;
  switch (dims) {
  case isaac::kEpilogueRow:
    return InputPattern::Row;
  case isaac::kEpilogueCol:
    return InputPattern::Column;
  case isaac::kEpilogueScalar:
    return InputPattern::Scalar;
  default:
    return InputPattern::Full;
  }
}

bool parsePatternList(const std::string &text,
                      std::vector<InputPattern> &patterns, std::string &error) {
  patterns.clear();
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    bool found = false;
    for (int i = 0; i < kNumInputPatterns; ++i)
      if (part == patternName(static_cast<InputPattern>(i))) {
        patterns.push_back(static_cast<InputPattern>(i));
        found = true;
      }
    if (!found) {
      error = "unknown epilogue input pattern '" + part +
              "' (full, full-t, row, col or scalar)";
      return false;
    }
  }
  if (patterns.empty()) {
    error = "expected a list of epilogue input patterns";
    return false;
  }
  return true;
}

std::string InputLayout::describe() const {
  std::ostringstream os;
  os << patternName(pattern);
  if (pattern == InputPattern::Full || pattern == InputPattern::Transposed)
    os << " ld=" << ld;
  os << " sBatch=" << sBatch;
  if (offset)
    os << " misaligned by " << offset;
  return os.str();
}

InputLayout makeInputLayout(InputPattern pattern, const Problem &p,
                            int64_t ldPad, bool batchStride, int64_t batchPad,
                            int64_t offset) {
  InputLayout in;
  in.pattern = pattern;
  in.offset = offset;
  int64_t footprint = 1;
  switch (pattern) {
  case InputPattern::Full:
    in.ld = p.N + ldPad;
    in.sRow = in.ld;
    in.sCol = 1;
    footprint = (p.M - 1) * in.ld + p.N;
    break;
  case InputPattern::Transposed:
    in.ld = p.M + ldPad;
    in.sRow = 1;
    in.sCol = in.ld;
    footprint = (p.N - 1) * in.ld + p.M;
    break;
  case InputPattern::Row:
    in.sRow = 1;
    footprint = p.M;
    break;
  case InputPattern::Column:
    in.sCol = 1;
    footprint = p.N;
    break;
  case InputPattern::Scalar:
    break;
  }
  if (p.batch > 1 && batchStride)
    in.sBatch = footprint + batchPad;
  in.count = in.index(p.batch - 1, p.M - 1, p.N - 1) + 1;
  return in;
}

double decodeBits(uint64_t bits, int dtype) {
  // Only the type's own bits count (a sign-extended pattern has more).
  switch (dtype) {
  case 0: {
    uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, sizeof(f));
    return f;
  }
  case 1: {
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }
  case 2: {
    // IEEE binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits.
    uint32_t b = static_cast<uint32_t>(bits & 0xffff);
    double sign = b & 0x8000 ? -1.0 : 1.0;
    int exponent = static_cast<int>((b >> 10) & 0x1f);
    int fraction = static_cast<int>(b & 0x3ff);
    if (exponent == 0x1f)
      return fraction ? NAN : sign * INFINITY;
    if (exponent == 0)
      return sign * std::ldexp(fraction, -24);
    return sign * std::ldexp(1024 + fraction, exponent - 25);
  }
  default: {
    // bfloat16: the high half of an f32.
    uint32_t b = static_cast<uint32_t>(bits & 0xffff) << 16;
    float f;
    std::memcpy(&f, &b, sizeof(f));
    return f;
  }
  }
}

static uint64_t elementBits(const void *data, int dtype, int64_t index) {
  size_t size = dtypeSize(dtype);
  uint64_t bits = 0;
  // Little-endian: the element's bytes are the low bytes of `bits`.
  std::memcpy(&bits, static_cast<const char *>(data) + index * size, size);
  return bits;
}

double loadElement(const void *data, int dtype, int64_t index) {
  return decodeBits(elementBits(data, dtype, index), dtype);
}

bool sameElementBits(const void *a, const void *b, int dtype, int64_t index) {
  return elementBits(a, dtype, index) == elementBits(b, dtype, index);
}

EpilogueReference::EpilogueReference(const isaac::EpilogueProgram &program)
    : program(program) {
  // The least precise type the program computes in. A truncf that is
  // yielded is the output's rounding, accounted for separately.
  double unit = 0;
  for (size_t i = 0; i < program.insts.size(); ++i) {
    const isaac::EpilogueInst &inst = program.insts[i];
    hasApproximations |= isApproximated(inst.op);
    if (inst.type.isPredicate || isExact(inst.op))
      continue;
    int value = 1 + program.numInputs() + static_cast<int>(i);
    if (inst.op == EpilogueOp::TruncF && value == program.result)
      continue;
    unit = std::max(unit, unitRoundoff(inst.type.dtype));
  }
  arithmetic = unit * (hasApproximations ? kApproximationUlps : kRoundingUlps);
  outputUlp = 2 * unitRoundoff(program.outType);
  outputMinimum = smallestValue(program.outType);
}

double EpilogueReference::errorBound(double c, double x, const double *inputs,
                                     double &expected) const {
  expected = evaluate(x, inputs);
  if (std::isnan(c) || !std::isfinite(expected))
    return INFINITY;
  if (c == expected)
    return 0;
  // check()'s range holds `expected` and its allowance is at least this one:
  // the same arithmetic term, an output term of at least |expected|.
  double scale = std::max(std::fabs(x), std::fabs(expected));
  for (int i = 0; i < program.numInputs(); ++i)
    scale = std::max(scale, std::fabs(inputs[i]));
  double slack =
      arithmetic * scale + outputUlp * std::fabs(expected) + outputMinimum;
  return std::fabs(c - expected) / slack;
}

EpilogueReference::Verdict
EpilogueReference::check(double c, double x, double xError,
                         const double *inputs, const double *expected) const {
  Verdict v;
  v.expected = expected ? *expected : evaluate(x, inputs);
  if (std::isnan(c)) {
    v.passed = std::isnan(v.expected);
    v.error = v.passed ? 0 : INFINITY;
    v.low = v.high = NAN;
    return v;
  }
  double low = INFINITY, high = -INFINITY;
  auto include = [&](double y) {
    if (std::isnan(y))
      return;
    low = std::min(low, y);
    high = std::max(high, y);
  };
  include(v.expected);
  if (xError > 0) {
    include(evaluate(x - xError, inputs));
    include(evaluate(x + xError, inputs));
  }
  double scale = std::fabs(x);
  for (int i = 0; i < program.numInputs(); ++i)
    scale = std::max(scale, std::fabs(inputs[i]));
  if (std::isfinite(v.expected))
    scale = std::max(scale, std::fabs(v.expected));
  auto allowance = [&]() {
    double magnitude = 0;
    for (double y : {low, high})
      if (std::isfinite(y))
        magnitude = std::max(magnitude, std::fabs(y));
    return arithmetic * scale + outputUlp * magnitude + outputMinimum;
  };
  double slack = allowance();
  auto inside = [&]() { return c >= low - slack && c <= high + slack; };
  if (!(low <= high) || !inside()) {
    if (xError > 0) {
      // An epilogue that is not monotonic (gelu, silu) may have its
      // extremum inside the interval: sample it, and allow for a dip
      // between samples of at most the largest step between neighbours.
      double previous = NAN, step = 0;
      for (int j = 0; j <= kRefineSteps; ++j) {
        double y = evaluate(x - xError + 2 * xError * j / kRefineSteps, inputs);
        include(y);
        if (!std::isnan(y) && !std::isnan(previous) &&
            std::isfinite(y - previous))
          step = std::max(step, std::fabs(y - previous));
        previous = y;
      }
      if (low <= high) {
        low -= step;
        high += step;
      }
      slack = allowance();
    }
  }
  if (!(low <= high)) {
    // Every evaluation is NaN, but the kernel's value is not.
    v.passed = false;
    v.error = INFINITY;
    v.low = v.high = NAN;
    return v;
  }
  v.low = low - slack;
  v.high = high + slack;
  v.passed = c >= v.low && c <= v.high;
  double center = std::isnan(v.expected) ? 0.5 * (low + high) : v.expected;
  if (c == center)
    v.error = 0;
  else if (c > center)
    v.error = (c - center) / (v.high - center);
  else
    v.error = (center - c) / (center - v.low);
  if (std::isnan(v.error))
    v.error = v.passed ? 1 : INFINITY;
  return v;
}

int workerCount(int64_t count) {
  // Below this many elements, starting threads costs more than it saves.
  constexpr int64_t kPerThread = 1 << 15;
  int64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(
      std::max<int64_t>(1, std::min(hardware, count / kPerThread)));
}

void parallelFor(int64_t count, int workers,
                 const std::function<void(int64_t, int64_t, int)> &body) {
  if (workers <= 1) {
    body(0, count, 0);
    return;
  }
  std::vector<std::thread> threads;
  int64_t chunk = (count + workers - 1) / workers;
  for (int w = 0; w < workers; ++w) {
    int64_t begin = std::min(count, w * chunk);
    int64_t end = std::min(count, begin + chunk);
    threads.emplace_back(body, begin, end, w);
  }
  for (std::thread &t : threads)
    t.join();
}

} // namespace bench
