//===- KernelInfo.h - Helpers on isaacKernelInfo ----------------*- C++ -*-===//

#ifndef ISAAC_LIB_RUNTIME_KERNELINFO_H
#define ISAAC_LIB_RUNTIME_KERNELINFO_H

#include "isaac/Runtime/KernelConfig.h"
#include "isaac/Runtime/Runtime.h"

#include <cstddef>

namespace isaac::runtime {

/// "f32", "f64", "f16" or "bf16"; "?" for anything else.
const char *dtypeName(int32_t dtype);

/// Bytes per element of `dtype` (2, 4 or 8); 0 for an unknown dtype.
size_t dtypeSize(int32_t dtype);

/// "nn", "nt", "tn" or "tt"; a convolution's "nhwc_hwcf" or "nhwc_fhwc".
const char *layoutName(const isaacKernelInfo &info);

/// Whether the kernel has a fused epilogue (a `_ep<ID>` suffix).
inline bool hasEpilogue(const isaacKernelInfo &info) {
  return info.epilogue[0] != '\0';
}

/// Whether the kernel is a convolution (isaac_conv_...).
inline bool isConv(const isaacKernelInfo &info) {
  return info.op == ISAAC_OP_CONV;
}

/// Checks the fields the runtime relies on (dtype and family, parameters
/// within GemmParams.def's ranges, threads = GemmConfig::threads() within a
/// block's limit, smem within 48 KiB (static) or 227 KiB (dynsmem), the
/// epilogue's ID and types agreeing with the name); a violation returns
/// `status` with a message.
isaacStatus checkKernelInfo(const isaacKernelInfo &info, isaacStatus status);

} // namespace isaac::runtime

#endif // ISAAC_LIB_RUNTIME_KERNELINFO_H
