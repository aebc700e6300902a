//===- Chip.h - The chips isaac compiles for --------------------*- C++ -*-===//
//
// MLIR-free view of the chip table, include/isaac/Model/Chips.def: what
// isaac knows about each chip it names, and the PTX ISA version it emits
// for it.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_CHIP_H
#define ISAAC_MODEL_CHIP_H

#include <string>
#include <vector>

namespace isaac {

/// One row of Chips.def (the fields are documented there).
struct ChipInfo {
  const char *name;
  int numSMs;
  int maxThreadsPerBlock;
  int staticSmemPerBlock;
  int maxDynamicSmemPerBlock;
  int regsPerBlock;
  int maxRegsPerThread;
  int minPtx;  ///< oldest PTX ISA version with this target, x10 (86 = 8.6)
  int emitPtx; ///< the PTX ISA version isaac emits for it, x10
  double peakF32Tflops;
  double peakF64Tflops;
  double peakF16TensorTflops;
  double peakF64TensorTflops;
  double dramGBs;
  bool hasMmaSync;
  bool hasWgmma;
  bool hasMmaF64M16; ///< mma.sync.m16n8k{4,8,16}.f64 (sm_90 and later)
  bool hasClusters;  ///< thread-block clusters (sm_90 and later)
  bool hasRedV2F32;  ///< red.global.add.v2.f32 (sm_90 and later)
  const char *base;  ///< the chip an 'a' variant extends, "" for none

  /// The NVPTX target feature selecting emitPtx, e.g. "+ptx80".
  std::string ptxFeature() const;
};

/// Every chip isaac names, in the order of Chips.def.
const std::vector<ChipInfo> &allChips();

/// The row of `name`, or nullptr for a chip isaac does not name.
const ChipInfo *findChip(const std::string &name);

/// "8.6" for 86.
std::string ptxVersionString(int ptx);

/// Checks the `+ptxNN` entries of an NVPTX feature string (comma-separated,
/// as in #nvvm.target's `features`) against the chip. Returns an empty
/// string when the PTX version they select (or, without one, LLVM's default
/// for the chip) can target it, else a message saying why not: LLVM aborts
/// the process on a PTX version older than the chip's, so callers report
/// this as a diagnostic first.
std::string checkPtxFeatures(const ChipInfo &chip, const std::string &features);

/// The PTX ISA version (x10) an NVPTX feature string selects for the chip:
/// its newest `+ptxNN`, or without one LLVM's default, the chip's minimum.
int selectedPtx(const ChipInfo &chip, const std::string &features);

/// The first PTX ISA version with vector reductions (`red.global.add.v2.f32`).
constexpr int kVectorRedMinPtx = 81;

/// Whether kernels for the chip, emitted as PTX ISA `ptx`, may add two
/// adjacent f32 values with one `red.global.add.v2.f32`.
bool hasVectorRedF32(const ChipInfo &chip, int ptx);

} // namespace isaac

#endif // ISAAC_MODEL_CHIP_H
