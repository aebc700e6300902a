//===- ConvNchw.h - NCHW convolutions as NHWC ones ------------*- C++ -*-===//
//
// Private to lib/Transforms: part of isaac-conv-to-gemm.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_CONVNCHW_H
#define ISAAC_LIB_TRANSFORMS_CONVNCHW_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::isaac {

/// Rewrites every linalg.conv_2d_nchw_fchw under `root` with static shapes
/// (tensors, or memrefs with the identity layout) as a
/// linalg.conv_2d_nhwc_fhwc between transposes, moves the elementwise ops
/// on its tensor result before the result's transpose and folds the
/// transposes that cancel (ConvNchw.cpp says why).
LogicalResult rewriteNchwConvolutions(Operation *root);

/// The fill that initializes `conv`'s output, which the rewrites of
/// isaac-conv-to-gemm make again on the new output so that
/// isaac-fuse-epilogues still sees it (beta = 0): on tensors a fill of a
/// tensor.empty; on memrefs a fill of the output just before the
/// convolution. Null for any other init.
linalg::FillOp findInitFill(linalg::LinalgOp conv);

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_CONVNCHW_H
