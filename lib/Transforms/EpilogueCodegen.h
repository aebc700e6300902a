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
  /// when `ok` is null) and emits the program. For code that visits
  /// elements one at a time (the split-K reducer).
  Value apply(KernelEmitter &e, Value x, Value row, Value col, Value ok);

  /// Prepares a thread's tile of rows x cols output elements (i32s; rowOk
  /// and colOk say which lie inside C): inputs that do not vary along rows
  /// (or columns) are loaded here, once per column (row) of the tile, and
  /// the row and column offsets of full inputs are computed once.
  void loadTile(KernelEmitter &e, ArrayRef<Value> rows, ArrayRef<Value> cols,
                ArrayRef<Value> rowOk, ArrayRef<Value> colOk);
  /// The output element (i, j) of the tile loadTile prepared, from `x`;
  /// full inputs are read here, predicated by `ok` (null: unpredicated).
  Value applyTile(KernelEmitter &e, Value x, int i, int j, Value ok);

  Type outType(MLIRContext *ctx) const {
    return getScalarType(ctx, program.outType);
  }
  int numInputs() const { return program.numInputs(); }

private:
  bool hasRow(int input) const {
    return program.dimsOf(input) & ::isaac::kEpilogueRow;
  }
  bool hasCol(int input) const {
    return program.dimsOf(input) & ::isaac::kEpilogueCol;
  }
  /// Offset of element (row, col) of `input`, without the terms of the
  /// dimensions it does not vary with (their strides are not read).
  Value offset(KernelEmitter &e, int input, Value rowOff, Value colOff);
  Value load(KernelEmitter &e, int input, Value off, Value ok);

  const ::isaac::EpilogueProgram &program;
  SmallVector<Value> base, sRow, sCol;
  /// loadTile's results: per row / column of the tile, per input, the
  /// offset (full inputs) or the loaded value (broadcast inputs).
  SmallVector<SmallVector<Value>> rowOff, colOff, rowVal, colVal;
  SmallVector<Value> scalarVal;
};

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_EPILOGUECODEGEN_H
