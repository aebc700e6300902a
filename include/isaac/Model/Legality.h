//===- Legality.h - Which GEMM configurations are legal --------*- C++ -*-===//
//
// The one home of the legality rules for a GEMM configuration. The attribute
// verifier, the kernel generator, the sampler and the exhaustive search all
// call checkGemmLegality(), so a configuration accepted by one is accepted
// by all. The shared-memory layout is defined here too because the
// shared-memory rule and the generator must agree on it byte for byte.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_LEGALITY_H
#define ISAAC_MODEL_LEGALITY_H

#include "isaac/Model/Chip.h"
#include "isaac/Model/GemmConfig.h"

#include <optional>
#include <string>
#include <vector>

namespace isaac {

/// Per-block hardware limits of a target chip: the columns of the chip table
/// (isaac/Model/Chips.def) that the legality rules and the cost models read.
struct ChipLimits {
  std::string chip; ///< e.g. "sm_90"
  int maxThreadsPerBlock = 1024;
  int staticSmemPerBlock = 48 * 1024; ///< kernels use static shared memory
  int regsPerBlock = 65536;
  int maxRegsPerThread = 255;
  int numSMs = 0; ///< a typical part of this chip (feature for the model)
};

/// Limits of a chip of the chip table ("sm_80", "sm_90", ...), or nullopt
/// for a chip isaac does not name.
std::optional<ChipLimits> getChipLimits(const std::string &chip);
/// Comma-separated list of the chips of the chip table, for diagnostics.
std::string knownChips();

/// Shared-memory layout of a kernel, in elements. A/B tiles are stored
/// k-major (As[k][m], Bs[k][n]) with rows padded by 16 bytes against bank
/// conflicts on the transposing stores; `stages` stages (two: the register
/// prefetch's double buffer; more: a cp.async pipeline). The KL>1
/// reduction reuses the same buffer after the main loop.
struct SharedLayout {
  int strideA = 0;     ///< elements between rows k and k+1 of the A tile
  int strideB = 0;     ///< same for the B tile
  int stageElems = 0;  ///< one stage: U*strideA + U*strideB
  int offsetB = 0;     ///< start of the B tile inside a stage
  int reduceElems = 0; ///< (KL-1)*ML*NL partial tiles
  int totalElems = 0;  ///< max(stages*stageElems, reduceElems)
  int bytes = 0;
};
SharedLayout getSharedLayout(const GemmConfig &c, DType t);

/// Bytes of shared memory a kernel of `c` with operands of type `t` uses
/// (simt: getSharedLayout(c, t).bytes; mma: lib/Model/MmaLegality.cpp's).
int gemmSharedMemoryBytes(const GemmConfig &c, DType t);
/// Whether a kernel of `c` declares its shared memory dynamic (launched
/// with that many bytes, the function's limit raised by the runtime): mma
/// kernels, which may exceed the 48 KiB of static shared memory. simt
/// kernels keep static shared memory.
inline bool usesDynamicSharedMemory(const GemmConfig &c) {
  return c.family != GemmFamily::Simt;
}

/// Widths (elements) of the vector loads from shared memory into the
/// register fragments of A and B.
int fragmentWidthA(const GemmConfig &c, DType t);
int fragmentWidthB(const GemmConfig &c, DType t);

/// Global loads each thread issues per staged tile (vec-wide each).
int loadsPerThreadA(const GemmConfig &c);
int loadsPerThreadB(const GemmConfig &c);

/// Rough register count per thread: accumulators, fragments, prefetch
/// registers and a fixed allowance for addresses and loop state.
int estimateRegisters(const GemmConfig &c, DType t);

/// One broken rule: `rule` is a stable identifier (tests and tools match on
/// it), `message` says what is wrong with the numbers involved.
struct Violation {
  std::string rule;
  std::string message;
};

/// The rules that need neither the element type nor the chip (the
/// power-of-two and range rules of GemmParams.def for the parameters of the
/// configuration's family, family, and for simt tile-divisibility,
/// threads-per-block, vector-divisibility): what the #isaac.gemm attribute
/// can check on its own.
std::vector<Violation> checkGemmStructure(const GemmConfig &c,
                                          int maxThreadsPerBlock = 1024);

/// All rules the configuration breaks for `dtype` on `chip`; empty if legal.
/// Rules: power-of-two, range, family, tile-divisibility, threads-per-block,
/// vector-width, vector-divisibility, shared-memory, registers (simt;
/// the mma family's rules are lib/Model/MmaLegality.cpp's).
std::vector<Violation> checkGemmLegality(const GemmConfig &c, DType dtype,
                                         const ChipLimits &chip);
/// Whether checkGemmLegality(c, dtype, chip) is empty, without formatting
/// the messages (the search asks about every configuration of the space).
bool isLegal(const GemmConfig &c, DType dtype, const ChipLimits &chip);

/// The values parameter `p` takes in the space of `family` (the sampler's
/// box, the search's loops): those of its range ([lo, hi]; only powers of
/// two where the table says so) that the rules reading `p` alone can
/// accept for some element type the family computes on. Empty for a
/// parameter the family does not use; only the default for an optional
/// one no model reads (mma's kc, wgmma's cm and kc).
std::vector<int> familyParamValues(GemmFamily family, GemmParam p);

/// Inclusive range [lo, hi] of each parameter of the legacy nine-value
/// vector (kLegacyParams order: ml, nl, ms, ns, u, ks, kl, kg, vec) in the
/// simt space: the bounds of familyParamValues(GemmFamily::Simt, p). The
/// support records of model files are written in this order.
struct ParamRange {
  const char *name;
  int lo, hi;
};
const std::vector<ParamRange> &gemmParamRanges();

} // namespace isaac

#endif // ISAAC_MODEL_LEGALITY_H
