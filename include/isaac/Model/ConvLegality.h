//===- ConvLegality.h - Which configurations a convolution admits -*- C++
//-*-===//
//
// A convolution is configured with the #isaac.gemm of its implicit GEMM
// (ConvShape::gemmShape), so every GEMM rule of Legality.h applies to it.
// The rules below are the ones only a convolution has; they read the
// convolution's shape, because the conv kernel's input fetch does (a
// vec-wide chunk of the implicit A must be vec channels of one filter tap).
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_CONVLEGALITY_H
#define ISAAC_MODEL_CONVLEGALITY_H

#include "isaac/Model/ConvShape.h"
#include "isaac/Model/Legality.h"
#include "isaac/Model/Search.h"

#include <vector>

namespace isaac {

/// All rules `c` breaks for `shape` on `chip`, GEMM rules first
/// (checkGemmLegality on the implicit GEMM's types); empty if legal.
/// Conv-only rules:
///   conv-family          the family has conv kernels on the convolution's
///                        types: simt on f32 and f64, mma on f16, bf16 (into
///                        f16, bf16 or f32), f64 and TF32;
///   conv-layout          the kernel reads NHWC inputs (nhwc_hwcf,
///                        nhwc_fhwc);
///   conv-vector-channels vec divides C: the fetch of the implicit A walks
///                        the reduction (r, s, c) with c fastest, and one
///                        vec-wide load must stay within one filter tap
///                        (a chunk straddling two taps spans two unrelated
///                        input pixels). The kernel checks it at run time
///                        too (scalar predicated loads otherwise); the rule
///                        keeps the search from choosing configurations
///                        that would never take the vector path. Where no
///                        vec of the family divides C (an odd C of 16-bit
///                        operands: mma copies at least 4 bytes), vec must
///                        be the family's narrowest;
///   conv-input-copies    (mma) at most kMaxConvInputCopies copies of the
///                        input per thread each K tile (ml * u / vec /
///                        threads): a conv kernel keeps each copy's pixel
///                        (its row's input offset and the p, q it checks
///                        the halo with) live across the main loop.
///                        Shape-independent (meetsConvKernelRules);
///   conv-persistent      pt = 0: a conv kernel computes its input taps
///                        and im2col coordinates once, for the block's
///                        rows (persistent tiles are GEMM kernels only).
///                        Shape-independent too.
std::vector<Violation> checkConvLegality(const GemmConfig &c,
                                         const ConvShape &shape,
                                         const ChipLimits &chip);
/// Whether conv kernels of `family` compute on `t` (the rule conv-family):
/// simt on exact f32 and f64 (into an output of the operands' type), mma on
/// the types with an mma.sync shape (f16, bf16 and f64; f32 only multiplied
/// in TF32), wgmma on f16 and bf16 (its input taps copied by cp.async,
/// never TMA).
bool convFamilyComputes(GemmFamily family, const GemmTypes &t);
/// Whether `c` meets the conv-only rules above on `shape` (not the GEMM
/// rules). They read the configuration's family and vec only, so the conv
/// searches filter a family's legal space by the vec widths this admits.
bool meetsConvRules(const GemmConfig &c, const ConvShape &shape);
/// The most input copies per thread and K tile of an mma conv kernel
/// (conv-input-copies; docs/tuning.md, "The conv input-copy rule").
constexpr int kMaxConvInputCopies = 16;
/// Whether `c` meets the conv rules that read the configuration alone
/// (conv-input-copies): a property of the conv kernel, the same for every
/// shape, so the searches filter their candidate lists with it.
bool meetsConvKernelRules(const GemmConfig &c);
/// Whether checkConvLegality(c, shape, chip) is empty, without formatting
/// messages.
bool isConvLegal(const GemmConfig &c, const ConvShape &shape,
                 const ChipLimits &chip);

/// withWarpSpecialization for a convolution, on its implicit GEMM: `c`
/// warp-specialized where its blocks run the TMA loop on `shape` (at
/// least `stages` K tiles and an input TMA's im2col mode describes,
/// ConvShape::im2colMappable), where the producer costs no wave and where
/// that is conv-legal.
GemmConfig withConvWarpSpecialization(const GemmConfig &c,
                                      const ConvShape &shape,
                                      const ChipLimits &chip);

/// searchBest for a convolution: the legal space of the family a GEMM of
/// its types is searched in (searchFamily: simt for f32, mma for f16, bf16,
/// TF32 and, on chips with fast DMMA, f64), less
/// the configurations the conv rules refuse, ranked by `cost` on the
/// implicit GEMM shape. Best first; empty when nothing is legal.
std::vector<Ranked> searchBestConv(const ConvShape &shape,
                                   const ChipLimits &chip, const CostFn &cost,
                                   unsigned k);

/// The `k` best configurations of a convolution ranked by a GEMM cost
/// model on its implicit GEMM (the wgmma family's, whose convolution
/// kernels are its GEMM kernels with the input fetched by taps): searchBest
/// on the implicit GEMM shape, in the space `cost` ranks (a RankerCost
/// hands the search to its model), less what the conv rules refuse.
/// searchBest's ranking is asked for more than `k` and grown until `k`
/// remain or the whole space was ranked, so the result is the conv-legal
/// part of the GEMM ranking, exactly. Best first; empty when nothing
/// ranked is legal for the convolution.
std::vector<Ranked> searchBestConvAsGemm(const ConvShape &shape,
                                         const ChipLimits &chip,
                                         const CostFn &cost, unsigned k);

} // namespace isaac

#endif // ISAAC_MODEL_CONVLEGALITY_H
