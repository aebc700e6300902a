//===- Wgmma.h - The wgmma kernel family's geometry -------------*- C++ -*-===//
//
// MLIR-free facts about the `wgmma` kernel family (Hopper warpgroup MMA,
// sm_90a; lib/Transforms/MmaKernelBuilder.cpp builds it beside the mma
// family) that its legality rules (lib/Model/WgmmaLegality.cpp) and the
// generator must agree on byte for byte: the warpgroup grid of a block, the
// shared-memory layout wgmma reads through its matrix descriptors, and a
// register estimate.
//
// A block computes an ML x NL tile of C with (ML/WM) x (NL/WN) warpgroups
// of 128 threads per KL group; each warpgroup an WM x WN tile as WM/64
// wgmma.m64nWNk16 tiles (f16 and bf16 operands, f32 accumulators in
// registers). Operand tiles are staged in shared memory, by TMA or by
// cp.async, in the layout wgmma's descriptors describe (the PTX ISA's
// "canonical layouts", CUTLASS's GMMA::Layout_{K,MN}_SW{32,64,128}_Atom);
// each column block of a tile is one TMA box of the runtime's tensor maps
// (lib/Runtime/GemmLaunch.cpp), whose swizzle modes produce exactly that
// layout. After the stages lie the TMA loop's mbarriers (Mma.h,
// MmaSharedLayout::barrierOffset).
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_WGMMA_H
#define ISAAC_MODEL_WGMMA_H

#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"

#include <functional>

namespace isaac {

/// Threads of one warpgroup; rows of C of one wgmma instruction.
constexpr int kWarpgroupThreads = 128;
constexpr int kWgmmaM = 64;
/// K of one wgmma instruction for 16-bit operands.
constexpr int kWgmmaK = 16;

/// Whether `ab` is an operand type of the wgmma family (f16, bf16).
bool isWgmmaType(DType ab);

/// Warpgroups of one KL group along M and N.
inline int wgmmaGroupsM(const GemmConfig &c) { return c.ml / c.wm; }
inline int wgmmaGroupsN(const GemmConfig &c) { return c.nl / c.wn; }

/// One operand tile of a stage in shared memory. The tile keeps the
/// operand's global orientation: `rows` x `cols` elements, `cols` along the
/// global contiguous dimension (k when `contigIsK`, else m or n). It is
/// cut into column blocks of `atomBytes` (32, 64 or 128 bytes of a row),
/// each `rows` x atomBytes bytes, one after the other; inside a block, row
/// r starts at r * atomBytes and its 16-byte chunk c is stored at chunk
///   c ^ ((r / (128 / atomBytes)) % (atomBytes / 16))
/// -- the swizzle of wgmma's 32-, 64- and 128-byte swizzle modes (the
/// XOR of byte-address bits [4, 4 + log2(atomBytes/16)) with bits [7, ...)),
/// so that wgmma reads it conflict-free and a cp.async of at most 16 bytes
/// stays in one chunk. The atom is as wide as the extent one wgmma reads
/// along the contiguous dimension allows: U (the stage's K depth) for a K
/// major tile, the warpgroup's WM (A) or WN (B) otherwise, capped at 128
/// bytes.
struct WgmmaOperandLayout {
  bool contigIsK = true;
  int rows = 0, cols = 0; ///< elements
  int esz = 2;            ///< bytes per element
  int atomBytes = 128;    ///< 32, 64 or 128
  int blockBytes = 0;     ///< rows * atomBytes
  int bytes = 0;          ///< rows * cols * esz

  /// The element offset of element (r, col) of the tile.
  int offset(int r, int col) const;
  /// wgmma's swizzle-mode field (bits 62-63 of a matrix descriptor):
  /// 1 = 128-byte, 2 = 64-byte, 3 = 32-byte swizzle.
  int swizzleMode() const {
    return atomBytes == 128 ? 1 : atomBytes == 64 ? 2 : 3;
  }
  /// The descriptor's leading- and stride-dimension byte offsets: for a K
  /// major tile the distance of two groups of 8 rows (8 * atomBytes; the
  /// leading offset is unused with a swizzle: 16); for an M or N major
  /// tile the distance of two column blocks (leading: blockBytes) and of
  /// two groups of 8 k-rows (stride: 8 * atomBytes).
  int leadingByteOffset() const { return contigIsK ? 16 : blockBytes; }
  int strideByteOffset() const { return 8 * atomBytes; }
};

/// The layout of A's (`isB` false: ML x U) or B's (NL x U) tile, for an
/// operand whose global contiguous dimension is k or not.
WgmmaOperandLayout getWgmmaOperandLayout(const GemmConfig &c, DType ab,
                                         bool isB, bool contigIsK);

/// Rows of the TMA box of an operand's tile `l` (the runtime's tensor map,
/// the kernel's copies): the tile's rows, or for B in a cluster of cm > 1
/// blocks along M the 1/cm share each block copies and multicasts to the
/// others (whole 8-row swizzle patterns: the cluster rule).
inline int wgmmaBoxRows(const WgmmaOperandLayout &l, const GemmConfig &c,
                        bool isB) {
  return isB ? l.rows / c.cm : l.rows;
}

// The stages' shared memory and the copies per thread are the mma
// family's (Mma.h: getMmaSharedLayout, mmaCopiesPerThreadA/B), which
// follow the family of the configuration.

/// Rough register count per thread: the f32 accumulators of the
/// warpgroup's WM x WN tile (WM*WN/128 a thread), the copies' addresses
/// and a fixed allowance.
int estimateWgmmaRegisters(const GemmConfig &c, DType ab);

/// The registers of a warp-specialized block (ws = 1), whose last
/// warpgroup is the producer: one of its threads issues every stage's TMA
/// copies. ptxas compiles a kernel under one bound, 64K / threads; where
/// the computing threads need more (the estimate above it), the kernel
/// starts every thread at that bound (`kernel`: its .maxnreg), the
/// producer gives registers back to the block's pool (setmaxnreg.dec to
/// `producer`) and the computing warpgroups take them (setmaxnreg.inc to
/// `consumer`), which ptxas then compiles their code under (measured: a
/// 128x256 block of two 64x256 warpgroups spills 788 bytes at 168
/// registers without the split, none with it). The pool holds threads *
/// kernel registers, enough for both: an inc it cannot serve would wait
/// forever. `kernel` = 0: no split (the estimate fits the bound).
struct WgmmaRegisterSplit {
  int kernel = 0, producer = 0, consumer = 0;
};
WgmmaRegisterSplit wgmmaRegisterSplit(const GemmConfig &c, DType ab,
                                      const ChipLimits &chip);

/// A persistent block (pt = 1) without a register split: the registers a
/// thread may use (the kernel's .maxnreg) for an SM to hold as many of
/// its blocks as residentBlocksPerSM counts. ptxas gives the loop over
/// output tiles more than the plain kernel's (a 64x64 tile: 127 -> 168,
/// one block an SM instead of two). 0: no bound (one block an SM anyway,
/// or the split's).
int persistentRegisterBound(const GemmConfig &c, DType ab,
                            const ChipLimits &chip);

/// Calls `visit` for every legal wgmma configuration for operands of type
/// `dtype` on `chip`, in a fixed order: nested loops over ml, wm, nl, wn,
/// kl, u, vec, stages, kg (outermost first).
void forEachLegalWgmmaConfig(
    DType dtype, const ChipLimits &chip,
    const std::function<void(const GemmConfig &)> &visit);

} // namespace isaac

#endif // ISAAC_MODEL_WGMMA_H
