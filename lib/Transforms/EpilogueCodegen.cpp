//===- EpilogueCodegen.cpp - Fused epilogues inside kernels ---------------===//

#include "EpilogueCodegen.h"

using namespace mlir;
using namespace mlir::isaac;

void EpilogueCodegen::appendParamTypes(KernelEmitter &e,
                                       SmallVectorImpl<Type> &types) const {
  for (int i = 0; i < program.numInputs(); ++i)
    types.append({e.gptr, e.i64, e.i64, e.i64});
}

void EpilogueCodegen::bind(KernelEmitter &e, ValueRange args, unsigned first,
                           Value batch) {
  MLIRContext *ctx = e.b.getContext();
  base.clear();
  sRow.clear();
  sCol.clear();
  for (int i = 0; i < program.numInputs(); ++i) {
    ValueRange p = args.slice(first + 4 * i, 4);
    Type type = getScalarType(ctx, program.inputTypes[i]);
    base.push_back(e.gep(p[0], e.mul(e.ext64(batch), p[1]), type));
    sRow.push_back(p[2]);
    sCol.push_back(p[3]);
  }
}

SmallVector<Value> EpilogueCodegen::rowOffsets(KernelEmitter &e, Value row) {
  SmallVector<Value> out;
  for (Value s : sRow)
    out.push_back(e.mul(e.ext64(row), s));
  return out;
}

SmallVector<Value> EpilogueCodegen::colOffsets(KernelEmitter &e, Value col) {
  SmallVector<Value> out;
  for (Value s : sCol)
    out.push_back(e.mul(e.ext64(col), s));
  return out;
}

Value EpilogueCodegen::apply(KernelEmitter &e, Value x, Value row, Value col,
                             Value ok, ArrayRef<Value> rowOff,
                             ArrayRef<Value> colOff) {
  MLIRContext *ctx = e.b.getContext();
  SmallVector<Value> inputs;
  for (int i = 0; i < program.numInputs(); ++i) {
    Type type = getScalarType(ctx, program.inputTypes[i]);
    Value r = rowOff.empty() ? e.mul(e.ext64(row), sRow[i]) : rowOff[i];
    Value c = colOff.empty() ? e.mul(e.ext64(col), sCol[i]) : colOff[i];
    Value ptr = e.gep(base[i], e.add(r, c), type);
    inputs.push_back(ok ? e.predicatedLoad(ptr, ok, type)
                        : e.loadVector(ptr, 1, type)[0]);
  }
  return emitEpilogueProgram(e.b, e.loc, program, x, inputs);
}
