//===- IsaacDialect.h - isaac dialect ---------------------------*- C++ -*-===//

#ifndef ISAAC_DIALECT_ISAACDIALECT_H
#define ISAAC_DIALECT_ISAACDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "isaac/Model/ConvShape.h"
#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"

#include "isaac/Dialect/IsaacOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "isaac/Dialect/IsaacAttrs.h.inc"

#define GET_OP_CLASSES
#include "isaac/Dialect/IsaacOps.h.inc"

namespace mlir::isaac {

/// Element type of a GEMM's operands as an MLIR-free dtype, if supported.
std::optional<::isaac::DType> getGemmDType(Type elementType);

/// The chip an operation is compiled for: the `isaac.target` attribute of
/// the closest enclosing operation that has one, else "sm_90".
std::string getTargetChip(Operation *op);

/// Checks `config` against the full legality rules for `dtype` on `chip`,
/// reporting each broken rule through `emitError` as
/// "illegal isaac.config (rule <name>): <message>".
LogicalResult verifyGemmConfig(function_ref<InFlightDiagnostic()> emitError,
                               const ::isaac::GemmConfig &config,
                               ::isaac::DType dtype, StringRef chip);

/// Attaches the BufferizableOpInterface model of isaac.gemm (done when the
/// dialect is loaded).
void registerGemmBufferizationModel(MLIRContext *ctx);

} // namespace mlir::isaac

#endif // ISAAC_DIALECT_ISAACDIALECT_H
