//===- IsaacAttrs.cpp - isaac attributes ----------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>

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
    int64_t v = 0;
    if (parser.parseEqual())
      return failure();
    llvm::SMLoc valueLoc = parser.getCurrentLocation();
    OptionalParseResult parsed = parser.parseOptionalInteger(v);
    if (!parsed.has_value() || failed(*parsed))
      return parser.emitError(valueLoc)
             << "#isaac.gemm parameter '" << key << "' must be an integer";
    slot = v;
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
  // Values beyond int are outside every range; clamp before narrowing so
  // the range rule reports them instead of a wrapped value.
  auto narrow = [](int64_t v) {
    return static_cast<int>(std::clamp<int64_t>(v, -1, 1 << 30));
  };
  ::isaac::GemmConfig c;
  c.ml = narrow(ml);
  c.nl = narrow(nl);
  c.ms = narrow(ms);
  c.ns = narrow(ns);
  c.u = narrow(u);
  c.ks = narrow(ks);
  c.kl = narrow(kl);
  c.kg = narrow(kg);
  c.vec = narrow(vec);
  std::vector<::isaac::Violation> violations = ::isaac::checkGemmStructure(c);
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
