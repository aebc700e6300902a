//===- AnalyticModel.cpp - Fallback cost model ----------------------------===//
//
// A wave-level roofline with occupancy, after ISAAC §5.2 eqs. (2)-(3):
//
//   blocks/SM  = min over threads, shared memory, registers, block slots
//   waves      = ceil(blocks / (SMs * blocks/SM))
//   tile time  = max(global latency, blocks/SM * issue cycles of one tile)
//                where FMA cycles are inflated when the shared-memory
//                fragment loads or too little ILP x occupancy limit issue,
//                plus the issue cost of the staging loads (narrow loads
//                cost more instructions)
//   compute    = waves * K-tiles per block * tile time / clock
//   memory     = max(DRAM bytes / DRAM bw, L2 bytes / L2 bw)
//   time       = max(compute, memory) + launches + split-K traffic
//
// Its constants are H100 figures (docs/tuning.md); it only has to rank
// configurations sensibly where no trained model exists.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/AnalyticModel.h"

#include <algorithm>
#include <cmath>

using namespace isaac;

ChipPerf isaac::getChipPerf(const ChipLimits &chip) {
  ChipPerf p;
  if (chip.chip == "sm_80") {
    p.clockHz = 1.41e9;
    p.dramBytesPerSec = 1.9e12;
    p.l2BytesPerSec = 5.0e12;
    p.smemPerSM = 164 * 1024;
  } else if (chip.chip == "sm_86" || chip.chip == "sm_89" ||
             chip.chip == "sm_87") {
    p.clockHz = 1.7e9;
    p.dramBytesPerSec = 0.9e12;
    p.l2BytesPerSec = 3.0e12;
    p.smemPerSM = 100 * 1024;
    p.maxThreadsPerSM = 1536;
    p.fmaPerClkPerSMf64 = 2;
  }
  return p;
}

double isaac::analyticCost(const GemmShape &s, const GemmConfig &c,
                           const ChipLimits &chip) {
  ChipPerf p = getChipPerf(chip);
  const double esz = dtypeBytes(s.dtype);
  const double fmaRate =
      s.dtype == DType::F32 ? p.fmaPerClkPerSMf32 : p.fmaPerClkPerSMf64;
  auto cdiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };

  // Occupancy.
  int t = c.threads();
  int regs = ((estimateRegisters(c, s.dtype) + 7) / 8) * 8;
  int smem = getSharedLayout(c, s.dtype).bytes + 1024; // + reserved
  int perSM = std::min({p.maxThreadsPerSM / t, p.maxBlocksPerSM,
                        p.smemPerSM / smem, chip.regsPerBlock / (regs * t)});
  if (perSM <= 0)
    return INFINITY;

  int64_t kSlice = cdiv(cdiv(s.k, c.kg), c.u) * c.u;
  int64_t blocks = cdiv(s.m, c.ml) * cdiv(s.n, c.nl) * s.batch * c.kg;
  int64_t waves = cdiv(blocks, int64_t(chip.numSMs) * perSM);
  // Blocks resident per SM in the (typical) full wave.
  double resident = std::min<double>(perSM, double(blocks) / chip.numSMs);
  resident = std::max(resident, 1.0);

  // Cycles of FMA issue for one staged tile of one block.
  double fmas = double(c.ml) * c.nl * c.u;
  double smemBytesPerK = (c.ms + c.ns) * esz; // per thread per k
  double smemFactor = std::max(1.0, fmaRate * smemBytesPerK / (c.ms * c.ns) /
                                        p.smemBytesPerClkPerSM);
  double warps = resident * t / 32.0;
  double ilp = std::min(c.ms * c.ns * c.ks, 8);
  double issueFactor = std::max(1.0, 32.0 / (warps * ilp));
  // Issue slots of the staging code: each global load and its shared
  // stores cost about six instructions (addresses, predicates) per thread,
  // competing with the FMAs for the SM's 128 lanes.
  double loadIssue =
      double(t) * (loadsPerThreadA(c) + loadsPerThreadB(c)) * 6.0 / 128.0;
  double tileCycles = fmas / fmaRate * smemFactor * issueFactor + loadIssue +
                      40.0 /* barrier + loop */;
  double waveTileCycles = std::max(p.globalLatencyClk, resident * tileCycles);
  double kTiles = double(kSlice) / c.u;
  double compute = waves * kTiles * waveTileCycles / p.clockHz;

  // Memory: every block streams its A and B panels through L2; DRAM sees
  // each operand once plus C.
  double l2Bytes = double(blocks) * (c.ml + c.nl) * kSlice * esz;
  double cBytes = double(s.m) * s.n * s.batch * esz;
  double dramBytes =
      (double(s.m) * s.k + double(s.k) * s.n) * s.batch * esz + 2 * cBytes;
  double memory =
      std::max(dramBytes / p.dramBytesPerSec, l2Bytes / p.l2BytesPerSec);

  double extra = p.launchSeconds;
  if (c.kg > 1) {
    // Pre-scale of C, then KG atomic partial tiles through L2.
    extra += p.launchSeconds + 2 * cBytes / p.dramBytesPerSec;
    extra += c.kg * cBytes / p.l2BytesPerSec;
  }
  if (c.kl > 1)
    extra += waves * (c.kl - 1) * double(c.ml) * c.nl * esz /
             p.smemBytesPerClkPerSM * 2 / p.clockHz;
  return std::max(compute, memory) + extra;
}
