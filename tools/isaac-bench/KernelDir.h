//===- KernelDir.h - The PTX kernels of a ptx-dir ---------------*- C++ -*-===//

#ifndef ISAAC_BENCH_KERNELDIR_H
#define ISAAC_BENCH_KERNELDIR_H

#include "EpilogueCheck.h"

#include "isaac/Model/ConvShape.h"
#include "isaac/Model/GemmConfig.h"
#include "isaac/Runtime/KernelConfig.h"
#include "isaac/Runtime/Runtime.h"

#include <memory>
#include <string>
#include <vector>

namespace bench {

struct KernelFile {
  std::string path;
  std::string ptx;
  isaacKernelInfo info;
  /// The fused epilogue, null for a plain GEMM kernel. Shared so that
  /// copies of the KernelFile keep their EpilogueReference's program alive.
  std::shared_ptr<const KernelEpilogue> epilogue;

  /// The tuning vector, as lib/Model spells and prints it.
  isaac::GemmConfig config() const { return isaac::configOf(info); }

  /// The element types its name spells (f32, f16f32, tf32, ...).
  isaac::GemmTypes types() const {
    isaac::GemmTypes t;
    t.ab = static_cast<isaac::DType>(info.dtype);
    t.c = static_cast<isaac::DType>(info.cDtype);
    t.tf32 = info.tf32 != 0;
    return t;
  }

  /// Whether the kernel computes GEMMs of `types` and this layout.
  bool matches(const isaac::GemmTypes &t, bool transA, bool transB) const {
    return !isConv() && types() == t && (info.transA != 0) == transA &&
           (info.transB != 0) == transB;
  }

  /// Whether it is a convolution kernel (isaac_conv_...).
  bool isConv() const { return info.op == ISAAC_OP_CONV; }
  /// A convolution kernel's layout.
  isaac::ConvLayout convLayout() const {
    return info.convLayout == ISAAC_CONV_NHWC_FHWC
               ? isaac::ConvLayout::NhwcFhwc
               : isaac::ConvLayout::NhwcHwcf;
  }
};

/// Reads every `*.ptx` file of `dir` (sorted by name) and parses its
/// `// isaac.kernel` line; files that fail are reported on stderr and
/// skipped. A fused kernel (name suffix `_ep<ID>`) must also have an
/// `// isaac.epilogue` line whose program parses and matches the kernel
/// (loadKernelEpilogue): a file that mentions an epilogue and fails either
/// check is an error, since its checks would otherwise silently be lost.
/// Only the kernel `onlyName` is kept when it is not empty. Returns false
/// with `error` set if the directory cannot be read or a fused kernel is
/// malformed.
bool loadKernelDir(const std::string &dir, const std::string &onlyName,
                   std::vector<KernelFile> &kernels, std::string &error);

} // namespace bench

#endif // ISAAC_BENCH_KERNELDIR_H
