//===- TensorMapParams.cpp - Tensor maps as by-value kernel parameters ----===//
//
// TMA reads its tensor map through a generic address; CUDA passes the map
// by value in parameter space (a __grid_constant__ CUtensorMap), so the
// kernel's parameter must be a 128-byte, 64-byte aligned byval parameter
// marked as a grid constant (NVPTX then emits `.param .align 64 .b8 p[128]`
// and takes its address with cvta.param instead of copying it to local
// memory). The generator names those parameters on the gpu.func
// (`isaac.tensor_map_args`), which survives convert-gpu-to-nvvm where
// argument attributes do not.
//
//===----------------------------------------------------------------------===//

#include "isaac/Runtime/KernelABI.h"
#include "isaac/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACTENSORMAPPARAMS
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;

namespace {
struct TensorMapParamsPass
    : public mlir::isaac::impl::IsaacTensorMapParamsBase<TensorMapParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    StringRef attrName = mlir::isaac::kTensorMapArgsAttrName;
    auto mapType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8),
                                            ::isaac::abi::kTensorMapBytes);
    WalkResult result = getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto indices = func->getAttrOfType<DenseI32ArrayAttr>(attrName);
      if (!indices)
        return WalkResult::advance();
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName())) {
        func.emitError() << attrName
                         << " on a function that is not a kernel: a "
                            "grid constant must be a kernel parameter";
        return WalkResult::interrupt();
      }
      for (int32_t i : indices.asArrayRef()) {
        if (i < 0 || i >= static_cast<int32_t>(func.getNumArguments()) ||
            !isa<LLVM::LLVMPointerType>(func.getArgument(i).getType())) {
          func.emitError() << attrName << ": parameter " << i
                           << " is not a pointer parameter";
          return WalkResult::interrupt();
        }
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(mapType));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(::isaac::abi::kTensorMapAlign));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
      func->removeAttr(attrName);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
