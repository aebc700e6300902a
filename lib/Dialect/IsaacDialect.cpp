//===- IsaacDialect.cpp - isaac dialect -----------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::isaac;

#include "isaac/Dialect/IsaacOpsDialect.cpp.inc"

void IsaacDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "isaac/Dialect/IsaacOps.cpp.inc"
      >();
  registerGemmBufferizationModel(getContext());
}

std::optional<::isaac::DType> mlir::isaac::getGemmDType(Type elementType) {
  if (elementType.isF32())
    return ::isaac::DType::F32;
  if (elementType.isF64())
    return ::isaac::DType::F64;
  if (elementType.isF16())
    return ::isaac::DType::F16;
  if (elementType.isBF16())
    return ::isaac::DType::BF16;
  return std::nullopt;
}

std::string mlir::isaac::getTargetChip(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto chip =
            p->getAttrOfType<StringAttr>(IsaacDialect::getTargetAttrName()))
      return chip.str();
  return "sm_90";
}

LogicalResult
mlir::isaac::verifyGemmConfig(function_ref<InFlightDiagnostic()> emitError,
                              const ::isaac::GemmConfig &config,
                              ::isaac::DType dtype, StringRef chip) {
  std::optional<::isaac::ChipLimits> limits =
      ::isaac::getChipLimits(chip.str());
  if (!limits)
    return emitError() << "unknown target chip '" << chip
                       << "'; known chips: " << ::isaac::knownChips();
  std::vector<::isaac::Violation> violations =
      ::isaac::checkGemmLegality(config, dtype, *limits);
  if (violations.empty())
    return success();
  InFlightDiagnostic diag = emitError();
  diag << "illegal isaac.config for " << ::isaac::dtypeName(dtype) << " on "
       << chip << " (rule " << violations.front().rule
       << "): " << violations.front().message;
  for (size_t i = 1; i < violations.size(); ++i)
    diag.attachNote() << "also breaks rule " << violations[i].rule << ": "
                      << violations[i].message;
  return diag;
}

/// Element type of the operands (A) of a GEMM-like linalg op.
static Type getOperandElementType(linalg::LinalgOp op) {
  return getElementTypeOrSelf(op.getDpsInputOperand(0)->get().getType());
}

LogicalResult IsaacDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == getTargetAttrName()) {
    auto chip = dyn_cast<StringAttr>(attr.getValue());
    if (!chip)
      return op->emitError() << "'" << getTargetAttrName()
                             << "' must be a string naming a chip";
    if (!::isaac::getChipLimits(chip.str()))
      return op->emitError() << "unknown target chip '" << chip.getValue()
                             << "'; known chips: " << ::isaac::knownChips();
    return success();
  }
  if (attr.getName() == getCandidatesAttrName()) {
    auto list = dyn_cast<ArrayAttr>(attr.getValue());
    if (!list ||
        !llvm::all_of(list, [](Attribute a) { return isa<GemmConfigAttr>(a); }))
      return op->emitError() << "'" << getCandidatesAttrName()
                             << "' must be an array of #isaac.gemm";
    return success();
  }
  if (attr.getName() == getTF32AttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getTF32AttrName() << "' must be a unit attribute";
    if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp, GemmOp>(op))
      return op->emitError() << "'" << getTF32AttrName()
                             << "' is only valid on linalg.matmul, "
                                "linalg.batch_matmul and isaac.gemm";
    return success();
  }
  if (attr.getName() == "isaac.epilogue") {
    // The epilogue program of a generated kernel module (LowerToGPU).
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'isaac.epilogue' must be a string";
    return success();
  }
  if (attr.getName() == "isaac.tensor_map_args") {
    // The tensor-map parameters of a generated kernel (isaac/Transforms/
    // Passes.h, kTensorMapArgsAttrName; isaac-tensor-map-params).
    if (!isa<DenseI32ArrayAttr>(attr.getValue()))
      return op->emitError()
             << "'isaac.tensor_map_args' must be an array of i32 indices";
    return success();
  }
  if (attr.getName() != getConfigAttrName())
    return op->emitError() << "unknown isaac attribute '"
                           << attr.getName().getValue() << "'";

  auto config = dyn_cast<GemmConfigAttr>(attr.getValue());
  if (!config)
    return op->emitError() << "'" << getConfigAttrName()
                           << "' must be an #isaac.gemm attribute";
  // Convolutions carry the configuration of their implicit GEMM
  // (include/isaac/Model/ConvShape.h); the conv-only rules read the shape
  // and are checked where it is matched (lib/Model/ConvLegality.cpp).
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp, GemmOp,
           linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp, ConvOp>(op))
    return op->emitError() << "'" << getConfigAttrName()
                           << "' is only valid on linalg.matmul, "
                              "linalg.batch_matmul, isaac.gemm, "
                              "linalg.conv_2d_nhwc_hwcf, "
                              "linalg.conv_2d_nhwc_fhwc and isaac.conv";
  // Element types isaac cannot lower are left to the lowering's remark; the
  // configuration can only be judged against a type it supports.
  Type elemTy = isa<GemmOp>(op) ? cast<GemmOp>(op).getA().getType()
                : isa<ConvOp>(op)
                    ? cast<ConvOp>(op).getInput().getType()
                    : getOperandElementType(cast<linalg::LinalgOp>(op));
  elemTy = getElementTypeOrSelf(elemTy);
  std::optional<::isaac::DType> dtype = getGemmDType(elemTy);
  if (!dtype)
    return success();
  return verifyGemmConfig([&] { return op->emitError(); }, config.getConfig(),
                          *dtype, getTargetChip(op));
}
