//===- Legality.cpp - Which GEMM configurations are legal -----------------===//

//
// The rules every family shares are driven by the table of
// isaac/Model/GemmParams.def (power-of-two, range, family); the simt
// family's rules follow; the mma family's are lib/Model/MmaLegality.cpp's
// (LegalityRules.h).
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/Legality.h"
#include "LegalityRules.h"
#include "isaac/Model/Wgmma.h"

#include <algorithm>
#include <sstream>

using namespace isaac;

static bool isPow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/// Global and shared-memory vector accesses are at most 16 bytes wide.
static constexpr int kMaxVectorBytes = 16;

/// The narrowest operand type each family computes on: the widest `vec`
/// any of its configurations can use is kMaxVectorBytes / this.
static int narrowestOperandBytes(GemmFamily f) {
  switch (f) {
  case GemmFamily::Simt:
    return dtypeBytes(DType::F32); // f32 and f64 operands
  case GemmFamily::Mma:
    return dtypeBytes(DType::F16); // f16, bf16, tf32 and f64 operands
  case GemmFamily::Wgmma:
    return dtypeBytes(DType::F16); // f16 and bf16 operands
  }
  return 1;
}

std::optional<ChipLimits> isaac::getChipLimits(const std::string &chip) {
  const ChipInfo *info = findChip(chip);
  if (!info)
    return std::nullopt;
  ChipLimits l;
  l.chip = chip;
  l.maxThreadsPerBlock = info->maxThreadsPerBlock;
  l.staticSmemPerBlock = info->staticSmemPerBlock;
  l.regsPerBlock = info->regsPerBlock;
  l.maxRegsPerThread = info->maxRegsPerThread;
  l.numSMs = info->numSMs;
  return l;
}

std::string isaac::knownChips() {
  std::string out;
  for (const ChipInfo &c : allChips())
    out += std::string(out.empty() ? "" : ", ") + c.name;
  return out;
}

SharedLayout isaac::getSharedLayout(const GemmConfig &c, DType t) {
  SharedLayout s;
  // Rows are padded by 16 bytes and kept a multiple of 16 bytes long, so
  // that every row, the B tile (after U rows of A) and the second stage
  // start 16-byte aligned: the fragment loads and tile stores are vector
  // accesses up to 16 bytes wide (tiles narrower than 16 bytes, ML or NL
  // < 16/size, are rounded up).
  int pad = 16 / dtypeBytes(t);
  auto alignUp = [&](int x) { return (x + pad - 1) / pad * pad; };
  s.strideA = alignUp(c.ml + pad);
  s.strideB = alignUp(c.nl + pad);
  s.offsetB = c.u * s.strideA;
  s.stageElems = c.u * (s.strideA + s.strideB);
  s.reduceElems = (c.kl - 1) * c.ml * c.nl;
  s.totalElems = std::max(c.stages * s.stageElems, s.reduceElems);
  s.bytes = s.totalElems * dtypeBytes(t);
  return s;
}

int isaac::gemmSharedMemoryBytes(const GemmConfig &c, DType t) {
  if (c.family != GemmFamily::Simt)
    return mmaSharedMemoryBytes(c, t);
  return getSharedLayout(c, t).bytes;
}

/// Largest power of two w <= 16 bytes such that w divides both `tile` (the
/// thread's contiguous run in shared memory) and `stride` (the row pitch),
/// so every fragment load is w-aligned.
static int fragmentWidth(int tile, int stride, DType t) {
  int w = 16 / dtypeBytes(t);
  while (w > 1 && (tile % w != 0 || stride % w != 0))
    w /= 2;
  return w;
}

int isaac::fragmentWidthA(const GemmConfig &c, DType t) {
  return fragmentWidth(c.ms, getSharedLayout(c, t).strideA, t);
}
int isaac::fragmentWidthB(const GemmConfig &c, DType t) {
  return fragmentWidth(c.ns, getSharedLayout(c, t).strideB, t);
}

int isaac::loadsPerThreadA(const GemmConfig &c) {
  return static_cast<int>(ceilDiv(c.ml * c.u / c.vec, c.threads()));
}
int isaac::loadsPerThreadB(const GemmConfig &c) {
  return static_cast<int>(ceilDiv(c.nl * c.u / c.vec, c.threads()));
}

int isaac::estimateRegisters(const GemmConfig &c, DType t) {
  int words = dtypeBytes(t) / 4;
  int acc = c.ms * c.ns * c.ks * words;
  int frag = (c.ms + c.ns) * words;
  // stages = 2 prefetches the next tile through registers; deeper
  // pipelines copy it with cp.async, straight into shared memory.
  int prefetch = c.stages == 2
                     ? (loadsPerThreadA(c) + loadsPerThreadB(c)) * c.vec * words
                     : 0;
  // Addresses, loop counters, predicates and the epilogue's scalars.
  const int overhead = 32;
  return acc + frag + prefetch + overhead;
}

std::vector<int> isaac::familyParamValues(GemmFamily family, GemmParam p) {
  const GemmParamInfo &info = gemmParamInfo(p);
  std::vector<int> out;
  if (!info.usedBy(family))
    return out;
  // No model reads it (gemmParamOptional, not an extra feature): sampled
  // and searched at its default only, a value chosen otherwise where it is
  // chosen at all.
  if (gemmParamOptional(family, p) && !gemmParamExtraFeature(family, p))
    return {info.defaultValue};
  for (int x = info.lo; x <= info.hi; x = info.pow2 ? 2 * x : x + 1) {
    if (info.pow2 && !isPow2(x))
      continue;
    if (p == GemmParam::vec &&
        x * narrowestOperandBytes(family) > kMaxVectorBytes)
      continue;
    out.push_back(x);
  }
  return out;
}

const std::vector<ParamRange> &isaac::gemmParamRanges() {
  static const std::vector<ParamRange> ranges = [] {
    std::vector<ParamRange> out;
    for (GemmParam p : kLegacyParams) {
      std::vector<int> v = familyParamValues(GemmFamily::Simt, p);
      out.push_back({gemmParamInfo(p).name, v.front(), v.back()});
    }
    return out;
  }();
  return ranges;
}

/// The power-of-two and range rules of every parameter of c's family, and
/// the family rule for the others (they must hold their defaults). Returns
/// whether every value passed.
static bool checkValues(const GemmConfig &c, Report &r) {
  bool ok = true;
  for (const GemmParamInfo &p : kGemmParams) {
    int v = c.get(p.param);
    if (!p.usedBy(c.family)) {
      if (v == p.defaultValue)
        continue;
      ok = false;
      if (!r.fail("family", [&] {
            return std::string(p.name) + " = " + std::to_string(v) +
                   " is not a parameter of the " + gemmFamilyName(c.family) +
                   " family";
          }))
        return false;
    } else if (p.pow2 && !isPow2(v)) {
      ok = false;
      if (!r.fail("power-of-two", [&] {
            return std::string(p.name) + " = " + std::to_string(v) +
                   " must be a positive power of two";
          }))
        return false;
    } else if (v < p.lo || v > p.hi) {
      ok = false;
      if (!r.fail("range", [&] {
            return std::string(p.name) + " = " + std::to_string(v) +
                   " is outside [" + std::to_string(p.lo) + ", " +
                   std::to_string(p.hi) + "]";
          }))
        return false;
    }
  }
  return ok;
}

/// The simt rules that need neither element type nor chip.
static void checkSimtStructure(const GemmConfig &c, int maxThreadsPerBlock,
                               Report &r) {

  bool tilesOk = true;
  if (c.ml % c.ms != 0) {
    tilesOk = false;
    if (!r.fail("tile-divisibility", [&] {
          return "ml = " + std::to_string(c.ml) +
                 " is not a multiple of ms = " + std::to_string(c.ms);
        }))
      return;
  }
  if (c.nl % c.ns != 0) {
    tilesOk = false;
    if (!r.fail("tile-divisibility", [&] {
          return "nl = " + std::to_string(c.nl) +
                 " is not a multiple of ns = " + std::to_string(c.ns);
        }))
      return;
  }
  if (c.u % (c.kl * c.ks) != 0) {
    tilesOk = false;
    if (!r.fail("tile-divisibility", [&] {
          return "u = " + std::to_string(c.u) +
                 " is not a multiple of kl * ks = " +
                 std::to_string(c.kl * c.ks);
        }))
      return;
  }
  if (!tilesOk)
    return;

  int t = c.threads();
  if (t % 32 != 0 || t > maxThreadsPerBlock) {
    if (!r.fail("threads-per-block", [&] {
          std::ostringstream os;
          os << "(ml/ms) * (nl/ns) * kl = " << c.threadsM() << " * "
             << c.threadsN() << " * " << c.kl << " = " << t
             << " threads per block; must be a multiple of 32 and at most "
             << maxThreadsPerBlock;
          return os.str();
        }))
      return;
  }

  if (c.ml % c.vec != 0 || c.nl % c.vec != 0 || c.u % c.vec != 0)
    r.fail("vector-divisibility", [&] {
      return "vec = " + std::to_string(c.vec) +
             " must divide ml, nl and u (ml = " + std::to_string(c.ml) +
             ", nl = " + std::to_string(c.nl) + ", u = " + std::to_string(c.u) +
             ")";
    });
}

static void checkStructure(const GemmConfig &c, int maxThreadsPerBlock,
                           Report &r) {
  // The derived quantities of the family rules divide by the values; stop
  // at the first malformed value rather than report nonsense.
  if (!checkValues(c, r))
    return;
  if (c.family == GemmFamily::Simt)
    checkSimtStructure(c, maxThreadsPerBlock, r);
}

static void checkAll(const GemmConfig &c, DType dtype, const ChipLimits &chip,
                     Report &r) {
  checkStructure(c, chip.maxThreadsPerBlock, r);
  // Resource rules divide by the structural quantities; report those first.
  if (r.broken)
    return;
  if (c.family == GemmFamily::Mma) {
    checkMmaRules(c, dtype, chip, r);
    return;
  }
  if (c.family == GemmFamily::Wgmma) {
    checkWgmmaRules(c, dtype, chip, r);
    return;
  }
  // The simt generator computes on f32 and f64 scalars; 16-bit operands
  // are the mma family's.
  if (dtype != DType::F32 && dtype != DType::F64 && !r.fail("simt-type", [&] {
        return std::string("the simt family computes on f32 and f64 "
                           "operands, not ") +
               dtypeName(dtype) + " (use family = mma)";
      }))
    return;
  int t = c.threads();
  int vecBytes = c.vec * dtypeBytes(dtype);
  if (vecBytes > kMaxVectorBytes && !r.fail("vector-width", [&] {
        return "vec = " + std::to_string(c.vec) + " " + dtypeName(dtype) +
               " elements is " + std::to_string(vecBytes) +
               " bytes; global loads are at most 16 bytes";
      }))
    return;

  SharedLayout s = getSharedLayout(c, dtype);
  if (s.bytes > chip.staticSmemPerBlock && !r.fail("shared-memory", [&] {
        return "needs " + std::to_string(s.bytes) +
               " bytes of shared memory; " + chip.chip + " allows " +
               std::to_string(chip.staticSmemPerBlock) +
               " bytes of static shared memory per block";
      }))
    return;

  checkRegisterRule(estimateRegisters(c, dtype), t, chip, r);
}

void isaac::checkRegisterRule(int regs, int t, const ChipLimits &chip,
                              Report &r) {
  if (regs > chip.maxRegsPerThread)
    r.fail("registers", [&] {
      return "needs about " + std::to_string(regs) + " registers per thread; " +
             chip.chip + " allows " + std::to_string(chip.maxRegsPerThread);
    });
  else if (regs * t > chip.regsPerBlock)
    r.fail("registers", [&] {
      return "needs about " + std::to_string(regs) + " x " + std::to_string(t) +
             " = " + std::to_string(regs * t) + " registers per block; " +
             chip.chip + " has " + std::to_string(chip.regsPerBlock);
    });
}

std::vector<Violation> isaac::checkGemmStructure(const GemmConfig &c,
                                                 int maxThreadsPerBlock) {
  std::vector<Violation> out;
  Report r(&out);
  checkStructure(c, maxThreadsPerBlock, r);
  return out;
}

std::vector<Violation> isaac::checkGemmLegality(const GemmConfig &c,
                                                DType dtype,
                                                const ChipLimits &chip) {
  std::vector<Violation> out;
  Report r(&out);
  checkAll(c, dtype, chip, r);
  return out;
}

bool isaac::isLegal(const GemmConfig &c, DType dtype, const ChipLimits &chip) {
  Report r(nullptr);
  checkAll(c, dtype, chip, r);
  return !r.broken;
}
