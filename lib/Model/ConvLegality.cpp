//===- ConvLegality.cpp - Conv-only legality rules and search -------------===//

#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Wgmma.h"

#include <algorithm>
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

bool isaac::convFamilyComputes(GemmFamily family, const GemmTypes &t) {
  if (family == GemmFamily::Wgmma)
    return isWgmmaType(t.ab);
  if (family == GemmFamily::Simt)
    return !t.tf32 && t.c == t.ab && (t.ab == DType::F32 || t.ab == DType::F64);
  // Which types have an instruction does not depend on the chip (only
  // f64's shape does).
  return mmaInstruction(t.ab, /*chip=*/"").has_value() &&
         (t.ab != DType::F32 || t.tf32);
}

/// The narrowest vec the family's vector-width rule admits for operands of
/// type `ab` (simt: 1; mma: a 4-byte cp.async).
static int narrowestVec(GemmFamily family, DType ab) {
  if (family == GemmFamily::Simt)
    return 1;
  for (int v : familyParamValues(family, GemmParam::vec))
    if (isMmaCopyWidth(v * dtypeBytes(ab)))
      return v;
  return 1;
}

static void checkConvRules(const GemmConfig &c, const ConvShape &shape,
                           Report &r) {
  if (!convFamilyComputes(c.family, shape.types))
    r.fail("conv-family", [&] {
      return std::string("the ") + gemmFamilyName(c.family) +
             " family has no convolution kernel on " + shape.types.token() +
             " (simt: f32, f64; mma: f16, bf16, f64, tf32; wgmma: f16, bf16)";
    });
  if (shape.layout == ConvLayout::NchwFchw) {
    r.fail("conv-layout", [&] {
      return std::string("conv kernels read NHWC inputs (nhwc_hwcf, "
                         "nhwc_fhwc); the layout is ") +
             convLayoutName(shape.layout);
    });
    return;
  }
  // C not a multiple of any vec the family copies with (an odd C of 16-bit
  // operands): every configuration fetches the input element by element,
  // and a wider vec than the narrowest would only be a larger tile of
  // scalar loads per thread, so the search keeps to the narrowest.
  int narrowest = narrowestVec(c.family, shape.types.ab);
  if (shape.c % narrowest != 0) {
    if (c.vec != narrowest)
      r.fail("conv-vector-channels", [&] {
        return "vec = " + std::to_string(c.vec) +
               ": C = " + std::to_string(shape.c) +
               " is a multiple of no vec the " + gemmFamilyName(c.family) +
               " family copies with, so the input is fetched element by "
               "element and vec must be the narrowest, " +
               std::to_string(narrowest);
      });
  } else if (shape.c % c.vec != 0) {
    r.fail("conv-vector-channels", [&] {
      return "vec = " + std::to_string(c.vec) +
             " must divide C = " + std::to_string(shape.c) +
             " (a vec-wide load of the input reads vec channels of one "
             "filter tap)";
    });
  }
}

// An mma conv kernel keeps each input copy's pixel (its row's input offset
// and the p, q it checks the halo with) live across the main loop, on top
// of what its GEMM twin holds. Past 16 copies a thread ptxas spilled 256
// bytes or more on 30 of the 31 such kernels of 1,199 sampled f16 ones,
// and on 5 gave up on the allocation (32-64 registers, kilobytes of
// stack); ptxas 13.0 -O3 then miscompiles the input addresses
// (docs/correctness.md, "ptxas and the mma conv kernels").
static void checkConvKernelRules(const GemmConfig &c, Report &r) {
  // The simt conv kernels fetch the input through its taps into registers
  // (halo predicates per element); the cp.async pipeline of stages > 2 is
  // the GEMM kernels'.
  if (c.family == GemmFamily::Simt && c.stages != 2)
    r.fail("conv-stages", [&] {
      return "stages = " + std::to_string(c.stages) +
             ": simt convolutions pipeline 2 stages (register prefetch); "
             "deeper cp.async pipelines are GEMM kernels only";
    });
  // A persistent kernel's blocks change tiles, and a conv kernel's input
  // taps and im2col coordinates are computed once, for the block's rows.
  if (c.pt)
    r.fail("conv-persistent", [&] {
      return "pt = " + std::to_string(c.pt) +
             ": persistent tiles are GEMM kernels only";
    });
  if (c.family != GemmFamily::Mma)
    return;
  int copies = mmaCopiesPerThreadA(c);
  if (copies > kMaxConvInputCopies)
    r.fail("conv-input-copies", [&] {
      return "ml * u / vec / threads = " + std::to_string(c.ml) + " * " +
             std::to_string(c.u) + " / " + std::to_string(c.vec) + " / " +
             std::to_string(c.threads()) + " = " + std::to_string(copies) +
             " input copies per thread each K tile; a conv kernel keeps "
             "each one's pixel live, at most " +
             std::to_string(kMaxConvInputCopies);
    });
}

bool isaac::meetsConvKernelRules(const GemmConfig &c) {
  Report r{/*quick=*/true, false, nullptr};
  checkConvKernelRules(c, r);
  return !r.broken;
}

/// Every conv-only rule: the shape's and the kernel's.
static void checkAllConvRules(const GemmConfig &c, const ConvShape &shape,
                              Report &r) {
  checkConvRules(c, shape, r);
  checkConvKernelRules(c, r);
}

std::vector<Violation> isaac::checkConvLegality(const GemmConfig &c,
                                                const ConvShape &shape,
                                                const ChipLimits &chip) {
  std::vector<Violation> out = checkGemmLegality(c, shape.types.ab, chip);
  Report r{/*quick=*/false, false, &out};
  checkAllConvRules(c, shape, r);
  return out;
}

bool isaac::meetsConvRules(const GemmConfig &c, const ConvShape &shape) {
  Report r{/*quick=*/true, false, nullptr};
  checkConvRules(c, shape, r);
  return !r.broken;
}

bool isaac::isConvLegal(const GemmConfig &c, const ConvShape &shape,
                        const ChipLimits &chip) {
  if (!isLegal(c, shape.types.ab, chip))
    return false;
  Report r{/*quick=*/true, false, nullptr};
  checkAllConvRules(c, shape, r);
  return !r.broken;
}

GemmConfig isaac::withConvWarpSpecialization(const GemmConfig &c,
                                             const ConvShape &shape,
                                             const ChipLimits &chip) {
  // The input must be the im2col map's, or the launch takes the cp.async
  // loop (where the producer only costs occupancy).
  if (!shape.im2colMappable(c.u))
    return c;
  // The filters are the implicit GEMM's B, mapped as a GEMM's: K (hwcf)
  // or C·R·S (fhwc) contiguous, a multiple of 16 bytes.
  GemmShape g = shape.gemmShape();
  int64_t ldb = shape.layout == ConvLayout::NhwcHwcf
                    ? shape.k
                    : shape.c * shape.r * shape.s;
  g.operandAlign = byteAlignment(ldb * dtypeBytes(g.dtype));
  return withWarpSpecialization(c, g, chip, [&](const GemmConfig &s) {
    return isConvLegal(s, shape, chip);
  });
}

std::vector<Ranked> isaac::searchBestConv(const ConvShape &shape,
                                          const ChipLimits &chip,
                                          const CostFn &cost, unsigned k) {
  // The family a GEMM of the same types is searched in (f64: mma on chips
  // with fast DMMA).
  GemmFamily family = searchFamily(shape.types.ab, shape.types.tf32, chip);
  if (!convFamilyComputes(family, shape.types))
    return {};
  GemmShape g = shape.gemmShape();
  TopK best(k);
  for (const GemmConfig &c : legalConfigs(shape.types.ab, chip, family)) {
    if (splitsKUselessly(g, c))
      continue;
    Report r{/*quick=*/true, false, nullptr};
    checkAllConvRules(c, shape, r);
    if (r.broken)
      continue;
    double t = cost(g, c);
    if (std::isinf(t))
      continue;
    best.offer(c, t);
  }
  return best.take();
}

std::vector<Ranked> isaac::searchBestConvAsGemm(const ConvShape &shape,
                                                const ChipLimits &chip,
                                                const CostFn &cost,
                                                unsigned k) {
  GemmShape g = shape.gemmShape();
  // The conv rules read vec and the family only; they refuse few of a
  // ranking (vec wider than C allows), so a few times k usually suffices.
  for (unsigned want = std::max(8 * k, 64u);; want *= 8) {
    std::vector<Ranked> ranked = searchBest(g, chip, cost, want);
    std::vector<Ranked> out;
    for (Ranked r : ranked) {
      if (!meetsConvRules(r.config, shape) || !meetsConvKernelRules(r.config))
        continue;
      // searchBest's cluster form (clusterForm) was measured on GEMMs, on
      // warp-specialized blocks, which convolutions choose by their own
      // rule below; the rankings themselves never cluster.
      if (r.config.cm > 1)
        continue;
      // searchBest's warp-specialization rule reads the GEMM; the
      // convolution's input decides too (withConvWarpSpecialization,
      // which the selection applies).
      r.config.ws = 0;
      out.push_back(r);
      if (out.size() == k)
        return out;
    }
    // Fewer than asked: the ranking holds the whole space.
    if (ranked.size() < want)
      return out;
  }
}
