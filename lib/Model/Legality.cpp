//===- Legality.cpp - Which GEMM configurations are legal -----------------===//

#include "isaac/Model/Legality.h"

#include <algorithm>
#include <sstream>

using namespace isaac;

static bool isPow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

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
  s.totalElems = std::max(2 * s.stageElems, s.reduceElems);
  s.bytes = s.totalElems * dtypeBytes(t);
  return s;
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

static int ceilDiv(int a, int b) { return (a + b - 1) / b; }

int isaac::loadsPerThreadA(const GemmConfig &c) {
  return ceilDiv(c.ml * c.u / c.vec, c.threads());
}
int isaac::loadsPerThreadB(const GemmConfig &c) {
  return ceilDiv(c.nl * c.u / c.vec, c.threads());
}

int isaac::estimateRegisters(const GemmConfig &c, DType t) {
  int words = dtypeBytes(t) / 4;
  int acc = c.ms * c.ns * c.ks * words;
  int frag = (c.ms + c.ns) * words;
  int prefetch = (loadsPerThreadA(c) + loadsPerThreadB(c)) * c.vec * words;
  // Addresses, loop counters, predicates and the epilogue's scalars.
  const int overhead = 32;
  return acc + frag + prefetch + overhead;
}

const std::vector<ParamRange> &isaac::gemmParamRanges() {
  static const std::vector<ParamRange> ranges = {
      {"ml", 1, 256}, {"nl", 1, 256},  {"ms", 1, 16},
      {"ns", 1, 16},  {"u", 1, 64},    {"ks", 1, 16},
      {"kl", 1, 32},  {"kg", 1, 1024}, {"vec", 1, 4}};
  return ranges;
}

namespace {
/// Where the rules report a broken rule: with its message into `out`
/// (checkGemmLegality, the verifier's diagnostics), or, with `out` null, only
/// the fact, stopping at the first one and formatting no message (isLegal:
/// the search asks it about every candidate of a space of ~10^6).
class Report {
public:
  explicit Report(std::vector<Violation> *out) : out(out) {}
  /// Records that `rule` is broken; returns whether to go on checking.
  template <typename Message> bool fail(const char *rule, Message &&message) {
    broken = true;
    if (out)
      out->push_back({rule, message()});
    return out != nullptr;
  }
  bool broken = false;

private:
  std::vector<Violation> *out;
};
} // namespace

static void checkStructure(const GemmConfig &c, int maxThreadsPerBlock,
                           Report &r) {
  const std::array<int, 9> values = c.values();
  const auto &ranges = gemmParamRanges();
  bool shapeOk = true;
  for (size_t i = 0; i < ranges.size(); ++i) {
    int v = values[i];
    if (!isPow2(v)) {
      shapeOk = false;
      if (!r.fail("power-of-two", [&] {
            return std::string(ranges[i].name) + " = " + std::to_string(v) +
                   " must be a positive power of two";
          }))
        return;
    } else if (v < ranges[i].lo || v > ranges[i].hi) {
      shapeOk = false;
      if (!r.fail("range", [&] {
            return std::string(ranges[i].name) + " = " + std::to_string(v) +
                   " is outside [" + std::to_string(ranges[i].lo) + ", " +
                   std::to_string(ranges[i].hi) + "]";
          }))
        return;
    }
  }
  // The derived quantities below divide by these; stop at the first
  // malformed value rather than report nonsense.
  if (!shapeOk)
    return;

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

static void checkAll(const GemmConfig &c, DType dtype, const ChipLimits &chip,
                     Report &r) {
  checkStructure(c, chip.maxThreadsPerBlock, r);
  // Resource rules divide by the structural quantities; report those first.
  if (r.broken)
    return;
  int t = c.threads();
  int vecBytes = c.vec * dtypeBytes(dtype);
  if (vecBytes > 16 && !r.fail("vector-width", [&] {
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

  int regs = estimateRegisters(c, dtype);
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
