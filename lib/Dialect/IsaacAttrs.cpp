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
  c.family = getFamily();
  ArrayRef<int64_t> values = getValues();
  for (const ::isaac::GemmParamInfo &p : ::isaac::kGemmParams)
    c.set(p.param, static_cast<int>(values[static_cast<int>(p.param)]));
  return c;
}

GemmConfigAttr GemmConfigAttr::get(MLIRContext *ctx,
                                   const ::isaac::GemmConfig &c) {
  SmallVector<int64_t> values;
  for (const ::isaac::GemmParamInfo &p : ::isaac::kGemmParams)
    values.push_back(c.get(p.param));
  return get(ctx, c.family, values);
}

/// The violation of parameter `p` holding `written`, a value too wide for
/// the int fields of ::isaac::GemmConfig that checkGemmStructure() reads. It
/// mirrors that function's value rules (power-of-two first where the table
/// asks for it, then range) so a wide value is reported by the same rule,
/// in the same words, as written.
static ::isaac::Violation wideValueViolation(const ::isaac::GemmParamInfo &p,
                                             StringRef written,
                                             bool positivePow2) {
  if (p.pow2 && !positivePow2)
    return {"power-of-two", (Twine(p.name) + " = " + written +
                             " must be a positive power of two")
                                .str()};
  return {"range", (Twine(p.name) + " = " + written + " is outside [" +
                    Twine(p.lo) + ", " + Twine(p.hi) + "]")
                       .str()};
}

/// The keys of `family`, for diagnostics: "ml, nl, ...".
static std::string familyKeys(::isaac::GemmFamily family) {
  std::string out;
  for (::isaac::GemmParam p : ::isaac::gemmFamilyParams(family))
    out +=
        (out.empty() ? "" : ", ") + std::string(::isaac::gemmParamInfo(p).name);
  return out;
}

/// `<[family = F,] key = int, ...>`: every required key of the family
/// exactly once, any order (GemmParams.def's rows).
Attribute GemmConfigAttr::parse(AsmParser &parser, Type) {
  constexpr int kN = ::isaac::kNumGemmParams;
  std::array<std::optional<int64_t>, kN> values;
  ::isaac::GemmFamily family = ::isaac::GemmFamily::Simt;
  if (parser.parseLess())
    return {};
  bool first = true;
  auto parseEntry = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    bool isFirst = first;
    first = false;
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (key == "family") {
      if (!isFirst)
        return parser.emitError(loc)
               << "#isaac.gemm parameter 'family' must come first";
      StringRef token;
      if (parser.parseEqual())
        return failure();
      llvm::SMLoc tokenLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&token))
        return failure();
      std::optional<::isaac::GemmFamily> f = ::isaac::parseGemmFamily(token);
      if (!f) {
        std::string known;
        for (int i = 0; i < ::isaac::kNumGemmFamilies; ++i)
          known += std::string(i ? ", " : "") +
                   ::isaac::gemmFamilyName(static_cast<::isaac::GemmFamily>(i));
        return parser.emitError(tokenLoc)
               << "unknown #isaac.gemm family '" << token
               << "'; expected one of " << known;
      }
      family = *f;
      return success();
    }
    std::optional<::isaac::GemmParam> param = ::isaac::gemmParamByName(key);
    if (!param)
      return parser.emitError(loc)
             << "unknown #isaac.gemm parameter '" << key
             << "'; expected one of " << familyKeys(family);
    const ::isaac::GemmParamInfo &info = ::isaac::gemmParamInfo(*param);
    if (!info.usedBy(family))
      return parser.emitError(loc)
             << "#isaac.gemm parameter '" << key << "' is not a parameter of "
             << "the " << ::isaac::gemmFamilyName(family)
             << " family; expected one of " << familyKeys(family);
    std::optional<int64_t> &slot = values[static_cast<int>(*param)];
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
      ::isaac::Violation bad =
          wideValueViolation(info, llvm::toString(v, 10, /*Signed=*/true),
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
  SmallVector<int64_t> all;
  for (const ::isaac::GemmParamInfo &p : ::isaac::kGemmParams) {
    std::optional<int64_t> v = values[static_cast<int>(p.param)];
    if (!v && p.usedBy(family) && !::isaac::gemmParamOptional(p.param)) {
      parser.emitError(start)
          << "#isaac.gemm is missing parameter '" << p.name << "'";
      return {};
    }
    all.push_back(v ? *v : p.defaultValue);
  }
  return getChecked([&] { return parser.emitError(start); },
                    parser.getContext(), family, all);
}

void GemmConfigAttr::print(AsmPrinter &printer) const {
  printer << "<" << getConfig().str() << ">";
}

LogicalResult
GemmConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ::isaac::GemmFamily family, ArrayRef<int64_t> written) {
  if (written.size() != static_cast<size_t>(::isaac::kNumGemmParams))
    return emitError() << "#isaac.gemm holds " << written.size()
                       << " values; expected " << ::isaac::kNumGemmParams
                       << " (one per parameter of GemmParams.def)";
  // The rules read int fields. Values that fit are checked as written (so
  // ml = -64 is reported as -64); a value beyond int is reported here, as
  // written, and a legal stand-in lets the other parameters be checked too.
  std::vector<::isaac::Violation> violations;
  ::isaac::GemmConfig c;
  c.family = family;
  for (const ::isaac::GemmParamInfo &p : ::isaac::kGemmParams) {
    int64_t w = written[static_cast<int>(p.param)];
    if (w >= std::numeric_limits<int>::min() &&
        w <= std::numeric_limits<int>::max()) {
      c.set(p.param, static_cast<int>(w));
      continue;
    }
    violations.push_back(wideValueViolation(p, std::to_string(w),
                                            w > 0 && llvm::isPowerOf2_64(w)));
    c.set(p.param, p.usedBy(family) ? p.lo : p.defaultValue);
  }
  bool wide = !violations.empty();
  for (::isaac::Violation &v : ::isaac::checkGemmStructure(c)) {
    // Like checkGemmStructure() after a broken value, report no rule that
    // derives from several values: those would see the stand-in.
    if (wide && v.rule != "power-of-two" && v.rule != "range" &&
        v.rule != "family")
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
