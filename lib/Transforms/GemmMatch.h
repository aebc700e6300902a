//===- GemmMatch.h - Recognizing the GEMMs isaac can compile ---*- C++ -*-===//
//
// Private to lib/Transforms. One place decides which linalg operations are
// GEMMs the generator supports (and says why not otherwise), so that
// isaac-select-config and isaac-lower-to-gpu agree.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_GEMMMATCH_H
#define ISAAC_LIB_TRANSFORMS_GEMMMATCH_H

#include "isaac/Dialect/IsaacDialect.h"
#include "isaac/Model/GemmConfig.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir::isaac {

struct GemmMatch {
  Value a, b, c; ///< c: the output (the init of an isaac.gemm)
  ::isaac::GemmShape shape;
};

/// Matches a linalg.matmul / linalg.batch_matmul, or an isaac.gemm, of
/// static shape whose A and B are f32 or f64, with A and/or B possibly
/// transposed (through the indexing maps, or isaac.gemm's attributes). On
/// memrefs every operand must also be contiguous along its innermost
/// dimension; on tensors that is bufferization's to ensure. linalg ops
/// need one element type; isaac.gemm's output may have another. On failure
/// `reason` says why, in words fit for a remark.
FailureOr<GemmMatch> matchGemm(Operation *op, std::string &reason);

/// Whether `op` is an operation isaac looks at at all.
inline bool isGemmCandidate(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp, GemmOp>(op);
}

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_GEMMMATCH_H
