//===- SplitKKernels.cpp - Helper kernels of the KG > 1 path --------------===//
//
// With KG > 1 the GEMM kernel cannot apply beta itself: several blocks add
// into each element of C. The runtime therefore runs, on the same stream,
// either isaac_scale_<dtype> before the GEMM (atomic mode), or
// isaac_splitk_reduce_<dtype> after it (deterministic mode, where the GEMM
// wrote one partial plane per K slice). Both use a (32, 8) block over
// (columns, rows) and grid z over the batch; see docs/abi.md.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/KernelBuilders.h"

#include "EpilogueCodegen.h"
#include "EpilogueProgram.h"
#include "KernelArgs.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::isaac;

/// Declares kernel `name` with `argTypes` at the end of `module` and fills
/// its body: `body` runs for the element (row, col, batch) this thread owns,
/// under `row < M && col < N`, where M and N are arguments `mArg`, `nArg`.
static gpu::GPUFuncOp
buildElementwiseKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                       ::isaac::DType dtype, StringRef name,
                       ArrayRef<Type> argTypes, unsigned mArg, unsigned nArg,
                       function_ref<void(KernelEmitter &, ValueRange args,
                                         Value row, Value col, Value batch)>
                           body) {
  OpBuilder::InsertionGuard guard(builder);
  Location loc = module.getLoc();
  builder.setInsertionPointToEnd(module.getBody());
  auto func = gpu::GPUFuncOp::create(builder, loc, name,
                                     builder.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr({32, 8, 1}));

  builder.setInsertionPointToStart(&func.getBody().front());
  KernelEmitter e(builder, loc, dtype);
  ValueRange args = func.getArguments();
  Value col = e.add(e.mul(e.sreg(gpu::Dimension::x, true), e.ci32(32)),
                    e.sreg(gpu::Dimension::x, false));
  Value row = e.add(e.mul(e.sreg(gpu::Dimension::y, true), e.ci32(8)),
                    e.sreg(gpu::Dimension::y, false));
  Value batch = e.sreg(gpu::Dimension::z, true);
  Value inBounds = e.land(e.slt(row, args[mArg]), e.slt(col, args[nArg]));
  auto ifOp = scf::IfOp::create(builder, loc, inBounds, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard g2(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    body(e, args, row, col, batch);
  }
  gpu::ReturnOp::create(builder, loc);
  return func;
}

/// &C[batch*sC + row*ldc + col], C's elements of type `type` (the
/// kernel's dtype when null).
static Value elementPtr(KernelEmitter &e, Value base, Value stride, Value ld,
                        Value row, Value col, Value batch, Type type = Type()) {
  Value off = e.add(e.mul(e.ext64(batch), stride),
                    e.add(e.mul(e.ext64(row), e.ext64(ld)), e.ext64(col)));
  return e.gep(base, off, type ? type : e.elemTy);
}

/// sum_g W[batch, g, row, col] for g = 0..KG-1 in ascending order: the
/// same bits run to run.
static Value sumSlices(KernelEmitter &e, Value W, Value M, Value N, Value kg,
                       Value row, Value col, Value batch) {
  OpBuilder &b = e.b;
  // Partial g of this element: W[((batch*KG + g)*M + row)*N + col].
  Value plane = e.mul(e.ext64(M), e.ext64(N));
  Value inPlane = e.add(e.mul(e.ext64(row), e.ext64(N)), e.ext64(col));
  Value first =
      e.add(e.mul(e.mul(e.ext64(batch), e.ext64(kg)), plane), inPlane);
  auto loop = scf::ForOp::create(b, e.loc, e.ci32(0), kg, e.ci32(1),
                                 ValueRange{e.cf(0.0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value off = e.add(first, e.mul(e.ext64(loop.getInductionVar()), plane));
  Value v = e.loadVector(e.gep(W, off), 1)[0];
  scf::YieldOp::create(b, e.loc, e.fadd(loop.getRegionIterArgs()[0], v));
  return loop.getResult(0);
}

gpu::GPUFuncOp mlir::isaac::getOrBuildScaleKernel(OpBuilder &builder,
                                                  gpu::GPUModuleOp module,
                                                  ::isaac::DType dtype) {
  std::string name = std::string("isaac_scale_") + ::isaac::dtypeName(dtype);
  if (auto existing = module.lookupSymbol<gpu::GPUFuncOp>(name))
    return existing;
  KernelEmitter types(builder, module.getLoc(), dtype);
  namespace arg = ::isaac::abi::scale;
  SmallVector<Type> argTypes;
  appendABITypes(types, ::isaac::abi::kScaleArgs, types.elemTy, argTypes);
  return buildElementwiseKernel(
      builder, module, dtype, name, argTypes, arg::M, arg::N,
      [](KernelEmitter &e, ValueRange a, Value row, Value col, Value batch) {
        Value ptr =
            elementPtr(e, a[arg::C], a[arg::sC], a[arg::ldc], row, col, batch);
        Value beta = a[arg::beta];
        Value betaZero = arith::CmpFOp::create(
            e.b, e.loc, arith::CmpFPredicate::OEQ, beta, e.cf(0.0));
        // beta == 0 must not read C: it may hold NaN or garbage.
        auto ifOp = scf::IfOp::create(e.b, e.loc, betaZero, true);
        OpBuilder::InsertionGuard guard(e.b);
        e.b.setInsertionPointToStart(ifOp.thenBlock());
        e.storeVector(ptr, {e.cf(0.0)});
        e.b.setInsertionPointToStart(ifOp.elseBlock());
        e.storeVector(ptr, {e.fmul(beta, e.loadVector(ptr, 1)[0])});
      });
}

gpu::GPUFuncOp mlir::isaac::getOrBuildSplitKReduceKernel(
    OpBuilder &builder, gpu::GPUModuleOp module, ::isaac::DType cType) {
  std::string name =
      std::string("isaac_splitk_reduce_") + ::isaac::dtypeName(cType);
  if (auto existing = module.lookupSymbol<gpu::GPUFuncOp>(name))
    return existing;
  // W and beta have the accumulator's type; a 16-bit C is read and written
  // in its own type around the f32 arithmetic.
  ::isaac::DType acc =
      cType == ::isaac::DType::F64 ? ::isaac::DType::F64 : ::isaac::DType::F32;
  KernelEmitter types(builder, module.getLoc(), acc);
  namespace arg = ::isaac::abi::reduce;
  SmallVector<Type> argTypes;
  appendABITypes(types, ::isaac::abi::kReduceArgs, types.elemTy, argTypes);
  Type cTy = getScalarType(builder.getContext(), cType);
  return buildElementwiseKernel(
      builder, module, acc, name, argTypes, arg::M, arg::N,
      [&](KernelEmitter &e, ValueRange a, Value row, Value col, Value batch) {
        OpBuilder &b = e.b;
        Value C = a[arg::C], W = a[arg::W], M = a[arg::M], N = a[arg::N],
              kg = a[arg::KG], beta = a[arg::beta];
        Value cPtr =
            elementPtr(e, C, a[arg::sC], a[arg::ldc], row, col, batch, cTy);
        Value sum = sumSlices(e, W, M, N, kg, row, col, batch);
        Value betaZero = arith::CmpFOp::create(
            b, e.loc, arith::CmpFPredicate::OEQ, beta, e.cf(0.0));
        auto ifOp = scf::IfOp::create(b, e.loc, betaZero, true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        e.storeVector(cPtr, {e.convert(sum, cTy)});
        b.setInsertionPointToStart(ifOp.elseBlock());
        Value old = e.convert(e.loadVector(cPtr, 1, cTy)[0], e.elemTy);
        e.storeVector(cPtr, {e.convert(e.fadd(e.fmul(beta, old), sum), cTy)});
      });
}

gpu::GPUFuncOp mlir::isaac::getOrBuildEpilogueReduceKernel(
    OpBuilder &builder, gpu::GPUModuleOp module, ::isaac::DType dtype,
    const ::isaac::EpilogueProgram &epilogue) {
  std::string name = std::string("isaac_splitk_reduce_") +
                     ::isaac::dtypeName(dtype) + "_ep" + epilogue.id();
  if (auto existing = module.lookupSymbol<gpu::GPUFuncOp>(name))
    return existing;
  KernelEmitter types(builder, module.getLoc(), dtype);
  // The reducer's arguments, then those of each input.
  namespace arg = ::isaac::abi::reduce;
  SmallVector<Type> argTypes;
  appendABITypes(types, ::isaac::abi::kReduceArgs, types.elemTy, argTypes);
  EpilogueCodegen(epilogue).appendParamTypes(types, argTypes);
  return buildElementwiseKernel(
      builder, module, dtype, name, argTypes, arg::M, arg::N,
      [&](KernelEmitter &e, ValueRange a, Value row, Value col, Value batch) {
        OpBuilder &b = e.b;
        EpilogueCodegen codegen(epilogue);
        codegen.bind(e, a, /*first=*/::isaac::abi::kNumReduceArgs, batch);
        Type outTy = codegen.outType(b.getContext());
        Value C = a[arg::C], W = a[arg::W], M = a[arg::M], N = a[arg::N],
              kg = a[arg::KG], beta = a[arg::beta];
        Value cPtr =
            elementPtr(e, C, a[arg::sC], a[arg::ldc], row, col, batch, outTy);
        Value sum = sumSlices(e, W, M, N, kg, row, col, batch);
        // beta == 0 must not read C: it may hold NaN or garbage.
        Value betaZero = arith::CmpFOp::create(
            b, e.loc, arith::CmpFPredicate::OEQ, beta, e.cf(0.0));
        auto ifOp = scf::IfOp::create(b, e.loc, TypeRange{e.elemTy}, betaZero,
                                      /*withElse=*/true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(ifOp.thenBlock());
          scf::YieldOp::create(b, e.loc, sum);
          b.setInsertionPointToStart(ifOp.elseBlock());
          Value old = e.convert(e.loadVector(cPtr, 1, outTy)[0], e.elemTy);
          scf::YieldOp::create(b, e.loc, e.fadd(e.fmul(beta, old), sum));
        }
        Value out = codegen.apply(e, ifOp.getResult(0), row, col, Value());
        e.storeVector(cPtr, {out});
      });
}
