//===- WgmmaLegality.cpp - Legality rules of the wgmma family
//--------------===//
//
// The rules a configuration of the wgmma family (warpgroup MMA kernels,
// lib/Transforms/MmaKernelBuilder.cpp) must follow beyond the power-of-two
// and range rules of GemmParams.def, and the geometry they and the
// generator share (isaac/Model/Wgmma.h):
//
//   wgmma-type        f16 or bf16 operands, on a chip with wgmma (sm_90a)
//   warp-tile         wm a multiple of 64 (wgmma's m); wn from 16 to 256
//                     (an n of wgmma whose 16-bit rows fill a 32-byte
//                     swizzle atom); ml, nl multiples of wm, wn
//   accumulators      wm * wn / 128 f32 registers a thread, at most 128
//   k-depth           u a multiple of 16 (wgmma's k) times kl
//   stages            at least 3: tile t + stages - 2 is copied while the
//                     wgmmas of tile t - 1 may still read their stage
//   threads-per-block 128 * (ml/wm) * (nl/wn) * kl at most the chip's limit
//   vector-width      vec elements are 4, 8 or 16 bytes (a cp.async size)
//   shared-memory     every stage (and the KL partials) in the chip's
//                     dynamic shared memory per block
//   registers         the estimate within 255 per thread and the block's
//                     register file
//
// None depends on the layout: an operand stored M- or N-major gets a
// swizzle atom as wide as its warpgroup's extent (Wgmma.h), so every
// legal configuration builds in all four layouts.
//
//===----------------------------------------------------------------------===//

#include "LegalityRules.h"

#include "isaac/Model/Chip.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Wgmma.h"

#include <algorithm>
#include <sstream>

using namespace isaac;

bool isaac::isWgmmaType(DType ab) {
  return ab == DType::F16 || ab == DType::BF16;
}

int WgmmaOperandLayout::offset(int r, int col) const {
  int perAtom = atomBytes / esz, perChunk = 16 / esz;
  int block = col / perAtom, within = col % perAtom;
  int chunk = within / perChunk;
  int phys = chunk ^ ((r / (128 / atomBytes)) % (atomBytes / 16));
  return (block * blockBytes + r * atomBytes) / esz + phys * perChunk +
         within % perChunk;
}

WgmmaOperandLayout isaac::getWgmmaOperandLayout(const GemmConfig &c, DType ab,
                                                bool isB, bool contigIsK) {
  WgmmaOperandLayout l;
  l.contigIsK = contigIsK;
  l.esz = dtypeBytes(ab);
  int mn = isB ? c.nl : c.ml;
  int perGroup = isB ? c.wn : c.wm;
  l.rows = contigIsK ? mn : c.u;
  l.cols = contigIsK ? c.u : mn;
  // One wgmma reads U/KL (K-major; whole k16 steps) or the warpgroup's
  // extent (M or N major) along the contiguous dimension.
  int extent = contigIsK ? c.u : perGroup;
  l.atomBytes = std::max(32, std::min(128, extent * l.esz));
  l.blockBytes = l.rows * l.atomBytes;
  l.bytes = l.rows * l.cols * l.esz;
  return l;
}

static int alignUp(int x, int a) { return (x + a - 1) / a * a; }

WgmmaSharedLayout isaac::getWgmmaSharedLayout(const GemmConfig &c, DType ab) {
  WgmmaSharedLayout s;
  int esz = dtypeBytes(ab);
  // Each tile starts on a 1024-byte boundary (the 128-byte swizzle's
  // pattern repeats every 8 rows of 128 bytes; descriptors assume it).
  s.tileBytesA = alignUp(c.ml * c.u * esz, 1024);
  s.tileBytesB = alignUp(c.nl * c.u * esz, 1024);
  s.stageBytes = s.tileBytesA + s.tileBytesB;
  s.reduceBytes = (c.kl - 1) * c.ml * c.nl * 4;
  s.bytes = std::max(c.stages * s.stageBytes, s.reduceBytes);
  return s;
}

static int ceilDiv(int a, int b) { return (a + b - 1) / b; }

int isaac::wgmmaCopiesPerThreadA(const GemmConfig &c) {
  return ceilDiv(c.ml * c.u / c.vec, c.threads());
}
int isaac::wgmmaCopiesPerThreadB(const GemmConfig &c) {
  return ceilDiv(c.nl * c.u / c.vec, c.threads());
}

int isaac::estimateWgmmaRegisters(const GemmConfig &c, DType) {
  int acc = c.wm * c.wn / kWarpgroupThreads;
  int copies = wgmmaCopiesPerThreadA(c) + wgmmaCopiesPerThreadB(c);
  // Descriptors, indices, predicates, loop state and the epilogue.
  const int overhead = 40;
  return acc + 2 * copies + overhead;
}

void isaac::checkWgmmaRules(const GemmConfig &c, DType dtype,
                            const ChipLimits &chip, Report &r) {
  const ChipInfo *info = findChip(chip.chip);
  if (!isWgmmaType(dtype)) {
    r.fail("wgmma-type", [&] {
      return std::string("the wgmma family computes on f16 and bf16 "
                         "operands, not ") +
             dtypeName(dtype);
    });
    return;
  }
  if (!info || !info->hasWgmma) {
    r.fail("wgmma-type", [&] {
      return chip.chip + " has no wgmma (sm_90a only; use chip=sm_90a)";
    });
    return;
  }

  bool tilesOk = true;
  auto tileRule = [&](const char *rule, bool ok, auto message) {
    if (ok)
      return true;
    tilesOk = false;
    return r.fail(rule, message);
  };
  if (!tileRule("warp-tile", c.wm % kWgmmaM == 0, [&] {
        return "wm = " + std::to_string(c.wm) +
               " is not a multiple of wgmma's m = 64";
      }))
    return;
  if (!tileRule("warp-tile", c.wn >= 16, [&] {
        return "wn = " + std::to_string(c.wn) +
               " is below 16 (a warpgroup's columns fill a 32-byte swizzle "
               "atom)";
      }))
    return;
  if (!tileRule("warp-tile", c.ml % c.wm == 0, [&] {
        return "ml = " + std::to_string(c.ml) +
               " is not a multiple of wm = " + std::to_string(c.wm);
      }))
    return;
  if (!tileRule("warp-tile", c.nl % c.wn == 0, [&] {
        return "nl = " + std::to_string(c.nl) +
               " is not a multiple of wn = " + std::to_string(c.wn);
      }))
    return;
  if (!tileRule("k-depth", c.u % (kWgmmaK * c.kl) == 0, [&] {
        return "u = " + std::to_string(c.u) +
               " is not a multiple of wgmma's k times kl = 16 * " +
               std::to_string(c.kl);
      }))
    return;
  if (!tilesOk)
    return;

  int acc = c.wm * c.wn / kWarpgroupThreads;
  if (acc > 128 && !r.fail("accumulators", [&] {
        return "wm * wn / 128 = " + std::to_string(acc) +
               " f32 accumulators a thread; at most 128";
      }))
    return;
  if (c.stages < 3 && !r.fail("stages", [&] {
        return "stages = " + std::to_string(c.stages) +
               ": wgmma kernels keep one tile's wgmmas in flight while "
               "copying, at least 3 stages";
      }))
    return;

  int t = c.threads();
  if (t > chip.maxThreadsPerBlock && !r.fail("threads-per-block", [&] {
        std::ostringstream os;
        os << "128 * (ml/wm) * (nl/wn) * kl = 128 * " << wgmmaGroupsM(c)
           << " * " << wgmmaGroupsN(c) << " * " << c.kl << " = " << t
           << " threads per block; at most " << chip.maxThreadsPerBlock;
        return os.str();
      }))
    return;

  int vecBytes = c.vec * dtypeBytes(dtype);
  if (!isMmaCopyWidth(vecBytes) && !r.fail("vector-width", [&] {
        return "vec = " + std::to_string(c.vec) + " " + dtypeName(dtype) +
               " elements is " + std::to_string(vecBytes) +
               " bytes; cp.async copies 4, 8 or 16 bytes";
      }))
    return;

  WgmmaSharedLayout s = getWgmmaSharedLayout(c, dtype);
  if (s.bytes > info->maxDynamicSmemPerBlock && !r.fail("shared-memory", [&] {
        return "needs " + std::to_string(s.bytes) +
               " bytes of shared memory (" + std::to_string(c.stages) +
               " stages of " + std::to_string(s.stageBytes) + " bytes); " +
               chip.chip + " allows " +
               std::to_string(info->maxDynamicSmemPerBlock) +
               " bytes of dynamic shared memory per block";
      }))
    return;

  checkRegisterRule(estimateWgmmaRegisters(c, dtype), t, chip, r);
}

void isaac::forEachLegalWgmmaConfig(
    DType dtype, const ChipLimits &chip,
    const std::function<void(const GemmConfig &)> &visit) {
  if (!isWgmmaType(dtype))
    return;
  auto values = [](GemmParam p) {
    return familyParamValues(GemmFamily::Wgmma, p);
  };
  const std::vector<int> mls = values(GemmParam::ml),
                         nls = values(GemmParam::nl),
                         wms = values(GemmParam::wm),
                         wns = values(GemmParam::wn), us = values(GemmParam::u),
                         kls = values(GemmParam::kl),
                         kgs = values(GemmParam::kg),
                         vecs = values(GemmParam::vec),
                         stagess = values(GemmParam::stages);
  GemmConfig c;
  c.family = GemmFamily::Wgmma;
  // The structural rules prune the loops; isLegal has the last word.
  for (int ml : mls)
    for (int wm : wms) {
      if (wm > ml || ml % wm != 0 || wm % kWgmmaM != 0)
        continue;
      for (int nl : nls)
        for (int wn : wns) {
          if (wn > nl || nl % wn != 0 || wn < 16)
            continue;
          int groups = (ml / wm) * (nl / wn);
          for (int kl : kls) {
            if (kWarpgroupThreads * groups * kl > chip.maxThreadsPerBlock)
              break;
            for (int u : us) {
              if (u % (kWgmmaK * kl) != 0)
                continue;
              for (int vec : vecs)
                for (int stages : stagess) {
                  c.ml = ml;
                  c.nl = nl;
                  c.wm = wm;
                  c.wn = wn;
                  c.u = u;
                  c.kl = kl;
                  c.vec = vec;
                  c.stages = stages;
                  c.kg = 1;
                  if (!isLegal(c, dtype, chip))
                    continue;
                  for (int kg : kgs) {
                    c.kg = kg;
                    visit(c);
                  }
                }
            }
          }
        }
    }
}
