//===- WgmmaLegality.cpp - Legality rules of the wgmma family ------------===//
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
//   cluster           cm > 1 (a cluster of cm blocks along M sharing B):
//                     nl and u multiples of 8 * cm, so that each block's
//                     1/cm of B's rows (nl rows K-major, u rows N-major)
//                     is whole 8-row swizzle patterns
//   cluster-chip, cluster-k
//                     the warp-tiled families' cluster rules
//                     (lib/Model/MmaLegality.cpp: checkClusterRules)
//   threads-per-block 128 * ((ml/wm) * (nl/wn) * kl + ws) at most the chip's
//                     limit
//   vector-width      vec elements are 4, 8 or 16 bytes (a cp.async size)
//   shared-memory     every stage (and the KL and cluster partials), then
//                     the TMA loop's mbarriers, in the chip's dynamic
//                     shared memory per block
//   registers         the estimate within 255 per thread and the block's
//                     register file (ws = 1: the producer's threads
//                     too; where the computing threads need more than
//                     64K / threads, what setmaxnreg gives them,
//                     wgmmaRegisterSplit)
//   warp-specialized  ws = 1 (a producer warpgroup); with cm > 1 only
//                     for pt = 0 (the blocks of a cluster share B's
//                     stages, so they walk one output tile's K loop each)
//   persistent        pt > 0 (blocks that loop over output tiles) with
//                     ws = 1 (its producer fetches the next tile during
//                     the epilogue), kg = 1 and kl = 1 (the split-K
//                     protocol and the KL partials are per tile and
//                     shared-memory bound); ping-pong (pt = 2) with one
//                     warpgroup a tile (wm = ml, wn = nl)
//
// None depends on the layout: an operand stored M- or N-major gets a
// swizzle atom as wide as its warpgroup's extent (Wgmma.h), so every
// legal configuration builds in all four layouts.
//
//===----------------------------------------------------------------------===//

#include "LegalityRules.h"

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/Chip.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Wgmma.h"

#include <algorithm>

using namespace isaac;

int isaac::estimateWgmmaRegisters(const GemmConfig &c, DType) {
  int acc = c.wm * c.wn / kWarpgroupThreads;
  // A warp-specialized kernel's computing threads copy only on its
  // cp.async path, but ptxas allocates for both paths (without the copies'
  // share, a 128x256 block of two 64x256 warpgroups spilled 0.8 KB).
  int copies = mmaCopiesPerThreadA(c) + mmaCopiesPerThreadB(c);
  // Descriptors, indices, predicates, loop state and the epilogue.
  const int overhead = 40;
  return acc + 2 * copies + overhead;
}

/// The producer warpgroup's registers after its setmaxnreg.dec (CUTLASS's
/// warp-specialized kernels keep 40): its thread's loop state, tile
/// coordinates and the tensor maps' addresses.
static constexpr int kProducerRegisters = 40;
/// The most setmaxnreg gives a computing thread (a multiple of 8 below the
/// 255 registers a thread addresses).
static constexpr int kMaxConsumerRegisters = 240;

/// The registers a thread may use for `threads` threads to share the
/// register file: at most the chip's per-thread limit, in setmaxnreg's
/// (and .maxnreg's allocation's) multiples of 8.
static int registerBound(int threads, const ChipLimits &chip) {
  return std::min(chip.maxRegsPerThread, chip.regsPerBlock / threads) / 8 * 8;
}

WgmmaRegisterSplit isaac::wgmmaRegisterSplit(const GemmConfig &c, DType ab,
                                             const ChipLimits &chip) {
  WgmmaRegisterSplit s;
  if (!c.ws)
    return s;
  // ptxas's bound for a block of threads().
  int bound = registerBound(c.threads(), chip);
  if (estimateWgmmaRegisters(c, ab) <= bound)
    return s;
  s.kernel = bound;
  s.producer = kProducerRegisters;
  s.consumer =
      std::min(kMaxConsumerRegisters,
               (c.threads() * bound - kWarpgroupThreads * kProducerRegisters) /
                   c.computeThreads() / 8 * 8);
  return s;
}

int isaac::persistentRegisterBound(const GemmConfig &c, DType ab,
                                   const ChipLimits &chip) {
  if (!c.pt || wgmmaRegisterSplit(c, ab, chip).kernel)
    return 0;
  int blocks = residentBlocksPerSM(c, ab, chip);
  if (blocks < 2)
    return 0;
  return registerBound(blocks * c.threads(), chip);
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
  if (c.cm > 1 && (c.nl % (8 * c.cm) != 0 || c.u % (8 * c.cm) != 0) &&
      !r.fail("cluster", [&] {
        return "cm = " + std::to_string(c.cm) +
               " needs nl = " + std::to_string(c.nl) +
               " and u = " + std::to_string(c.u) +
               " multiples of 8 * cm = " + std::to_string(8 * c.cm) +
               " (each block of the cluster copies 1/cm of B's rows, whole "
               "8-row swizzle patterns)";
      }))
    return;

  if (c.ws && c.cm > 1 && c.pt && !r.fail("warp-specialized", [&] {
        return "ws = 1 with cm = " + std::to_string(c.cm) +
               " needs pt = 0, not pt = " + std::to_string(c.pt) +
               " (a cluster's blocks share each stage's B tile, so they "
               "must walk the same output tiles' K loops in step)";
      }))
    return;

  const std::string pt = "pt = " + std::to_string(c.pt);
  if (c.pt && (!c.ws || c.kg != 1 || c.kl != 1) && !r.fail("persistent", [&] {
        if (!c.ws)
          return pt + " needs ws = 1 (the producer warpgroup fetches the "
                      "next tile while the others store this one)";
        return pt +
               " needs kg = 1 and kl = 1, not kg = " + std::to_string(c.kg) +
               ", kl = " + std::to_string(c.kl) +
               " (the blocks' tiles change; the split-K protocol is per "
               "tile, and the KL partials would use stages the producer "
               "is refilling)";
      }))
    return;
  if (c.pt == 2 && wgmmaGroupsM(c) * wgmmaGroupsN(c) != 1 &&
      !r.fail("persistent", [&] {
        return "pt = 2 (ping-pong) needs one warpgroup a tile, wm = ml and "
               "wn = nl, not " +
               std::to_string(wgmmaGroupsM(c) * wgmmaGroupsN(c)) +
               " (each of its two warpgroups computes a tile of its own)";
      }))
    return;

  if (!checkClusterRules(c, chip, info, r))
    return;

  // With ws = 1 the producer's threads count, and the computing ones may
  // take the producer's registers (wgmmaRegisterSplit).
  int registers = estimateWgmmaRegisters(c, dtype);
  if (c.ws) {
    WgmmaRegisterSplit split = wgmmaRegisterSplit(c, dtype, chip);
    if (split.kernel && registers > split.consumer && !r.fail("registers", [&] {
          return "ws = 1: the computing threads need about " +
                 std::to_string(registers) + " registers; with the " +
                 "producer's given back (setmaxnreg) they get " +
                 std::to_string(split.consumer);
        }))
      return;
    if (split.kernel)
      registers = split.kernel;
  }
  checkWarpTiledResources(c, dtype, chip, info, kWarpgroupThreads,
                          wgmmaGroupsM(c), wgmmaGroupsN(c), registers, r);
}

void isaac::forEachLegalWgmmaConfig(
    DType dtype, const ChipLimits &chip,
    const std::function<void(const GemmConfig &)> &visit) {
  if (!isWgmmaType(dtype))
    return;
  forEachWarpTiledConfig(
      GemmFamily::Wgmma, dtype, chip, kWarpgroupThreads,
      [](int wm) { return wm % kWgmmaM == 0; }, [](int wn) { return wn >= 16; },
      kWgmmaK, visit);
}
