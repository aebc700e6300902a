//===- IsaacBufferization.cpp - Bufferization of isaac.gemm and isaac.conv ===//
//
// isaac.gemm and isaac.conv are destination-style: on tensors the result is
// the `init`,
// written and never read; one-shot-bufferize (which --isaac-pipeline runs)
// turns it into the same op on the operands' buffers.
//
//===----------------------------------------------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::isaac;
using namespace mlir::bufferization;

namespace {
/// Creates the memref form of `op` (an isaac.gemm or isaac.conv) on
/// `buffers`: its two operands, its inputs and its init, in operand order.
GemmOp rebuild(RewriterBase &rewriter, GemmOp op, ArrayRef<Value> buffers) {
  return GemmOp::create(rewriter, op.getLoc(), TypeRange(), buffers[0],
                        buffers[1], buffers.slice(2, buffers.size() - 3),
                        buffers.back(), op.getTransposeAAttr(),
                        op.getTransposeBAttr(), op.getInputMapsAttr());
}
ConvOp rebuild(RewriterBase &rewriter, ConvOp op, ArrayRef<Value> buffers) {
  return ConvOp::create(rewriter, op.getLoc(), TypeRange(), buffers[0],
                        buffers[1], buffers.slice(2, buffers.size() - 3),
                        buffers.back(), op.getLayoutAttr(), op.getStridesAttr(),
                        op.getDilationsAttr(), op.getInputMapsAttr(),
                        op.getPaddingAttr());
}

/// isaac.gemm and isaac.conv: two operands read as a whole (A and B, or
/// the input and the filters), epilogue inputs read per output element,
/// and an init that is only written.
template <typename OpTy>
struct EpilogueOpBufferization : public DstBufferizableOpInterfaceExternalModel<
                                     EpilogueOpBufferization<OpTy>, OpTy> {
  /// The destination is only written: a tensor.empty init needs no copy.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  /// Each output element is written by the thread that read the elements
  /// of the inputs it depends on, after reading them; inputs read through
  /// the identity map may therefore share the output's buffer (an
  /// accumulation into C in place). The two main operands are not
  /// elementwise.
  bool bufferizesToElementwiseAccess(Operation *op, const AnalysisState &,
                                     ArrayRef<OpOperand *> operands) const {
    auto typed = cast<OpTy>(op);
    for (OpOperand *operand : operands) {
      if (operand->get() == typed.getInit() && typed.isDpsInit(operand))
        continue;
      // Operands are the two main ones, the inputs, then init.
      unsigned idx = operand->getOperandNumber();
      if (idx < 2 || idx >= 2 + typed.getInputs().size())
        return false;
      AffineMap map =
          cast<AffineMapAttr>(typed.getInputMaps()[idx - 2]).getValue();
      if (!map.isIdentity())
        return false;
    }
    return true;
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto typed = cast<OpTy>(op);
    if (typed.hasPureBufferSemantics())
      return success();
    SmallVector<Value> buffers;
    for (Value v : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, v, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    OpTy newOp = rebuild(rewriter, typed, buffers);
    // Discardable attributes (isaac.config, isaac.candidates) go along.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      newOp->setAttr(attr.getName(), attr.getValue());
    rewriter.inlineRegionBefore(typed.getEpilogue(), newOp.getEpilogue(),
                                newOp.getEpilogue().end());
    replaceOpWithBufferizedValues(rewriter, op, buffers.back());
    return success();
  }
};
} // namespace

void mlir::isaac::registerGemmBufferizationModel(MLIRContext *ctx) {
  GemmOp::attachInterface<EpilogueOpBufferization<GemmOp>>(*ctx);
  ConvOp::attachInterface<EpilogueOpBufferization<ConvOp>>(*ctx);
}
