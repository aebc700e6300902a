//===- IsaacOps.cpp - isaac operations ------------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::isaac;

#define GET_OP_CLASSES
#include "isaac/Dialect/IsaacOps.cpp.inc"

LogicalResult LaunchGemmOp::verify() {
  auto aT = cast<MemRefType>(getA().getType());
  auto bT = cast<MemRefType>(getB().getType());
  auto cT = cast<MemRefType>(getC().getType());
  int64_t rank = cT.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError("expects rank-2 or rank-3 (batched) memrefs");
  if (aT.getRank() != rank || bT.getRank() != rank)
    return emitOpError("expects operands of equal rank");
  if (!aT.hasStaticShape() || !bT.hasStaticShape() || !cT.hasStaticShape())
    return emitOpError("expects static shapes");
  if (aT.getElementType() != cT.getElementType() ||
      bT.getElementType() != cT.getElementType())
    return emitOpError("expects one element type");
  std::optional<::isaac::DType> dtype = getGemmDType(cT.getElementType());
  if (!dtype)
    return emitOpError("expects f32 or f64 elements");
  int64_t off = rank - 2;
  int64_t m = cT.getDimSize(off), n = cT.getDimSize(off + 1);
  int64_t am = aT.getDimSize(off + (getTransA() ? 1 : 0));
  int64_t ak = aT.getDimSize(off + (getTransA() ? 0 : 1));
  int64_t bk = bT.getDimSize(off + (getTransB() ? 1 : 0));
  int64_t bn = bT.getDimSize(off + (getTransB() ? 0 : 1));
  if (am != m || bn != n || ak != bk)
    return emitOpError("operand shapes do not form a GEMM: C is ")
           << m << "x" << n << ", op(A) is " << am << "x" << ak << ", op(B) is "
           << bk << "x" << bn;
  if (rank == 3 && (aT.getDimSize(0) != cT.getDimSize(0) ||
                    bT.getDimSize(0) != cT.getDimSize(0)))
    return emitOpError("batch sizes differ");
  return verifyGemmConfig([&] { return emitOpError(); },
                          getConfig().getConfig(), *dtype,
                          getTargetChip(*this));
}

LogicalResult
LaunchGemmOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // Before gpu-module-to-binary the kernel is a gpu.func inside a
  // gpu.module; afterwards the module is a gpu.binary of the same name.
  auto root = getKernel().getRootReference();
  Operation *module = symbolTable.lookupNearestSymbolFrom(*this, root);
  if (!module)
    return emitOpError("kernel module ") << root << " not found";
  if (isa<gpu::GPUModuleOp>(module) &&
      !symbolTable.lookupNearestSymbolFrom(*this, getKernel()))
    return emitOpError("kernel ") << getKernel() << " not found";
  return success();
}
