//===- EpilogueCodegen.h - Fused epilogues inside kernels ------*- C++ -*-===//
//
// Private to lib/Transforms: the code a kernel runs per output element of a
// fused GEMM, shared by the GEMM kernel (KG = 1) and its split-K reducer
// (KG > 1). Each epilogue input arrives as four kernel parameters (pointer,
// batch, row and column strides in elements; docs/abi.md); the element of
// input i for output (b, m, n) is in_i[b*sBatch + m*sRow + n*sCol].
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_EPILOGUECODEGEN_H
#define ISAAC_LIB_TRANSFORMS_EPILOGUECODEGEN_H

#include "EpilogueProgram.h"
#include "KernelEmitter.h"

namespace mlir::isaac {

class EpilogueCodegen {
public:
  explicit EpilogueCodegen(const ::isaac::EpilogueProgram &program)
      : program(program) {}

  /// Appends the parameter types of the inputs (ptr, sBatch, sRow, sCol
  /// for each) to `types`.
  void appendParamTypes(KernelEmitter &e, SmallVectorImpl<Type> &types) const;

  /// Binds the inputs' parameters, which start at `args[first]`, and
  /// offsets each pointer to batch `batch` (an i32).
  void bind(KernelEmitter &e, ValueRange args, unsigned first, Value batch);

  /// The output element for (row, col) (i32s) from the GEMM's value `x`:
  /// reads one element of each input (predicated by `ok`, unpredicated
  /// when `ok` is null) and emits the program. `rowOff` / `colOff`, when
  /// given, are per-input precomputed row*sRow and col*sCol (i64).
  Value apply(KernelEmitter &e, Value x, Value row, Value col, Value ok,
              ArrayRef<Value> rowOff = {}, ArrayRef<Value> colOff = {});

  /// row*sRow of every input (i64s), for apply's `rowOff`.
  SmallVector<Value> rowOffsets(KernelEmitter &e, Value row);
  SmallVector<Value> colOffsets(KernelEmitter &e, Value col);

  Type outType(MLIRContext *ctx) const {
    return getScalarType(ctx, program.outType);
  }
  int numInputs() const { return program.numInputs(); }

private:
  const ::isaac::EpilogueProgram &program;
  SmallVector<Value> base, sRow, sCol;
};

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_EPILOGUECODEGEN_H
