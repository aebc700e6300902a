//===- Mma.h - The mma kernel family's geometry -----------------*- C++ -*-===//
//
// MLIR-free facts about the `mma` kernel family (lib/Transforms/
// MmaKernelBuilder.cpp) that its legality rules (lib/Model/MmaLegality.cpp),
// the analytic model and the generator must agree on byte for byte: the
// warp-level instruction per element type, the warp grid of a block, the
// shared-memory layout of the cp.async pipeline and a register estimate.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_MMA_H
#define ISAAC_MODEL_MMA_H

#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"

#include <functional>
#include <optional>

namespace isaac {

/// One warp-level `mma.sync` instruction: an m x n x k product per warp.
struct MmaInstr {
  int m, n, k;
};

/// The instruction the mma family uses for operands of type `ab`:
/// m16n8k16 for f16 and bf16, m16n8k8 for f32 (multiplied in TF32: the
/// mma family on f32 operands is TF32, which GEMMs opt in to), f32
/// accumulation. None for other types.
std::optional<MmaInstr> mmaInstruction(DType ab);

/// Warps of one KL group along M and N (GemmConfig::threads() is 32 times
/// their product times KL).
inline int mmaWarpsM(const GemmConfig &c) { return c.ml / c.wm; }
inline int mmaWarpsN(const GemmConfig &c) { return c.nl / c.wn; }

/// Shared memory of an mma kernel, in bytes. Each stage holds the ML x U
/// tile of A and the U x NL tile of B, each stored in its global
/// orientation (a 16-byte cp.async copies a run of the contiguous
/// dimension), rows XOR-swizzled in 16-byte chunks so that ldmatrix reads
/// eight rows of one chunk column from eight different bank groups. After
/// the main loop the buffer is reused for the KL groups' f32 partial
/// tiles. All of it is dynamic shared memory; `bytes` is
/// mmaSharedMemoryBytes() (gemmSharedMemoryBytes() of Legality.h).
struct MmaSharedLayout {
  int tileBytesA = 0;  ///< ML * U elements
  int tileBytesB = 0;  ///< NL * U elements
  int stageBytes = 0;  ///< tileBytesA + tileBytesB
  int reduceBytes = 0; ///< (KL - 1) * ML * NL f32 partial sums
  int bytes = 0;       ///< max(stages * stageBytes, reduceBytes)
};
MmaSharedLayout getMmaSharedLayout(const GemmConfig &c, DType ab);

/// Copies of `vec` elements each thread issues per stage for A and B
/// (the last round may leave threads idle).
int mmaCopiesPerThreadA(const GemmConfig &c);
int mmaCopiesPerThreadB(const GemmConfig &c);

/// Rough register count per thread: the f32 accumulators of the warp tile,
/// one k-step's A and B fragments, the copies' addresses and a fixed
/// allowance for indices, predicates and the epilogue.
int estimateMmaRegisters(const GemmConfig &c, DType ab);

/// Calls `visit` for every legal mma configuration for operands of type
/// `dtype` on `chip` (the space search.cpp's legalConfigs() holds for
/// types with an mma instruction), in a fixed order: nested loops over ml,
/// wm, nl, wn, kl, u, vec, stages, kg (outermost first), the values of
/// familyParamValues(GemmFamily::Mma, p).
void forEachLegalMmaConfig(
    DType dtype, const ChipLimits &chip,
    const std::function<void(const GemmConfig &)> &visit);

} // namespace isaac

#endif // ISAAC_MODEL_MMA_H
