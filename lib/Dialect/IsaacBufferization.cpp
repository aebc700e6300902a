//===- IsaacBufferization.cpp - Bufferization of isaac.gemm ---------------===//
//
// isaac.gemm is destination-style: on tensors its result is its `init`,
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
struct GemmOpBufferization
    : public DstBufferizableOpInterfaceExternalModel<GemmOpBufferization,
                                                     GemmOp> {
  /// The destination is only written: a tensor.empty init needs no copy.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  /// Each output element is written by the thread that read the elements
  /// of the inputs it depends on, after reading them; inputs read through
  /// the identity map may therefore share the output's buffer (an
  /// accumulation into C in place). A and B are not elementwise.
  bool bufferizesToElementwiseAccess(Operation *op, const AnalysisState &,
                                     ArrayRef<OpOperand *> operands) const {
    auto gemm = cast<GemmOp>(op);
    for (OpOperand *operand : operands) {
      if (operand->get() == gemm.getInit() && gemm.isDpsInit(operand))
        continue;
      // Operands are A, B, the inputs, then init.
      unsigned idx = operand->getOperandNumber();
      if (idx < 2 || idx >= 2 + gemm.getInputs().size())
        return false;
      AffineMap map =
          cast<AffineMapAttr>(gemm.getInputMaps()[idx - 2]).getValue();
      if (!map.isIdentity())
        return false;
    }
    return true;
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto gemm = cast<GemmOp>(op);
    if (gemm.hasPureBufferSemantics())
      return success();
    SmallVector<Value> buffers;
    for (Value v : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, v, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    Value a = buffers[0], b = buffers[1], init = buffers.back();
    ValueRange inputs = ValueRange(buffers).slice(2, buffers.size() - 3);
    auto newOp =
        GemmOp::create(rewriter, op->getLoc(), TypeRange(), a, b, inputs, init,
                       gemm.getTransposeAAttr(), gemm.getTransposeBAttr(),
                       gemm.getInputMapsAttr());
    // Discardable attributes (isaac.config, isaac.candidates) go along.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      newOp->setAttr(attr.getName(), attr.getValue());
    rewriter.inlineRegionBefore(gemm.getEpilogue(), newOp.getEpilogue(),
                                newOp.getEpilogue().end());
    replaceOpWithBufferizedValues(rewriter, op, init);
    return success();
  }
};
} // namespace

void mlir::isaac::registerGemmBufferizationModel(MLIRContext *ctx) {
  GemmOp::attachInterface<GemmOpBufferization>(*ctx);
}
