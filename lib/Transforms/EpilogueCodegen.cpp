//===- EpilogueCodegen.cpp - Fused epilogues inside kernels ---------------===//

#include "EpilogueCodegen.h"
#include "KernelArgs.h"

using namespace mlir;
using namespace mlir::isaac;

void EpilogueCodegen::appendParamTypes(KernelEmitter &e,
                                       SmallVectorImpl<Type> &types) const {
  for (int i = 0; i < program.numInputs(); ++i)
    appendABITypes(e, ::isaac::abi::kInputArgs, e.elemTy, types);
}

void EpilogueCodegen::bind(KernelEmitter &e, ValueRange args, unsigned first,
                           Value batch) {
  MLIRContext *ctx = e.b.getContext();
  base.clear();
  sRow.clear();
  sCol.clear();
  namespace arg = ::isaac::abi::input;
  for (int i = 0; i < program.numInputs(); ++i) {
    ValueRange p = args.slice(first + ::isaac::abi::kArgsPerInput * i,
                              ::isaac::abi::kArgsPerInput);
    Type type = getScalarType(ctx, program.inputTypes[i]);
    base.push_back(
        e.gep(p[arg::in], e.mul(e.ext64(batch), p[arg::sBatch]), type));
    sRow.push_back(p[arg::sRow]);
    sCol.push_back(p[arg::sCol]);
  }
}

Value EpilogueCodegen::offset(KernelEmitter &e, int input, Value rowOff,
                              Value colOff) {
  if (rowOff && colOff)
    return e.add(rowOff, colOff);
  if (rowOff)
    return rowOff;
  return colOff ? colOff : e.ci64(0);
}

Value EpilogueCodegen::load(KernelEmitter &e, int input, Value off, Value ok) {
  Type type = getScalarType(e.b.getContext(), program.inputTypes[input]);
  Value ptr = e.gep(base[input], off, type);
  return ok ? e.predicatedLoad(ptr, ok, type) : e.loadVector(ptr, 1, type)[0];
}

Value EpilogueCodegen::apply(KernelEmitter &e, Value x, Value row, Value col,
                             Value ok) {
  SmallVector<Value> inputs;
  for (int i = 0; i < program.numInputs(); ++i) {
    Value r = hasRow(i) ? e.mul(e.ext64(row), sRow[i]) : Value();
    Value c = hasCol(i) ? e.mul(e.ext64(col), sCol[i]) : Value();
    inputs.push_back(load(e, i, offset(e, i, r, c), ok));
  }
  return emitEpilogueProgram(e.b, e.loc, program, x, inputs);
}

void EpilogueCodegen::loadTile(KernelEmitter &e, ArrayRef<Value> rows,
                               ArrayRef<Value> cols, ArrayRef<Value> rowOk,
                               ArrayRef<Value> colOk) {
  int n = program.numInputs();
  rowOff.assign(rows.size(), SmallVector<Value>(n));
  colOff.assign(cols.size(), SmallVector<Value>(n));
  rowVal.assign(rows.size(), SmallVector<Value>(n));
  colVal.assign(cols.size(), SmallVector<Value>(n));
  scalarVal.assign(n, Value());
  for (int in = 0; in < n; ++in) {
    for (auto [i, row] : llvm::enumerate(rows))
      if (hasRow(in))
        rowOff[i][in] = e.mul(e.ext64(row), sRow[in]);
    for (auto [j, col] : llvm::enumerate(cols))
      if (hasCol(in))
        colOff[j][in] = e.mul(e.ext64(col), sCol[in]);
    switch (program.dimsOf(in)) {
    case ::isaac::kEpilogueScalar:
      // Element 0 of the batch exists: the tile has an element in C.
      scalarVal[in] = load(e, in, e.ci64(0), Value());
      break;
    case ::isaac::kEpilogueRow:
      for (size_t i = 0; i < rows.size(); ++i)
        rowVal[i][in] = load(e, in, rowOff[i][in], rowOk[i]);
      break;
    case ::isaac::kEpilogueCol:
      for (size_t j = 0; j < cols.size(); ++j)
        colVal[j][in] = load(e, in, colOff[j][in], colOk[j]);
      break;
    default:
      break;
    }
  }
}

Value EpilogueCodegen::applyTile(KernelEmitter &e, Value x, int i, int j,
                                 Value ok) {
  SmallVector<Value> inputs;
  for (int in = 0; in < program.numInputs(); ++in) {
    switch (program.dimsOf(in)) {
    case ::isaac::kEpilogueScalar:
      inputs.push_back(scalarVal[in]);
      break;
    case ::isaac::kEpilogueRow:
      inputs.push_back(rowVal[i][in]);
      break;
    case ::isaac::kEpilogueCol:
      inputs.push_back(colVal[j][in]);
      break;
    default:
      inputs.push_back(
          load(e, in, offset(e, in, rowOff[i][in], colOff[j][in]), ok));
    }
  }
  return emitEpilogueProgram(e.b, e.loc, program, x, inputs);
}
