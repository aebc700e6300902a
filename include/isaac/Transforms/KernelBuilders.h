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

#include "isaac/Model/ConvShape.h"
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
  /// Element type of A and B.
  ::isaac::DType dtype = ::isaac::DType::F32;
  /// Element type of C of a plain kernel (a fused kernel's is its
  /// epilogue's output type): f32 or f64 as A and B for simt; f16, bf16 or
  /// f32 for 16-bit A and B (mma).
  ::isaac::DType cType = ::isaac::DType::F32;
  /// f32 operands multiplied in TF32 (an mma configuration on f32).
  bool tf32 = false;
  ::isaac::GemmLayout layout;
  /// A fused epilogue (docs/abi.md, "Fused epilogues"); none for a plain
  /// C = alpha*op(A)*op(B) + beta*C kernel.
  std::optional<::isaac::EpilogueProgram> epilogue;
  /// The target chip ("sm_90"): where a type has several tensor-core
  /// shapes it picks one (f64: m16n8k8 on sm_90 and later, m8n8k4 on
  /// sm_80; ::isaac::mmaInstruction). The PTX of each chip is its own
  /// module, so the kernel name does not carry it.
  std::string chip;
  /// Split-K adds of f32 partial sums may pair adjacent columns into one
  /// `red.global.add.v2.f32` (the chip and the PTX version emitted have
  /// it: ::isaac::hasVectorRedF32). The PTX differs, the kernel name not.
  bool vectorRedF32 = false;

  /// isaac_gemm_<types>_<layout>_<config>[_ep<id>]: the ABI's entry name.
  /// <types> is GemmTypes' token of A, B and C; a fused kernel's names A
  /// and B only (f32, f64, f16, bf16), its output type being its
  /// epilogue's.
  std::string kernelName() const;
  /// Element type of C.
  ::isaac::DType outType() const {
    return epilogue ? epilogue->outType : cType;
  }
  /// The accumulator's type (f64 for f64 operands, else f32), which is
  /// also that of alpha, beta and the split-K partial sums.
  ::isaac::DType accType() const {
    return dtype == ::isaac::DType::F64 ? ::isaac::DType::F64
                                        : ::isaac::DType::F32;
  }
  /// Whether the kernel takes the split-K tile counters
  /// (abi::takesTileCounters): fused, or a plain kernel with a 16-bit C.
  bool takesTileCounters() const;
};

/// Builds the GEMM kernel described by `spec` at the end of `module`
/// (plus the static shared-memory global it uses). The configuration must
/// be legal (checkGemmLegality); the caller verifies it.
gpu::GPUFuncOp buildGemmKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                               const GemmKernelSpec &spec);

/// Everything the convolution generator specializes on: the configuration
/// of the implicit GEMM (simt or mma family), the element types (input and
/// filters of types.ab; the output of types.c: that type for simt, f16,
/// bf16 or f32 for 16-bit operands, as the GEMM kernels) and the layout
/// (NHWC input and output, filters hwcf or fhwc). Sizes, strides,
/// dilations, padding, alpha and beta are runtime arguments (KernelABI.def's
/// CONV_ARG rows).
struct ConvKernelSpec {
  ::isaac::GemmConfig config;
  /// A fused kernel's are its operands' (types.c == types.ab), its output
  /// being its epilogue's.
  ::isaac::GemmTypes types;
  ::isaac::ConvLayout layout = ::isaac::ConvLayout::NhwcHwcf;
  /// A fused epilogue on the implicit GEMM's (row, channel) elements
  /// (docs/abi.md, "Fused epilogues"); none for a plain kernel.
  std::optional<::isaac::EpilogueProgram> epilogue;
  /// The target chip, as GemmKernelSpec::chip.
  std::string chip;
  /// As GemmKernelSpec::vectorRedF32.
  bool vectorRedF32 = false;

  /// isaac_conv_<types>_<layout>_<family>_<config>[_ep<id>]
  /// (ConvKernelName).
  std::string kernelName() const;
  /// The GEMM kernel whose body the convolution kernel shares: A of the
  /// implicit GEMM contiguous along K (NHWC: c fastest), B the filters as
  /// stored (K x N for hwcf, N x K for fhwc), C the NHWC output.
  GemmKernelSpec gemmSpec() const;
  /// As GemmKernelSpec::takesTileCounters.
  bool takesTileCounters() const { return gemmSpec().takesTileCounters(); }
};

/// Builds the convolution kernel described by `spec` at the end of
/// `module`: the GEMM kernel of its family on the implicit GEMM, its A tile
/// fetched from the NHWC input through the conv operand access
/// (ConvInputTaps: per-row base offsets hoisted out of the K loop, the
/// (r, s, c) of each reduction index, the halo folded into the loads'
/// predicates or cp.async's zero fill). The configuration must be legal for
/// the convolution (checkConvLegality).
gpu::GPUFuncOp buildConvKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                               const ConvKernelSpec &spec);

/// Builds `isaac_scale_<dtype>` (C = beta*C; C = 0 without reading when
/// beta == 0) if `module` does not have it yet.
gpu::GPUFuncOp getOrBuildScaleKernel(OpBuilder &builder,
                                     gpu::GPUModuleOp module,
                                     ::isaac::DType dtype);

/// Builds `isaac_splitk_reduce_<ctype>` (C = sum_g W[g] + beta*C, slices
/// summed in ascending order: deterministic) if `module` lacks it. C is of
/// type `cType`; W and beta of its accumulator type (f64 for f64, else f32:
/// a 16-bit C is converted once, from the f32 sum).
gpu::GPUFuncOp getOrBuildSplitKReduceKernel(OpBuilder &builder,
                                            gpu::GPUModuleOp module,
                                            ::isaac::DType cType);

/// Builds `isaac_splitk_reduce_<dtype>_ep<id>`, the reducer of a fused
/// kernel with KG > 1: C = epilogue(sum_g W[g] + beta*C, inputs...), if
/// `module` lacks it.
gpu::GPUFuncOp
getOrBuildEpilogueReduceKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                               ::isaac::DType dtype,
                               const ::isaac::EpilogueProgram &epilogue);

} // namespace mlir::isaac

#endif // ISAAC_TRANSFORMS_KERNELBUILDERS_H
