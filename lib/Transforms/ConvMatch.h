//===- ConvMatch.h - The convolutions isaac compiles -----------*- C++ -*-===//
//
// Private to lib/Transforms. The conv counterpart of GemmMatch.h: one place
// decides which linalg convolutions isaac compiles as implicit GEMMs
// (include/isaac/Model/ConvShape.h) and says why not otherwise, so that
// isaac-select-config, isaac-lower-to-gpu and isaac-offload's remarks agree.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_CONVMATCH_H
#define ISAAC_LIB_TRANSFORMS_CONVMATCH_H

#include "isaac/Dialect/IsaacDialect.h"
#include "isaac/Model/ConvShape.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir::isaac {

struct ConvMatch {
  Value input, filter, output;
  ::isaac::ConvShape shape;
};

/// The convolutions isaac configures: 2-D, NHWC input, filters HWCF or
/// FHWC (linalg.conv_2d_nhwc_hwcf, linalg.conv_2d_nhwc_fhwc, and
/// isaac.conv, the same with a fused epilogue).
inline bool isConvCandidate(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp, ConvOp>(op);
}

/// Matches a convolution isaac compiles: isConvCandidate, static shapes,
/// input, filters and output of one type, f32 or f64 (the simt family),
/// all memrefs or all tensors, memrefs packed (row-major without gaps), and
/// a ConvShape that validates (pads 0: linalg convolutions have none). An
/// isaac.conv's shape types are its operands' (its epilogue writes the
/// output). On failure `reason` says why, in words fit for a remark.
FailureOr<ConvMatch> matchConv(Operation *op, std::string &reason);

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_CONVMATCH_H
