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
#include <string>

namespace isaac {

/// One warp-level `mma.sync` instruction: an m x n x k product per warp.
struct MmaInstr {
  int m, n, k;
};

/// K of one slice of an f64 fragment: lane (g, q) holds A(m g, k q) and
/// B(k q, n g) of each 8 rows or columns and 4 of K, one 64-bit shared
/// load each, whichever the instruction (m8n8k4 takes one slice, m16n8k8
/// two along K). The generator's loads, the register estimate and the
/// analytic model's count of shared loads all step by it.
constexpr int kF64SliceK = 4;

/// The instruction the mma family uses for operands of type `ab` on
/// `chip`: m16n8k16 for f16 and bf16, m16n8k8 for f32 (multiplied in TF32:
/// the mma family on f32 operands is TF32, which GEMMs opt in to), both
/// with f32 accumulation; for f64 (DMMA, f64 accumulation) m16n8k8 where
/// the chip table says the chip has it (sm_90 and later: twice m8n8k4's
/// rate on an H100), else m8n8k4 (sm_80). None for other types.
std::optional<MmaInstr> mmaInstruction(DType ab, const std::string &chip);

/// Whether `bytes` is a size cp.async copies (4, 8 or 16): the mma
/// family's vector-width rule on vec * sizeof(operand).
bool isMmaCopyWidth(int bytes);

/// Whether `chip`'s f64 tensor-core rate (Chips.def's PeakF64Tensor)
/// exceeds its f64 FMA rate (PeakF64): A100 (sm_80) and H100 (sm_90,
/// sm_90a). Every sm_80+ chip executes mma.sync .f64, the others at their
/// slow FP64 rate, so there f64 stays on the simt family.
bool hasFastF64Mma(const ChipLimits &chip);

/// The family isaac-select-config searches for a GEMM of operand type
/// `ab` on `chip`: mma for f16 and bf16 (wgmma, on sm_90a, only where an
/// isaac.config or the tuning cache names it), for f32 opted in to TF32
/// (`tf32`)
/// and for f64 where hasFastF64Mma(chip); simt for f32 (exact) and for f64
/// elsewhere. The one home of this rule (searchBest, the tuning cache and
/// the ranker follow it); a configuration written in the input may pick
/// either family its type has.
GemmFamily searchFamily(DType ab, bool tf32, const ChipLimits &chip);

/// Warps of one KL group along M and N (GemmConfig::threads() is 32 times
/// their product times KL).
inline int mmaWarpsM(const GemmConfig &c) { return c.ml / c.wm; }
inline int mmaWarpsN(const GemmConfig &c) { return c.nl / c.wn; }

/// Shared memory of an mma kernel, in bytes. Each stage holds the ML x U
/// tile of A and the U x NL tile of B, each stored in its global
/// orientation (a 16-byte cp.async copies a run of the contiguous
/// dimension), rows XOR-swizzled in 16-byte chunks (MmaSwizzle). After the
/// main loop the buffer is reused for the KL groups' partial tiles, in the
/// accumulator's type (f32; f64 for f64). All of it is dynamic shared
/// memory; `bytes` is mmaSharedMemoryBytes() (gemmSharedMemoryBytes() of
/// Legality.h). The wgmma family (Wgmma.h) stages the same tiles, each
/// rounded up to a multiple of 1024 bytes so that every tile starts on a
/// boundary of the 128-byte swizzle's pattern, which its matrix
/// descriptors assume.
struct MmaSharedLayout {
  int tileBytesA = 0;  ///< ML * U elements
  int tileBytesB = 0;  ///< NL * U elements
  int stageBytes = 0;  ///< tileBytesA + tileBytesB
  /// kc: where the tile's sums that the other blocks of its cluster read
  /// start, after the KL partials ((KL - 1) * ML * NL accumulators).
  int clusterSumsOffset = 0;
  int reduceBytes = 0; ///< (KL - 1 + kc) * ML * NL partial sums
  /// wgmma: the stages' mbarriers (a "full" and an "empty" one per stage,
  /// 8 bytes each) after the stages and the partial sums, which reuse the
  /// stages' bytes; none for mma.
  int barrierOffset = 0, barrierBytes = 0;
  /// pt = 1: the epilogue's staging region after the barriers (a
  /// persistent block's producer refills the stages during the epilogue):
  /// kStagingWarpBytes per computing warp; 0 bytes otherwise, where the
  /// epilogue stages through the stages' bytes.
  int stagingOffset = 0, stagingBytes = 0;
  /// max(stages * stageBytes, reduceBytes) + barrierBytes + stagingBytes
  int bytes = 0;
};
/// A warp's staging region of the epilogue's stores: 16 rows of at most
/// 128 bytes of C, each padded by 16 bytes.
constexpr int kStagingWarpBytes = 16 * (128 + 16);
MmaSharedLayout getMmaSharedLayout(const GemmConfig &c, DType ab);

/// The XOR swizzle of one operand tile in shared memory: `rows` x `cols`
/// elements with `cols` contiguous, each row a whole number of 16-byte
/// chunks. Chunk c of row r is stored at chunk
///   c ^ (((r / rowsPerGroup) % groups) << shift)
/// (a permutation of the chunks of each 128-byte line, so a cp.async of at
/// most 16 bytes stays in one chunk):
///   - 16-bit and TF32 operands (shift 0): the eight rows one ldmatrix
///     phase reads (one chunk column, eight consecutive rows) lie in eight
///     different 16-byte bank groups;
///   - f64 (shift 1): a half-warp's LDS.64 fragment load (one phase) reads
///     four consecutive rows (m or n = lane/4 for contiguous K, k =
///     lane%4 otherwise) at one aligned pair of chunks; moving row r's
///     pair by 2 * (r / rowsPerGroup % 4) chunks puts the four pairs in
///     the four 32-byte quarters of the 128 banks' bytes: conflict-free in
///     all four layouts (isaac-model-test legality checks every tile
///     shape).
struct MmaSwizzle {
  int chunks;       ///< 16-byte chunks per row
  int rowsPerGroup; ///< rows sharing one XOR value (rows per 128 bytes)
  int groups;       ///< distinct XOR values (1: no swizzle)
  int shift;        ///< the XOR value's shift, in chunks (log2)
};
MmaSwizzle getMmaSwizzle(int cols, DType ab);
/// The element offset of element (r, col) of such a tile.
int mmaSwizzledOffset(const MmaSwizzle &s, int cols, DType ab, int r, int col);

/// Copies of `vec` elements each thread issues per stage for A and B
/// (the last round may leave threads idle).
int mmaCopiesPerThreadA(const GemmConfig &c);
int mmaCopiesPerThreadB(const GemmConfig &c);

/// Rough register count per thread: the accumulators of the warp tile
/// (f32; two registers per f64), one k-step's A and B fragments, the
/// copies' addresses and a fixed allowance for indices, predicates and the
/// epilogue.
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
