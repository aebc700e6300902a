//===- KernelConfig.h - isaacKernelInfo as a GemmConfig ---------*- C++ -*-===//
//
// The tuning fields of the runtime's C struct isaacKernelInfo, one per
// parameter of include/isaac/Model/GemmParams.def (same names), as the
// MLIR-free GemmConfig of lib/Model, for the runtime and isaac-bench. A row
// added to the table without its field in isaacKernelInfo does not compile.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_RUNTIME_KERNELCONFIG_H
#define ISAAC_RUNTIME_KERNELCONFIG_H

#include "isaac/Model/GemmConfig.h"
#include "isaac/Runtime/Runtime.h"

namespace isaac {

/// isaacKernelInfo's field of each parameter, in table order.
inline constexpr int32_t isaacKernelInfo::*kKernelInfoFields[kNumGemmParams] = {
#define GEMM_PARAM(Name, Mangle, Lo, Hi, Default, Pow2, Families, Doc)         \
  &isaacKernelInfo::Name,
#include "isaac/Model/GemmParams.def"
};

/// The configuration the family and tuning fields of `info` hold.
inline GemmConfig configOf(const isaacKernelInfo &info) {
  GemmConfig c;
  c.family = static_cast<GemmFamily>(info.family);
  for (const GemmParamInfo &p : kGemmParams)
    c.set(p.param, info.*kKernelInfoFields[static_cast<int>(p.param)]);
  return c;
}

/// Sets the family and tuning fields of `info` to `c`'s.
inline void setConfig(isaacKernelInfo &info, const GemmConfig &c) {
  info.family = static_cast<int32_t>(c.family);
  for (const GemmParamInfo &p : kGemmParams)
    info.*kKernelInfoFields[static_cast<int>(p.param)] = c.get(p.param);
}

/// The element types of `info`'s name (the types token): A and B of
/// `dtype`, C of `outDtype` (for a kernel with a fused epilogue, the
/// epilogue's output type), TF32 or not.
inline GemmTypes typesOf(const isaacKernelInfo &info) {
  GemmTypes t;
  t.ab = static_cast<DType>(info.dtype);
  t.c = static_cast<DType>(info.outDtype);
  t.tf32 = info.tf32 != 0;
  return t;
}

} // namespace isaac

#endif // ISAAC_RUNTIME_KERNELCONFIG_H
