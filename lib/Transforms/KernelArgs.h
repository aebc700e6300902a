//===- KernelArgs.h - Kernel parameter types from KernelABI.def -*- C++ -*-===//
//
// The generator declares its kernels' parameters from the table of
// isaac/Runtime/KernelABI.def, which the runtime reads too, and reads them
// by name (abi::gemm::M, ...), instead of positions kept in step by hand.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_KERNELARGS_H
#define ISAAC_LIB_TRANSFORMS_KERNELARGS_H

#include "KernelEmitter.h"

#include "isaac/Runtime/KernelABI.h"
#include "isaac/Transforms/KernelBuilders.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::isaac {

/// The MLIR type of an argument of type `t`; Scalar is `scalar` (the
/// kernel's accumulator type).
inline Type abiArgType(const KernelEmitter &e, ::isaac::abi::ArgType t,
                       Type scalar) {
  switch (t) {
  case ::isaac::abi::ArgType::Ptr:
    return e.gptr;
  case ::isaac::abi::ArgType::U32:
    return e.i32;
  case ::isaac::abi::ArgType::U64:
    return e.i64;
  case ::isaac::abi::ArgType::Scalar:
    return scalar;
  case ::isaac::abi::ArgType::TensorMap:
    // The map's generic address, which TMA takes; isaac-tensor-map-params
    // makes the parameter a 128-byte grid constant once the kernel is in
    // the LLVM dialect.
    return LLVM::LLVMPointerType::get(e.gptr.getContext());
  }
  return Type();
}

/// Appends the types of `args`, in order.
template <size_t N>
void appendABITypes(const KernelEmitter &e,
                    const ::isaac::abi::ArgInfo (&args)[N], Type scalar,
                    SmallVectorImpl<Type> &out) {
  for (const ::isaac::abi::ArgInfo &a : args)
    out.push_back(abiArgType(e, a.type, scalar));
}

/// Declares the GEMM kernel `name` of `spec` at the builder's insertion
/// point: KernelABI.def's GEMM arguments (then, with a fused epilogue, the
/// tile counters and the inputs'), Scalar of type `scalar` (the
/// accumulator's), the block size, and A and B marked noalias and readonly
/// (the backend may then use the non-coherent cache). Both kernel families
/// (GemmKernelBuilder.cpp, MmaKernelBuilder.cpp) declare theirs with it.
gpu::GPUFuncOp declareGemmKernel(OpBuilder &builder, Location loc,
                                 const GemmKernelSpec &spec, StringRef name,
                                 KernelEmitter &types, Type scalar);

/// Declares the convolution kernel `name` of `spec`: KernelABI.def's
/// CONV_ARG arguments (then, with a fused epilogue, the tile counters and
/// the inputs', as a GEMM kernel's), the block size, input and filters
/// noalias and readonly.
gpu::GPUFuncOp declareConvKernel(OpBuilder &builder, Location loc,
                                 const ConvKernelSpec &spec, StringRef name,
                                 KernelEmitter &types, Type scalar);

/// Index of a fused kernel's tile counters S, followed by the epilogue
/// inputs' parameters: after the GEMM's arguments, or a convolution's.
inline unsigned tileCountersArg(bool conv) {
  return conv ? static_cast<unsigned>(::isaac::abi::kNumConvArgs)
              : static_cast<unsigned>(::isaac::abi::gemm::S);
}

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_KERNELARGS_H
