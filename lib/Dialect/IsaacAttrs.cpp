//===- IsaacAttrs.cpp - isaac attributes ----------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

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

LogicalResult
GemmConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t ml, int64_t nl, int64_t ms, int64_t ns,
                       int64_t u, int64_t ks, int64_t kl, int64_t kg,
                       int64_t vec) {
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
