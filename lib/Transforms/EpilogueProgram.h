//===- EpilogueProgram.h - isaac.gemm epilogues <-> programs ---*- C++ -*-===//
//
// Private to lib/Transforms: the bridge between the MLIR form of a fused
// epilogue (the region of isaac.gemm: arith and math ops) and its MLIR-free
// form (isaac::EpilogueProgram, include/isaac/Model/Epilogue.h), in both
// directions. Fusion asks which ops may join an epilogue, the lowering turns
// the region into a program, and the kernel generator emits the program.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_EPILOGUEPROGRAM_H
#define ISAAC_LIB_TRANSFORMS_EPILOGUEPROGRAM_H

#include "isaac/Model/Epilogue.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Region.h"

#include <optional>
#include <string>

namespace mlir::isaac {

/// The dtype of a scalar float type isaac handles (f16, bf16, f32, f64).
std::optional<::isaac::DType> getScalarDType(Type type);
/// The MLIR type of `dtype`.
Type getScalarType(MLIRContext *ctx, ::isaac::DType dtype);

/// Whether `op` may be part of an epilogue (an operation of
/// include/isaac/Model/EpilogueOps.def on supported types); if not, `why`
/// says why in words fit for a remark.
bool isEpilogueOp(Operation *op, std::string &why);

/// The program the single-block `region` computes: its arguments are x
/// (the accumulated value) then the inputs; its terminator yields the
/// output element. Values defined above the region must be constants. On
/// failure `why` says which operation is not supported.
FailureOr<::isaac::EpilogueProgram> buildEpilogueProgram(Region &region,
                                                         std::string &why);

/// Emits `program` at the builder's insertion point as arith/math ops on
/// `x` and `inputs` (of the program's types) and returns the yielded value.
Value emitEpilogueProgram(OpBuilder &b, Location loc,
                          const ::isaac::EpilogueProgram &program, Value x,
                          ValueRange inputs);

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_EPILOGUEPROGRAM_H
