//===- ElementwiseRebuild.h - An elementwise op over another space -*- C++
//-*-===//
//
// Private to lib/Transforms: isaac-conv-to-gemm moves the elementwise ops
// that follow a convolution or GEMM across the view between them (the 4-D
// expansion of a GEMM's 2-D result, the 3-D collapse of a 1-D
// convolution's 4-D result, the NCHW transpose of an NHWC result), so that
// isaac-fuse-epilogues finds them next to the op whose epilogue they join.
// The three moves share this: which ops qualify, and rebuilding one as a
// linalg.generic over the other iteration space with its body moved over.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_ELEMENTWISEREBUILD_H
#define ISAAC_LIB_TRANSFORMS_ELEMENTWISEREBUILD_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::isaac {

/// Whether `op` is an elementwise computation on tensors over `rank`
/// parallel loops: one init and one result, indexed by the identity. (A
/// linalg.transpose or linalg.broadcast moves elements only and is not.)
bool isElementwiseOnTensors(linalg::LinalgOp op, unsigned rank);

/// Replaces the elementwise `op` by a linalg.generic over `maps`' parallel
/// loops reading `ins` and `init` (one map each, in order) with `op`'s body
/// (generalized when `op` is a named op); `constants` (block argument
/// number, value) are read as that value instead, their operands absent
/// from `ins`. `wrap` turns the new result into a value of `op`'s result
/// type (the view back), which replaces `op`; returns it, or null when
/// `op` cannot be generalized (`op` is then left in place).
Value rebuildElementwise(IRRewriter &rewriter, linalg::LinalgOp op,
                         ValueRange ins, Value init, ArrayRef<AffineMap> maps,
                         function_ref<Value(Value)> wrap,
                         ArrayRef<std::pair<unsigned, Value>> constants = {});

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_ELEMENTWISEREBUILD_H
