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

#include "isaac/Model/ConvShape.h"
#include "isaac/Runtime/Runtime.h"

#include <cstdint>

namespace isaac::runtime {

/// A convolution kernel's arguments besides its pointers, alpha and beta,
/// as the kernel reads them (.u32, KernelABI.def's CONV_ARG rows).
struct ConvGeometry {
  uint32_t n, h, w, c, k, p, q, r, s;
  uint32_t strideH, strideW, dilationH, dilationW, padTop, padLeft;

  /// The convolution's sizes as a ConvShape (layout and types left at
  /// their defaults), for its rules that read them (im2colMappable).
  ConvShape shape() const;
};

/// The last convolution shape of a launch site that passed
/// ConvShape::validate. Its rules depend on the shape alone, and compiled
/// code launches one shape from each site, so that the check (which
/// formats into a stream, slower than the launch) runs once per site.
struct ValidConvShape {
  bool known = false;
  ConvShape shape;
};

/// Checks `conv` against the convolution kernel `info` (everything the
/// launch functions check before they launch anything, the implicit GEMM's
/// grid and workspace limits included) and fills `gemm`, that GEMM's
/// arguments (C = O, A = I, B = F, ldc = K, one batch), and `geometry`.
/// `infoChecked` says that `info` passed checkKernelInfo already (a
/// function of `info` alone); `lastValid`, when given, is the caller's
/// launch site's shape that passed last, updated here.
isaacStatus validateConv(const isaacKernelInfo &info, const isaacConvArgs &conv,
                         isaacGemmArgs &gemm, ConvGeometry &geometry,
                         bool infoChecked = false,
                         ValidConvShape *lastValid = nullptr);

/// GemmLaunch.cpp's checks of a GEMM's arguments against its kernel;
/// `infoChecked` as for validateConv.
isaacStatus validateGemm(const isaacKernelInfo &info, const isaacGemmArgs &a,
                         bool infoChecked = false);

} // namespace isaac::runtime

#endif // ISAAC_LIB_RUNTIME_CONVLAUNCH_H
