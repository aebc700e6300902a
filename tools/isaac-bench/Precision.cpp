//===- Precision.cpp - Error bounds of the checks per element type --------===//

#include "Precision.h"
#include "Problem.h"

namespace bench {

double checkTolerance(double base, const Problem &p) {
  double u = p.computeDtype() == 1 ? 0x1p-53 : 0x1p-24;
  double tolerance = base + 4.0 * std::sqrt(static_cast<double>(p.K)) * u;
  if (p.types.tf32 && p.tf32FullInputs)
    tolerance += 0x1p-9 + 0x1p-20;
  return tolerance;
}

ErrorModel checkErrorModel(const Problem &p, double base) {
  ErrorModel model;
  model.boundRel = checkTolerance(base, p);
  // f64 C only comes with f64 operands, which stay in the plain model.
  bool plain =
      !p.types.tf32 && p.dtype == p.outDtype && (p.dtype == 0 || p.dtype == 1);
  if (plain)
    return model;
  model.fraction = true;
  switch (p.outDtype) {
  case 2:
    model.valueRel = 0x1p-11;
    model.absolute = 0x1p-25;
    break;
  case 3:
    model.valueRel = 0x1p-8;
    model.absolute = 0x1p-134;
    break;
  default:
    model.valueRel = 0x1p-24;
    model.absolute = 0x1p-150;
    break;
  }
  // Rounding x, within boundRel * bound of ref, to C's type moves it by at
  // most valueRel * |x| <= valueRel * (|ref| + boundRel * bound).
  model.boundRel *= 1 + model.valueRel;
  return model;
}

} // namespace bench
