//===- ConvLaunch.h - Arguments of convolution kernels ----------*- C++ -*-===//
//
// A convolution kernel is the GEMM kernel's body on the implicit GEMM
// M = N*P*Q, N = K, K = C*R*S (docs/abi.md, "Convolution kernel"): it is
// launched by GemmLaunch.cpp's protocol (grid, split-K helpers) on that GEMM,
// with its own parameter list. This file checks a convolution's arguments
// and describes both.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_RUNTIME_CONVLAUNCH_H
#define ISAAC_LIB_RUNTIME_CONVLAUNCH_H

#include "isaac/Runtime/Runtime.h"

#include <cstdint>

namespace isaac::runtime {

/// A convolution kernel's arguments besides its pointers, alpha and beta,
/// as the kernel reads them (.u32, KernelABI.def's CONV_ARG rows).
struct ConvGeometry {
  uint32_t n, h, w, c, k, p, q, r, s;
  uint32_t strideH, strideW, dilationH, dilationW, padTop, padLeft;
};

/// Checks `conv` against the convolution kernel `info` (everything the
/// launch functions check before they launch anything, the implicit GEMM's
/// grid and workspace limits included) and fills `gemm`, that GEMM's
/// arguments (C = O, A = I, B = F, ldc = K, one batch), and `geometry`.
isaacStatus validateConv(const isaacKernelInfo &info, const isaacConvArgs &conv,
                         isaacGemmArgs &gemm, ConvGeometry &geometry);

/// GemmLaunch.cpp's checks of a GEMM's arguments against its kernel.
isaacStatus validateGemm(const isaacKernelInfo &info, const isaacGemmArgs &a);

} // namespace isaac::runtime

#endif // ISAAC_LIB_RUNTIME_CONVLAUNCH_H
