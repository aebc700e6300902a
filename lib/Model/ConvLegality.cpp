//===- ConvLegality.cpp - Conv-only legality rules and search -------------===//

#include "isaac/Model/ConvLegality.h"

#include <cmath>

using namespace isaac;

namespace {
/// Collects violations, or only whether there is one (`quick`).
struct Report {
  bool quick;
  bool broken = false;
  std::vector<Violation> *out;

  template <typename Message> void fail(const char *rule, Message message) {
    broken = true;
    if (!quick)
      out->push_back({rule, message()});
  }
};
} // namespace

static void checkConvRules(const GemmConfig &c, const ConvShape &shape,
                           Report &r) {
  if (c.family != GemmFamily::Simt)
    r.fail("conv-family", [&] {
      return std::string("conv kernels are of the simt family (f32, f64); "
                         "this configuration is of the ") +
             gemmFamilyName(c.family) + " family";
    });
  if (shape.layout == ConvLayout::NchwFchw)
    r.fail("conv-layout", [&] {
      return std::string("conv kernels read NHWC inputs (nhwc_hwcf, "
                         "nhwc_fhwc); the layout is ") +
             convLayoutName(shape.layout);
    });
  else if (shape.c % c.vec != 0)
    r.fail("conv-vector-channels", [&] {
      return "vec = " + std::to_string(c.vec) +
             " must divide C = " + std::to_string(shape.c) +
             " (a vec-wide load of the input reads vec channels of one "
             "filter tap)";
    });
}

std::vector<Violation> isaac::checkConvLegality(const GemmConfig &c,
                                                const ConvShape &shape,
                                                const ChipLimits &chip) {
  std::vector<Violation> out = checkGemmLegality(c, shape.types.ab, chip);
  Report r{/*quick=*/false, false, &out};
  checkConvRules(c, shape, r);
  return out;
}

bool isaac::isConvLegal(const GemmConfig &c, const ConvShape &shape,
                        const ChipLimits &chip) {
  if (!isLegal(c, shape.types.ab, chip))
    return false;
  Report r{/*quick=*/true, false, nullptr};
  checkConvRules(c, shape, r);
  return !r.broken;
}

std::vector<Ranked> isaac::searchBestConv(const ConvShape &shape,
                                          const ChipLimits &chip,
                                          const CostFn &cost, unsigned k) {
  // The simt space is that of f32 and f64 only (checkConvRules refuses the
  // other families).
  if (shape.types.ab != DType::F32 && shape.types.ab != DType::F64)
    return {};
  GemmShape g = shape.gemmShape();
  TopK best(k);
  for (const GemmConfig &c :
       legalConfigs(shape.types.ab, chip, GemmFamily::Simt)) {
    if (splitsKUselessly(g, c))
      continue;
    Report r{/*quick=*/true, false, nullptr};
    checkConvRules(c, shape, r);
    if (r.broken)
      continue;
    double t = cost(g, c);
    if (std::isinf(t))
      continue;
    best.offer(c, t);
  }
  return best.take();
}
