//===- IsaacAttrs.cpp - isaac attributes ----------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::isaac;

#define GET_ATTRDEF_CLASSES
#include "isaac/Dialect/IsaacAttrs.cpp.inc"

void IsaacDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "isaac/Dialect/IsaacAttrs.cpp.inc"
      >();
}

::isaac::GemmConfig GemmConfigAttr::getConfig() const {
  ::isaac::GemmConfig c;
  c.ml = getMl();
  c.nl = getNl();
  c.ms = getMs();
  c.ns = getNs();
  c.u = getU();
  c.ks = getKs();
  c.kl = getKl();
  c.kg = getKg();
  c.vec = getVec();
  return c;
}

GemmConfigAttr GemmConfigAttr::get(MLIRContext *ctx,
                                   const ::isaac::GemmConfig &c) {
  return get(ctx, c.ml, c.nl, c.ms, c.ns, c.u, c.ks, c.kl, c.kg, c.vec);
}

static constexpr std::array<llvm::StringLiteral, 9> kGemmKeys = {
    "ml", "nl", "ms", "ns", "u", "ks", "kl", "kg", "vec"};

/// The violation of parameter `i` holding `written`, a value too wide for
/// the int fields of ::isaac::GemmConfig that checkGemmStructure() reads. It
/// mirrors that function's value rules (power-of-two first, then range;
/// bounds from gemmParamRanges()) so a wide value is reported by the same
/// rule, in the same words, as written.
static ::isaac::Violation wideValueViolation(size_t i, StringRef written,
                                             bool positivePow2) {
  const ::isaac::ParamRange &r = ::isaac::gemmParamRanges()[i];
  if (!positivePow2)
    return {"power-of-two", (Twine(r.name) + " = " + written +
                             " must be a positive power of two")
                                .str()};
  return {"range", (Twine(r.name) + " = " + written + " is outside [" +
                    Twine(r.lo) + ", " + Twine(r.hi) + "]")
                       .str()};
}

/// `<key = int, ...>` with every key of kGemmKeys exactly once, any order.
Attribute GemmConfigAttr::parse(AsmParser &parser, Type) {
  std::array<std::optional<int64_t>, kGemmKeys.size()> values;
  if (parser.parseLess())
    return {};
  auto parseEntry = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    auto it = llvm::find(kGemmKeys, key);
    if (it == kGemmKeys.end())
      return parser.emitError(loc)
             << "unknown #isaac.gemm parameter '" << key
             << "'; expected one of ml, nl, ms, ns, u, ks, kl, kg, vec";
    std::optional<int64_t> &slot = values[it - kGemmKeys.begin()];
    if (slot)
      return parser.emitError(loc)
             << "#isaac.gemm parameter '" << key << "' given twice";
    if (parser.parseEqual())
      return failure();
    llvm::SMLoc valueLoc = parser.getCurrentLocation();
    APInt v;
    OptionalParseResult parsed = parser.parseOptionalInteger(v);
    if (!parsed.has_value() || failed(*parsed))
      return parser.emitError(valueLoc)
             << "#isaac.gemm parameter '" << key << "' must be an integer";
    // The attribute stores int64_t; a wider value is reported as written
    // by the rule it breaks rather than as the parser's "too large".
    if (!v.isSignedIntN(64)) {
      ::isaac::Violation bad = wideValueViolation(
          it - kGemmKeys.begin(), llvm::toString(v, 10, /*Signed=*/true),
          v.isStrictlyPositive() && v.isPowerOf2());
      return parser.emitError(valueLoc) << "illegal #isaac.gemm (rule "
                                        << bad.rule << "): " << bad.message;
    }
    slot = v.getSExtValue();
    return success();
  };
  llvm::SMLoc start = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
    return {};
  for (size_t i = 0; i < kGemmKeys.size(); ++i)
    if (!values[i]) {
      parser.emitError(start)
          << "#isaac.gemm is missing parameter '" << kGemmKeys[i] << "'";
      return {};
    }
  return getChecked([&] { return parser.emitError(start); },
                    parser.getContext(), *values[0], *values[1], *values[2],
                    *values[3], *values[4], *values[5], *values[6], *values[7],
                    *values[8]);
}

void GemmConfigAttr::print(AsmPrinter &printer) const {
  printer << "<" << getConfig().str() << ">";
}

LogicalResult
GemmConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t ml,
                       int64_t nl, int64_t ms, int64_t ns, int64_t u,
                       int64_t ks, int64_t kl, int64_t kg, int64_t vec) {
  // The rules read int fields. Values that fit are checked as written (so
  // ml = -64 is reported as -64); a value beyond int is reported here, as
  // written, and a legal stand-in lets the other parameters be checked too.
  const std::array<int64_t, 9> written = {ml, nl, ms, ns, u, ks, kl, kg, vec};
  static constexpr std::array<int ::isaac::GemmConfig::*, 9> fields = {
      &::isaac::GemmConfig::ml, &::isaac::GemmConfig::nl,
      &::isaac::GemmConfig::ms, &::isaac::GemmConfig::ns,
      &::isaac::GemmConfig::u,  &::isaac::GemmConfig::ks,
      &::isaac::GemmConfig::kl, &::isaac::GemmConfig::kg,
      &::isaac::GemmConfig::vec};
  std::vector<::isaac::Violation> violations;
  ::isaac::GemmConfig c;
  for (size_t i = 0; i < written.size(); ++i) {
    if (written[i] >= std::numeric_limits<int>::min() &&
        written[i] <= std::numeric_limits<int>::max()) {
      c.*fields[i] = static_cast<int>(written[i]);
      continue;
    }
    violations.push_back(
        wideValueViolation(i, std::to_string(written[i]),
                           written[i] > 0 && llvm::isPowerOf2_64(written[i])));
    c.*fields[i] = ::isaac::gemmParamRanges()[i].lo;
  }
  bool wide = !violations.empty();
  for (::isaac::Violation &v : ::isaac::checkGemmStructure(c)) {
    // Like checkGemmStructure() after a broken value, report no rule that
    // derives from several values: those would see the stand-in.
    if (wide && v.rule != "power-of-two" && v.rule != "range")
      continue;
    violations.push_back(std::move(v));
  }
  if (violations.empty())
    return success();
  InFlightDiagnostic diag = emitError();
  diag << "illegal #isaac.gemm (rule " << violations.front().rule
       << "): " << violations.front().message;
  for (size_t i = 1; i < violations.size(); ++i)
    diag.attachNote() << "also breaks rule " << violations[i].rule << ": "
                      << violations[i].message;
  return diag;
}
