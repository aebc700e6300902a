//===- AnalyticModel.h - Fallback cost model --------------------*- C++ -*-===//
//
// The cost model used when no trained MLP exists for a chip: a roofline /
// occupancy estimate in the spirit of ISAAC §5.2, eq. (2)-(3). See
// docs/tuning.md for the formula and its constants.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_ANALYTICMODEL_H
#define ISAAC_MODEL_ANALYTICMODEL_H

#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"

namespace isaac {

/// Throughput figures of a chip the analytic model needs.
struct ChipPerf {
  double clockHz = 1.755e9;
  double fmaPerClkPerSMf32 = 128; ///< FP32 lanes per SM
  double fmaPerClkPerSMf64 = 64;
  double dramBytesPerSec = 3.0e12;
  double l2BytesPerSec = 7.0e12;
  double smemBytesPerClkPerSM = 128;
  int smemPerSM = 228 * 1024;
  int maxThreadsPerSM = 2048;
  int maxBlocksPerSM = 32;
  double globalLatencyClk = 700;
  double launchSeconds = 3e-6;
};
ChipPerf getChipPerf(const ChipLimits &chip);

/// Dense tensor-core rate (TFLOP/s) the mma family can reach on the
/// typical part of `chip` for operands of type `ab`: for f16 and bf16 the
/// chip table's PeakF16Tensor, scaled to what mma.sync issues where the
/// table's rate is that of another instruction (Hopper's wgmma); half of
/// it for f32 (TF32); for f64 PeakF64Tensor (DMMA is mma.sync's on every
/// chip: wgmma has no f64), or PeakF64 where the chip has no fast DMMA.
double mmaSyncTflops(const ChipLimits &chip, DType ab = DType::F16);
/// The dense tensor-core rate of wgmma (the wgmma family; sm_90a), TFLOP/s:
/// the datasheet's.
double wgmmaTflops(const ChipLimits &chip, DType ab = DType::F16);

/// Blocks of a tensor-core configuration (mma, wgmma) one SM of `chip`
/// holds at once: the fewest its shared memory, register file (the
/// family's register estimate; a warp-specialized block's starting count
/// where it trades registers, wgmmaRegisterSplit), thread and block
/// limits allow; 0 where one block does not fit.
int residentBlocksPerSM(const GemmConfig &c, DType ab, const ChipLimits &chip);

/// Predicted time in seconds of configuration `c` (any family) on `shape`.
double analyticCost(const GemmShape &shape, const GemmConfig &c,
                    const ChipLimits &chip);

} // namespace isaac

#endif // ISAAC_MODEL_ANALYTICMODEL_H
