//===- EpilogueProgram.cpp - isaac.gemm epilogues <-> programs ------------===//

#include "EpilogueProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::isaac;
using ::isaac::DType;
using ::isaac::EpilogueInst;
using ::isaac::EpilogueOp;
using ::isaac::EpilogueProgram;
using ::isaac::EpilogueType;

std::optional<DType> mlir::isaac::getScalarDType(Type type) {
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  return std::nullopt;
}

Type mlir::isaac::getScalarType(MLIRContext *ctx, DType dtype) {
  Builder b(ctx);
  switch (dtype) {
  case DType::F32:
    return b.getF32Type();
  case DType::F64:
    return b.getF64Type();
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  }
  return Type();
}

static std::optional<EpilogueType> getValueType(Type type) {
  if (type.isInteger(1))
    return EpilogueType::predicate();
  if (std::optional<DType> d = getScalarDType(type))
    return EpilogueType::of(*d);
  return std::nullopt;
}

static std::string opName(Operation *op) {
  return op->getName().getStringRef().str();
}

bool mlir::isaac::isEpilogueOp(Operation *op, std::string &why) {
  std::optional<EpilogueOp> kind = ::isaac::epilogueOpFromMlirName(opName(op));
  if (!kind) {
    why = "'" + opName(op) + "' is not supported in GEMM epilogues";
    return false;
  }
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!getValueType(t)) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "'" << opName(op) << "' on " << t
         << " (epilogues compute on f16, bf16, f32 and f64 scalars)";
      why = s;
      return false;
    }
  if (*kind == EpilogueOp::Const && !isa<FloatAttr>(op->getAttr("value"))) {
    why = "a non-float constant";
    return false;
  }
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    if (trunc.getRoundingmodeAttr() &&
        *trunc.getRoundingmode() != arith::RoundingMode::to_nearest_even) {
      why = "arith.truncf with a rounding mode other than to_nearest_even";
      return false;
    }
  return true;
}

FailureOr<EpilogueProgram> mlir::isaac::buildEpilogueProgram(Region &region,
                                                             std::string &why) {
  if (!region.hasOneBlock()) {
    why = "the epilogue has more than one block";
    return failure();
  }
  Block &block = region.front();
  if (block.getNumArguments() < 1 ||
      block.getNumArguments() > 1 + ::isaac::kMaxEpilogueInputs) {
    why = "the epilogue reads more than " +
          std::to_string(::isaac::kMaxEpilogueInputs) + " inputs";
    return failure();
  }
  EpilogueProgram p;
  llvm::DenseMap<Value, int> number;
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    std::optional<DType> d = getScalarDType(arg.getType());
    if (!d) {
      why = "an epilogue argument is not an f16, bf16, f32 or f64 scalar";
      return failure();
    }
    if (i == 0)
      p.accType = *d;
    else
      p.inputTypes.push_back(*d);
    number[arg] = static_cast<int>(i);
  }
  auto define = [&](Value v, EpilogueInst inst) {
    p.insts.push_back(std::move(inst));
    number[v] = p.numValues() - 1;
  };
  // A constant defined above the region becomes an instruction; any other
  // value from outside cannot be computed per element.
  auto lookup = [&](Value v) -> std::optional<int> {
    auto it = number.find(v);
    if (it != number.end())
      return it->second;
    auto cst = v.getDefiningOp<arith::ConstantOp>();
    std::optional<EpilogueType> t = getValueType(v.getType());
    if (!cst || !isa<FloatAttr>(cst.getValue()) || !t || t->isPredicate)
      return std::nullopt;
    EpilogueInst inst;
    inst.op = EpilogueOp::Const;
    inst.type = *t;
    inst.value = cast<FloatAttr>(cst.getValue()).getValueAsDouble();
    define(v, inst);
    return number[v];
  };

  for (Operation &op : block.without_terminator()) {
    if (!isEpilogueOp(&op, why))
      return failure();
    EpilogueInst inst;
    inst.op = *::isaac::epilogueOpFromMlirName(opName(&op));
    if (op.getNumResults() != 1) {
      why = "'" + opName(&op) + "' does not have one result";
      return failure();
    }
    inst.type = *getValueType(op.getResult(0).getType());
    if (inst.op == EpilogueOp::Const)
      inst.value = cast<FloatAttr>(op.getAttr("value")).getValueAsDouble();
    if (auto cmp = dyn_cast<arith::CmpFOp>(op))
      inst.predicate = arith::stringifyCmpFPredicate(cmp.getPredicate()).str();
    for (Value operand : op.getOperands()) {
      std::optional<int> n = lookup(operand);
      if (!n) {
        why = "'" + opName(&op) +
              "' uses a value defined outside the elementwise body that is "
              "not a constant";
        return failure();
      }
      inst.args.push_back(*n);
    }
    define(op.getResult(0), inst);
  }
  Operation *term = block.getTerminator();
  if (term->getNumOperands() != 1) {
    why = "the epilogue does not yield one value";
    return failure();
  }
  std::optional<int> result = lookup(term->getOperand(0));
  std::optional<DType> out = getScalarDType(term->getOperand(0).getType());
  if (!result || !out) {
    why = "the epilogue yields a value it cannot compute per element";
    return failure();
  }
  p.result = *result;
  p.outType = *out;
  if (std::string err = p.verify(); !err.empty()) {
    why = "malformed epilogue: " + err;
    return failure();
  }
  return p;
}

Value mlir::isaac::emitEpilogueProgram(OpBuilder &b, Location loc,
                                       const EpilogueProgram &p, Value x,
                                       ValueRange inputs) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> values = {x};
  llvm::append_range(values, inputs);
  for (const EpilogueInst &inst : p.insts) {
    Type type = inst.type.isPredicate ? Type(b.getI1Type())
                                      : getScalarType(ctx, inst.type.dtype);
    Value v;
    if (inst.op == EpilogueOp::Const) {
      v = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, inst.value));
    } else if (inst.op == EpilogueOp::CmpF) {
      v = arith::CmpFOp::create(b, loc,
                                *arith::symbolizeCmpFPredicate(inst.predicate),
                                values[inst.args[0]], values[inst.args[1]]);
    } else {
      // Every other operation is built from its name alone: operands in
      // program order, one result of the instruction's type.
      OperationState state(loc, ::isaac::epilogueOpMlirName(inst.op));
      for (int a : inst.args)
        state.addOperands(values[a]);
      state.addTypes(type);
      v = b.create(state)->getResult(0);
    }
    values.push_back(v);
  }
  return values[p.result];
}
