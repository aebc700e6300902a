//===- ElementwiseRebuild.cpp - An elementwise op over another space ------===//

#include "ElementwiseRebuild.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;

bool mlir::isaac::isElementwiseOnTensors(linalg::LinalgOp op, unsigned rank) {
  return op && op.hasPureTensorSemantics() && op.getNumLoops() == rank &&
         op.getNumParallelLoops() == rank && op.getNumDpsInits() == 1 &&
         op->getNumResults() == 1 &&
         op.getIndexingMapMatchingResult(op->getResult(0)).isIdentity() &&
         !isa<linalg::TransposeOp, linalg::BroadcastOp>(op.getOperation());
}

Value mlir::isaac::rebuildElementwise(
    IRRewriter &rewriter, linalg::LinalgOp op, ValueRange ins, Value init,
    ArrayRef<AffineMap> maps, function_ref<Value(Value)> wrap,
    ArrayRef<std::pair<unsigned, Value>> constants) {
  // The body, from the generic form of the op (named ops have it implied).
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, op);
    if (failed(g))
      return {};
    generic = *g;
  }
  rewriter.setInsertionPoint(generic);
  Location loc = generic.getLoc();
  SmallVector<utils::IteratorType> iters(maps.front().getNumDims(),
                                         utils::IteratorType::parallel);
  auto rebuilt =
      linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()}, ins,
                                ValueRange{init}, maps, iters);
  rewriter.inlineRegionBefore(generic.getRegion(), rebuilt.getRegion(),
                              rebuilt.getRegion().end());
  Block &body = rebuilt.getRegion().front();
  for (auto [arg, value] : llvm::reverse(constants)) {
    body.getArgument(arg).replaceAllUsesWith(value);
    body.eraseArgument(arg);
  }
  Value result = wrap(rebuilt.getResult(0));
  rewriter.replaceOp(generic, result);
  return result;
}
