//===- ConvNchw.h - NCHW convolutions as NHWC ones ------------*- C++ -*-===//
//
// Private to lib/Transforms: part of isaac-conv-to-gemm.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_CONVNCHW_H
#define ISAAC_LIB_TRANSFORMS_CONVNCHW_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::isaac {

/// Rewrites every linalg.conv_2d_nchw_fchw under `root` with static shapes
/// (tensors, or memrefs with the identity layout) as a
/// linalg.conv_2d_nhwc_fhwc between transposes, moves the elementwise ops
/// on its tensor result before the result's transpose and folds the
/// transposes that cancel (ConvNchw.cpp says why).
LogicalResult rewriteNchwConvolutions(Operation *root);

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_CONVNCHW_H
