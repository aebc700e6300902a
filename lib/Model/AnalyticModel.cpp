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
// configurations sensibly where no trained model exists. The mma family has
// a model of its own (mmaCost below): tensor-core rates instead of FMA
// lanes (per operand type: FP16, TF32, DMMA), fragment-load traffic, and
// the latency its cp.async stages hide.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/AnalyticModel.h"

#include "isaac/Model/Chip.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Wgmma.h"

#include <algorithm>
#include <cmath>
#include <optional>

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

/// Hopper's datasheet rate is wgmma's; warp-level mma.sync issues at about
/// 60% of it (an estimate, to be replaced by measurements).
static constexpr double kHopperMmaSyncShare = 0.6;

double isaac::wgmmaTflops(const ChipLimits &chip, DType ab) {
  return mmaSyncTflops(chip, ab) / kHopperMmaSyncShare;
}

double isaac::mmaSyncTflops(const ChipLimits &chip, DType ab) {
  const ChipInfo *info = findChip(chip.chip);
  if (ab == DType::F64) {
    // DMMA (mma.sync .f64) at the datasheet's FP64 tensor rate; a chip
    // without fast DMMA runs it at about its FP64 rate (1/64 of FP32 on
    // the consumer parts where the table does not know it).
    double peak = info ? info->peakF64TensorTflops : 0;
    if (peak <= 0 && info)
      peak = info->peakF64Tflops > 0 ? info->peakF64Tflops
                                     : info->peakF32Tflops / 64;
    return peak > 0 ? peak : 1;
  }
  double peak = info ? info->peakF16TensorTflops : 0;
  // Unknown rate: dense FP16 tensor throughput is 8x (Ampere and later
  // consumer parts) to 16x (A100, H100) the FP32 rate; take the lower.
  if (peak <= 0 && info && info->peakF32Tflops > 0)
    peak = 8 * info->peakF32Tflops;
  if (peak <= 0)
    peak = 989;
  if (chip.chip.rfind("sm_90", 0) == 0)
    peak *= kHopperMmaSyncShare;
  // Dense TF32 runs at half the FP16 rate (A100, H100 datasheets).
  return ab == DType::F32 ? peak / 2 : peak;
}

/// Blocks of `t` threads, each thread of about `regs` registers (allocated
/// in units of 8) and `smemBytes` of shared memory (plus the 1 KiB the
/// driver reserves), resident on one SM at a time; 0 where one does not
/// fit.
static int blocksPerSM(const ChipPerf &p, const ChipLimits &chip, int t,
                       int regs, int smemBytes) {
  regs = ((regs + 7) / 8) * 8;
  int smem = smemBytes + 1024;
  return std::min({p.maxThreadsPerSM / t, p.maxBlocksPerSM, p.smemPerSM / smem,
                   chip.regsPerBlock / (regs * t)});
}

int isaac::residentBlocksPerSM(const GemmConfig &c, DType ab,
                               const ChipLimits &chip) {
  int regs = c.family == GemmFamily::Wgmma ? estimateWgmmaRegisters(c, ab)
                                           : estimateMmaRegisters(c, ab);
  if (int start = wgmmaRegisterSplit(c, ab, chip).kernel)
    regs = start;
  return blocksPerSM(getChipPerf(chip), chip, c.threads(), regs,
                     getMmaSharedLayout(c, ab).bytes);
}

/// The analytic model of the mma family: per stage of depth U, a block
/// spends the larger of its tensor-core time, its shared-memory time
/// (ldmatrix reads and cp.async writes) and its issue time; `stages - 1`
/// tiles in flight must cover the global latency.
static double mmaCost(const GemmShape &s, const GemmConfig &c,
                      const ChipLimits &chip) {
  ChipPerf p = getChipPerf(chip);
  const double esz = dtypeBytes(s.dtype);
  const double cBytesPerElem = dtypeBytes(s.cType);
  // The accumulator, KL and split-K partial sums: f64 for f64, else f32.
  const double accBytes = s.dtype == DType::F64 ? 8 : 4;
  int sms = std::max(chip.numSMs, 1);
  // wgmma runs at the chip's datasheet tensor rate (mma.sync below it on
  // Hopper, mmaSyncTflops).
  const bool wgmma = c.family == GemmFamily::Wgmma;
  double tensorFlopsPerClk =
      (wgmma ? wgmmaTflops(chip, s.dtype) : mmaSyncTflops(chip, s.dtype)) *
      1e12 / (sms * p.clockHz);
  std::optional<MmaInstr> instr = mmaInstruction(s.dtype, chip.chip);
  if (!instr)
    return INFINITY;
  const int kStep = instr->k;

  // Occupancy.
  int t = c.threads();
  int perSM = residentBlocksPerSM(c, s.dtype, chip);
  if (perSM <= 0)
    return INFINITY;
  int64_t kSlice = c.sliceDepth(s.k);
  int64_t blocks = ceilDiv(s.m, c.ml) * ceilDiv(s.n, c.nl) * s.batch * c.kg;
  int64_t waves = ceilDiv(blocks, int64_t(sms) * perSM);
  double resident = std::min<double>(perSM, double(blocks) / sms);
  resident = std::max(resident, 1.0);

  // One stage of one block, in cycles of an SM it would have alone.
  double warps = t / 32.0;
  double mmaClk = 2.0 * c.ml * c.nl * c.u / tensorFlopsPerClk;
  // Each SM sub-partition (4) needs a warp issuing mma to keep its tensor
  // core busy.
  mmaClk /= std::min(1.0, resident * warps / 4.0);
  double ldsBytes = double(c.ml) * c.nl * c.u * esz * (1.0 / c.wm + 1.0 / c.wn);
  double cpBytes = double(c.ml + c.nl) * c.u * esz;
  double smemClk = (ldsBytes + cpBytes) / p.smemBytesPerClkPerSM;
  // Warp instructions: the mma.syncs, ldmatrix (one per 16x16 of A or B
  // per warp and k-step), each copy with its address (about 8 per
  // thread), loop and barrier; 4 schedulers issue one per cycle each. They
  // overlap the tensor cores and shared memory only in part, and every
  // stage ends at a barrier.
  double ksteps = double(c.u) / kStep;
  double mmas = double(c.ml) / instr->m * c.nl / instr->n * ksteps;
  // wgmma: one instruction per 64 x WN tile and k-step, with its two
  // descriptors; the operands never pass through registers.
  if (wgmma)
    mmas = double(c.ml) / kWgmmaM * c.nl / c.wn * ksteps * 4.0;
  double ldmatrix =
      (double(c.nl) / c.wn * c.ml / 16.0 + double(c.ml) / c.wm * c.nl / 16.0) *
      ksteps;
  // TF32 fragments stored M- or N-contiguous take scalar loads (there is no
  // 32-bit ldmatrix.trans), and every fragment element a rounding.
  if (s.dtype == DType::F32)
    ldmatrix *= 4;
  // f64: one LDS.64 per 8 rows of A and 8 columns of B per warp and 4 of
  // K (whichever the instruction), with its address.
  if (s.dtype == DType::F64)
    ldmatrix =
        (double(c.nl) / c.wn * c.ml / 8.0 + double(c.ml) / c.wm * c.nl / 8.0) *
        (double(c.u) / kF64SliceK) * 2.0;
  if (wgmma)
    ldmatrix = 0;
  double copies = double(c.ml + c.nl) * c.u / c.vec / 32.0 * 8.0;
  double issueClk = (mmas + ldmatrix + copies + warps * 20.0) / 4.0;
  const double barrierClk = 40;
  double stageClk = std::max(mmaClk, smemClk) + 0.5 * issueClk + barrierClk;
  // The SM runs `resident` blocks; the stages in flight hide the latency,
  // all but a tenth of it (its variation under load), which deeper
  // pipelines also shrink.
  double hide = p.globalLatencyClk / std::max(1, c.stages - 1);
  double roundClk = std::max(resident * stageClk, hide) + 0.1 * hide;
  double kTiles = double(kSlice) / c.u;
  double epilogueClk = double(c.ml) * c.nl * accBytes / 64.0; // values out
  double compute =
      waves *
      (kTiles * roundClk + p.globalLatencyClk + resident * epilogueClk) /
      p.clockHz;

  // Memory: every block streams its A and B panels through L2; DRAM sees
  // each operand once and C once (twice with beta).
  double l2Bytes = double(blocks) * (c.ml + c.nl) * kSlice * esz;
  double cBytes = double(s.m) * s.n * s.batch * cBytesPerElem;
  double dramBytes =
      (double(s.m) * s.k + double(s.k) * s.n) * s.batch * esz + 2 * cBytes;
  double memory =
      std::max(dramBytes / p.dramBytesPerSec, l2Bytes / p.l2BytesPerSec);

  double extra = p.launchSeconds;
  if (c.kg > 1) {
    // Partial sums (f32; f64 for f64) of KG slices through L2 (atomics, or
    // the workspace and its reducer for a 16-bit C), and a second launch.
    double partial = double(s.m) * s.n * s.batch * accBytes;
    extra += p.launchSeconds + c.kg * partial / p.l2BytesPerSec +
             2 * cBytes / p.dramBytesPerSec;
  }
  if (c.kl > 1)
    extra += waves * (c.kl - 1) * double(c.ml) * c.nl * accBytes /
             p.smemBytesPerClkPerSM * 2 / p.clockHz;
  return std::max(compute, memory) + extra;
}

double isaac::analyticCost(const GemmShape &s, const GemmConfig &c,
                           const ChipLimits &chip) {
  if (c.family == GemmFamily::Mma || c.family == GemmFamily::Wgmma)
    return mmaCost(s, c, chip);
  ChipPerf p = getChipPerf(chip);
  const double esz = dtypeBytes(s.dtype);
  const double fmaRate =
      s.dtype == DType::F32 ? p.fmaPerClkPerSMf32 : p.fmaPerClkPerSMf64;

  // Occupancy.
  int t = c.threads();
  int perSM = blocksPerSM(p, chip, t, estimateRegisters(c, s.dtype),
                          getSharedLayout(c, s.dtype).bytes);
  if (perSM <= 0)
    return INFINITY;

  int64_t kSlice = c.sliceDepth(s.k);
  int64_t blocks = ceilDiv(s.m, c.ml) * ceilDiv(s.n, c.nl) * s.batch * c.kg;
  int64_t waves = ceilDiv(blocks, int64_t(chip.numSMs) * perSM);
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
