//===- MmaKernelBuilder.h - GEMM kernels on mma.sync ------------*- C++ -*-===//
//
// Private to lib/Transforms: the generator of the mma family
// (MmaKernelBuilder.cpp), which buildGemmKernel calls for configurations of
// that family.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_MMAKERNELBUILDER_H
#define ISAAC_LIB_TRANSFORMS_MMAKERNELBUILDER_H

#include "isaac/Transforms/KernelBuilders.h"

namespace mlir::isaac {

/// buildGemmKernel for a configuration of the mma family: the kernel and
/// the declaration of its dynamic shared memory (`<name>_smem`). With
/// `conv`, the convolution kernel of that spec, whose gemmSpec() is `spec`
/// (buildConvKernel).
gpu::GPUFuncOp buildMmaGemmKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                                  const GemmKernelSpec &spec,
                                  const ConvKernelSpec *conv = nullptr);

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_MMAKERNELBUILDER_H
