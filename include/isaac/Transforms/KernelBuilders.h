//===- KernelBuilders.h - Generators of isaac GPU kernels ------*- C++ -*-===//
//
// The parameterized kernel generator: from a tuning vector and an input
// description to a gpu.func implementing ISAAC's GEMM (SC17 §3.2), plus the
// two helper kernels the split-K (KG > 1) path needs. The ABI of every
// kernel built here is docs/abi.md.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_TRANSFORMS_KERNELBUILDERS_H
#define ISAAC_TRANSFORMS_KERNELBUILDERS_H

#include "isaac/Model/Epilogue.h"
#include "isaac/Model/GemmConfig.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::isaac {

/// Everything the GEMM generator specializes on. M, N, K, leading
/// dimensions, batch strides, alpha and beta are runtime arguments.
struct GemmKernelSpec {
  ::isaac::GemmConfig config;
  ::isaac::DType dtype = ::isaac::DType::F32;
  ::isaac::GemmLayout layout;
  /// A fused epilogue (docs/abi.md, "Fused epilogues"); none for a plain
  /// C = alpha*op(A)*op(B) + beta*C kernel.
  std::optional<::isaac::EpilogueProgram> epilogue;

  /// isaac_gemm_<dtype>_<layout>_<config>[_ep<id>]: the ABI's entry name.
  std::string kernelName() const;
  /// Element type of C.
  ::isaac::DType outType() const {
    return epilogue ? epilogue->outType : dtype;
  }
};

/// Builds the GEMM kernel described by `spec` at the end of `module`
/// (plus the static shared-memory global it uses). The configuration must
/// be legal (checkGemmLegality); the caller verifies it.
gpu::GPUFuncOp buildGemmKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                               const GemmKernelSpec &spec);

/// Builds `isaac_scale_<dtype>` (C = beta*C; C = 0 without reading when
/// beta == 0) if `module` does not have it yet.
gpu::GPUFuncOp getOrBuildScaleKernel(OpBuilder &builder,
                                     gpu::GPUModuleOp module,
                                     ::isaac::DType dtype);

/// Builds `isaac_splitk_reduce_<dtype>` (C = sum_g W[g] + beta*C, slices
/// summed in ascending order: deterministic) if `module` lacks it.
gpu::GPUFuncOp getOrBuildSplitKReduceKernel(OpBuilder &builder,
                                            gpu::GPUModuleOp module,
                                            ::isaac::DType dtype);

/// Builds `isaac_splitk_reduce_<dtype>_ep<id>`, the reducer of a fused
/// kernel with KG > 1: C = epilogue(sum_g W[g] + beta*C, inputs...), if
/// `module` lacks it.
gpu::GPUFuncOp
getOrBuildEpilogueReduceKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                               ::isaac::DType dtype,
                               const ::isaac::EpilogueProgram &epilogue);

} // namespace mlir::isaac

#endif // ISAAC_TRANSFORMS_KERNELBUILDERS_H
