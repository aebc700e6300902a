//===- MmaLegality.cpp - Legality rules of the mma family -----------------===//
//
// The rules a configuration of the mma family (warp-level mma.sync
// kernels, lib/Transforms/MmaKernelBuilder.cpp) must follow beyond the
// power-of-two and range rules of GemmParams.def, and the geometry they and
// the generator share (isaac/Model/Mma.h):
//
//   mma-type          the operand type has an mma.sync shape on the chip
//                     (f16, bf16: m16n8k16; f32, multiplied in TF32:
//                     m16n8k8; f64: m16n8k8 on sm_90+, m8n8k4 on sm_80)
//   warp-tile         wm, wn multiples of the instruction's m and n, wn at
//                     most 128; ml, nl multiples of wm, wn
//   k-depth           u a multiple of the instruction's k times kl
//   threads-per-block 32 * (ml/wm) * (nl/wn) * kl at most the chip's limit
//   vector-width      vec elements are 4, 8 or 16 bytes (a cp.async size;
//                     f64: vec 1 or 2)
//   shared-memory     every stage (and the KL partials) in the chip's
//                     dynamic shared memory per block
//   registers         the estimate within 255 per thread and the block's
//                     register file
//   cluster-chip      kc = 1 (or wgmma's cm > 1): a chip with clusters
//   cluster-k         kc = 1 (the KG slices of a tile as one cluster
//                     along z): KG from 2 to 8 (a portable cluster's
//                     blocks), no cluster along M (cm = 1)
//
// The cluster rules are both warp-tiled families' (checkClusterRules).
//
//===----------------------------------------------------------------------===//

#include "LegalityRules.h"

#include "isaac/Model/Chip.h"
#include "isaac/Model/Mma.h"

#include <algorithm>
#include <sstream>

using namespace isaac;

std::optional<MmaInstr> isaac::mmaInstruction(DType ab,
                                              const std::string &chip) {
  switch (ab) {
  case DType::F16:
  case DType::BF16:
    return MmaInstr{16, 8, 16};
  case DType::F32: // TF32
    return MmaInstr{16, 8, 8};
  case DType::F64: {
    // m16n8k8 rather than k16: the same rate (66 TFLOP/s on an H100,
    // docs/perf.md) with half the K depth per step, so U = 8 stays legal.
    const ChipInfo *info = findChip(chip);
    if (info && info->hasMmaF64M16)
      return MmaInstr{16, 8, 8};
    return MmaInstr{8, 8, 4};
  }
  default:
    return std::nullopt;
  }
}

bool isaac::isMmaCopyWidth(int bytes) {
  return bytes == 4 || bytes == 8 || bytes == 16;
}

bool isaac::hasFastF64Mma(const ChipLimits &chip) {
  const ChipInfo *info = findChip(chip.chip);
  return info && info->hasMmaSync && info->peakF64Tflops > 0 &&
         info->peakF64TensorTflops > info->peakF64Tflops;
}

GemmFamily isaac::searchFamily(DType ab, bool tf32, const ChipLimits &chip) {
  switch (ab) {
  case DType::F16:
  case DType::BF16:
    // Not wgmma, even on sm_90a: the analytic model ranks that family
    // poorly (docs/perf.md, "f16 and bf16 on wgmma"); a configuration in
    // the input or the tuning cache may pick it.
    return GemmFamily::Mma;
  case DType::F32:
    return tf32 ? GemmFamily::Mma : GemmFamily::Simt;
  case DType::F64:
    return hasFastF64Mma(chip) ? GemmFamily::Mma : GemmFamily::Simt;
  default:
    return GemmFamily::Simt;
  }
}

/// Bytes of one accumulator (and KL partial sum): f64 for f64, else f32.
static int accumulatorBytes(DType ab) { return ab == DType::F64 ? 8 : 4; }

MmaSharedLayout isaac::getMmaSharedLayout(const GemmConfig &c, DType ab) {
  MmaSharedLayout s;
  int esz = dtypeBytes(ab);
  int align = c.family == GemmFamily::Wgmma ? 1024 : 1;
  auto alignUp = [&](int x) { return (x + align - 1) / align * align; };
  s.tileBytesA = alignUp(c.ml * c.u * esz);
  s.tileBytesB = alignUp(c.nl * c.u * esz);
  s.stageBytes = s.tileBytesA + s.tileBytesB;
  // KL partials of groups 1 .. KL-1, then (kc) the tile's sums that the
  // other blocks of its cluster read.
  int tileSums = c.ml * c.nl * accumulatorBytes(ab);
  s.clusterSumsOffset = (c.kl - 1) * tileSums;
  s.reduceBytes = s.clusterSumsOffset + c.kc * tileSums;
  s.barrierOffset = std::max(c.stages * s.stageBytes, s.reduceBytes);
  if (c.family == GemmFamily::Wgmma)
    s.barrierBytes = 2 * 8 * c.stages;
  s.bytes = s.barrierOffset + s.barrierBytes;
  if (c.pt) {
    s.stagingOffset = (s.bytes + 127) / 128 * 128;
    s.stagingBytes = c.computeThreads() / 32 * kStagingWarpBytes;
    s.bytes = s.stagingOffset + s.stagingBytes;
  }
  return s;
}

MmaSwizzle isaac::getMmaSwizzle(int cols, DType ab) {
  MmaSwizzle s;
  s.chunks = cols * dtypeBytes(ab) / 16;
  s.rowsPerGroup = std::max(1, 8 / s.chunks);
  if (ab == DType::F64) {
    // Pairs of chunks: as many of the four 32-byte quarters of a 128-byte
    // line as the row has pairs.
    s.groups = std::max(1, std::min(4, s.chunks / 2));
    s.shift = 1;
  } else {
    s.groups = std::min(s.chunks, 8);
    s.shift = 0;
  }
  return s;
}

int isaac::mmaSwizzledOffset(const MmaSwizzle &s, int cols, DType ab, int r,
                             int col) {
  int perChunk = 16 / dtypeBytes(ab);
  int chunk = col / perChunk;
  int phys = chunk ^ (((r / s.rowsPerGroup) % s.groups) << s.shift);
  return r * cols + phys * perChunk + col % perChunk;
}

int isaac::mmaSharedMemoryBytes(const GemmConfig &c, DType dtype) {
  return getMmaSharedLayout(c, dtype).bytes;
}

int isaac::mmaCopiesPerThreadA(const GemmConfig &c) {
  return static_cast<int>(ceilDiv(c.ml * c.u / c.vec, c.computeThreads()));
}
int isaac::mmaCopiesPerThreadB(const GemmConfig &c) {
  return static_cast<int>(ceilDiv(c.nl * c.u / c.vec, c.computeThreads()));
}

int isaac::estimateMmaRegisters(const GemmConfig &c, DType ab) {
  int copies = mmaCopiesPerThreadA(c) + mmaCopiesPerThreadB(c);
  if (ab == DType::F64) {
    // Two f64 accumulators per lane and 8x8 of the warp tile, one f64 of A
    // per 8 rows and of B per 8 columns for each 4 of K (m8n8k4 takes one
    // such slice per instruction, m16n8k8 two); two registers each. ptxas
    // keeps the next slices' 64-bit fragment addresses live, and each copy
    // its 64-bit source and shared addresses (hoisted out of the main loop)
    // and its predicate. Calibrated on ptxas -v (sm_90) for 80 m8n8k4
    // configurations (70 random of large warp tiles, the first Table 4
    // top-1s) and checked on 454 m16n8k8 ones (300 random, 154 of warp
    // tiles of 1024 elements or more): only one configuration estimated
    // within 255 spills, 8 bytes at 255 registers (docs/tuning.md, "The
    // mma family's register estimate").
    int acc = c.wm * c.wn / 16;
    int frag = (c.wm / 8 + c.wn / 8) * 2;
    int slices = std::min(c.u / (kF64SliceK * c.kl), 8);
    return acc + frag + 4 * slices + 5 * copies + 60;
  }
  // Two 16-bit operands or one TF32 per fragment register: the same count
  // for one instruction's fragments.
  int acc = c.wm * c.wn / 32;
  int frag = (c.wm / 16) * 4 + (c.wn / 8) * 2;
  // Indices, swizzled offsets, predicates, loop state and the epilogue.
  const int overhead = 40;
  return acc + frag + 2 * copies + overhead;
}

bool isaac::checkClusterRules(const GemmConfig &c, const ChipLimits &chip,
                              const ChipInfo *info, Report &r) {
  if (c.cm == 1 && !c.kc)
    return true;
  if (info && !info->hasClusters && !r.fail("cluster-chip", [&] {
        return chip.chip + " launches no thread-block clusters (cm > 1 or "
                           "kc = 1 need sm_90 or later)";
      }))
    return false;
  if (c.kc && (c.kg < 2 || c.kg > 8 || c.cm > 1) && !r.fail("cluster-k", [&] {
        return "kc = 1 needs kg from 2 to 8 (the blocks of a portable "
               "cluster) and cm = 1, not kg = " +
               std::to_string(c.kg) + ", cm = " + std::to_string(c.cm);
      }))
    return false;
  return true;
}

void isaac::checkMmaRules(const GemmConfig &c, DType dtype,
                          const ChipLimits &chip, Report &r) {
  const ChipInfo *info = findChip(chip.chip);
  std::optional<MmaInstr> instr = mmaInstruction(dtype, chip.chip);
  if (!instr) {
    r.fail("mma-type", [&] {
      return std::string("the mma family has no instruction for ") +
             dtypeName(dtype) + " operands (f16, bf16, f64; f32 as TF32)";
    });
    return;
  }
  if (info && !info->hasMmaSync) {
    r.fail("mma-type", [&] { return chip.chip + " has no mma.sync"; });
    return;
  }

  bool tilesOk = true;
  auto tileRule = [&](bool ok, auto message) {
    if (ok)
      return true;
    tilesOk = false;
    return r.fail("warp-tile", message);
  };
  if (!tileRule(c.wm % instr->m == 0, [&] {
        return "wm = " + std::to_string(c.wm) +
               " is not a multiple of the instruction's m = " +
               std::to_string(instr->m);
      }))
    return;
  if (!tileRule(c.wn % instr->n == 0, [&] {
        return "wn = " + std::to_string(c.wn) +
               " is not a multiple of the instruction's n = " +
               std::to_string(instr->n);
      }))
    return;
  // wn's range reaches 256 for the wgmma family; a warp holds at most 128
  // columns.
  if (!tileRule(c.wn <= 128, [&] {
        return "wn = " + std::to_string(c.wn) +
               " is above 128 columns per warp";
      }))
    return;
  if (!tileRule(c.ml % c.wm == 0, [&] {
        return "ml = " + std::to_string(c.ml) +
               " is not a multiple of wm = " + std::to_string(c.wm);
      }))
    return;
  if (!tileRule(c.nl % c.wn == 0, [&] {
        return "nl = " + std::to_string(c.nl) +
               " is not a multiple of wn = " + std::to_string(c.wn);
      }))
    return;
  if (c.u % (instr->k * c.kl) != 0) {
    tilesOk = false;
    if (!r.fail("k-depth", [&] {
          return "u = " + std::to_string(c.u) +
                 " is not a multiple of the instruction's k times kl = " +
                 std::to_string(instr->k) + " * " + std::to_string(c.kl);
        }))
      return;
  }
  // The resource rules divide by the quantities above.
  if (!tilesOk)
    return;

  if (!checkClusterRules(c, chip, info, r))
    return;
  checkWarpTiledResources(c, dtype, chip, info, /*tileThreads=*/32,
                          mmaWarpsM(c), mmaWarpsN(c),
                          estimateMmaRegisters(c, dtype), r);
}

void isaac::checkWarpTiledResources(const GemmConfig &c, DType dtype,
                                    const ChipLimits &chip,
                                    const ChipInfo *info, int tileThreads,
                                    int tilesM, int tilesN, int registers,
                                    Report &r) {
  int t = c.threads();
  if (t > chip.maxThreadsPerBlock && !r.fail("threads-per-block", [&] {
        std::ostringstream os;
        os << tileThreads << " * (ml/wm) * (nl/wn) * kl = " << tileThreads
           << " * " << tilesM << " * " << tilesN << " * " << c.kl << " = " << t
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

  MmaSharedLayout s = getMmaSharedLayout(c, dtype);
  int smemLimit = info ? info->maxDynamicSmemPerBlock : chip.staticSmemPerBlock;
  if (s.bytes > smemLimit && !r.fail("shared-memory", [&] {
        return "needs " + std::to_string(s.bytes) +
               " bytes of shared memory (" + std::to_string(c.stages) +
               " stages of " + std::to_string(s.stageBytes) + " bytes" +
               (s.barrierBytes
                    ? (s.stagingBytes ? ", " : " and ") +
                          std::to_string(s.barrierBytes) + " bytes of mbarriers"
                    : std::string()) +
               (s.stagingBytes ? " and " + std::to_string(s.stagingBytes) +
                                     " bytes of epilogue staging"
                               : std::string()) +
               "); " + chip.chip + " allows " + std::to_string(smemLimit) +
               " bytes of dynamic shared memory per block";
      }))
    return;

  checkRegisterRule(registers, t, chip, r);
}

void isaac::forEachWarpTiledConfig(
    GemmFamily family, DType dtype, const ChipLimits &chip, int threadsPerTile,
    const std::function<bool(int)> &rowTileOk,
    const std::function<bool(int)> &colTileOk, int kStep,
    const std::function<void(const GemmConfig &)> &visit) {
  auto values = [&](GemmParam p) { return familyParamValues(family, p); };
  const std::vector<int> mls = values(GemmParam::ml),
                         nls = values(GemmParam::nl),
                         wms = values(GemmParam::wm),
                         wns = values(GemmParam::wn), us = values(GemmParam::u),
                         kls = values(GemmParam::kl),
                         kgs = values(GemmParam::kg),
                         vecs = values(GemmParam::vec),
                         stagess = values(GemmParam::stages);
  GemmConfig c;
  c.family = family;
  // The structural rules prune the loops; checkGemmLegality (isLegal) has
  // the last word on every candidate.
  for (int ml : mls)
    for (int wm : wms) {
      if (wm > ml || ml % wm != 0 || !rowTileOk(wm))
        continue;
      for (int nl : nls)
        for (int wn : wns) {
          if (wn > nl || nl % wn != 0 || !colTileOk(wn))
            continue;
          int tiles = (ml / wm) * (nl / wn);
          for (int kl : kls) {
            if (threadsPerTile * tiles * kl > chip.maxThreadsPerBlock)
              break;
            for (int u : us) {
              if (u % (kStep * kl) != 0)
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
                  // KG enters only the range rule: one check for all.
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

void isaac::forEachLegalMmaConfig(
    DType dtype, const ChipLimits &chip,
    const std::function<void(const GemmConfig &)> &visit) {
  std::optional<MmaInstr> instr = mmaInstruction(dtype, chip.chip);
  if (!instr)
    return;
  forEachWarpTiledConfig(
      GemmFamily::Mma, dtype, chip, /*threadsPerTile=*/32,
      [&](int wm) { return wm % instr->m == 0; },
      [&](int wn) { return wn % instr->n == 0 && wn <= 128; }, instr->k, visit);
}
