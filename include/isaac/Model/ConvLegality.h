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
///   conv-family          conv kernels are simt (f32, f64) for now;
///   conv-layout          the kernel reads NHWC inputs (nhwc_hwcf,
///                        nhwc_fhwc);
///   conv-vector-channels vec divides C: the fetch of the implicit A walks
///                        the reduction (r, s, c) with c fastest, and one
///                        vec-wide load must stay within one filter tap
///                        (a chunk straddling two taps spans two unrelated
///                        input pixels). The kernel checks it at run time
///                        too (scalar predicated loads otherwise); the rule
///                        keeps the search from choosing configurations
///                        that would never take the vector path.
std::vector<Violation> checkConvLegality(const GemmConfig &c,
                                         const ConvShape &shape,
                                         const ChipLimits &chip);
/// Whether checkConvLegality(c, shape, chip) is empty, without formatting
/// messages.
bool isConvLegal(const GemmConfig &c, const ConvShape &shape,
                 const ChipLimits &chip);

/// searchBest for a convolution: the legal simt space of its types, less
/// the configurations the conv rules refuse, ranked by `cost` on the
/// implicit GEMM shape. Best first; empty when nothing is legal.
std::vector<Ranked> searchBestConv(const ConvShape &shape,
                                   const ChipLimits &chip, const CostFn &cost,
                                   unsigned k);

} // namespace isaac

#endif // ISAAC_MODEL_CONVLEGALITY_H
