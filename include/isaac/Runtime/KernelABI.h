//===- KernelABI.h - Arguments of isaac's kernels, by name ------*- C++ -*-===//
//
// C++ view of isaac/Runtime/KernelABI.def for the generator and the
// runtime: one enum per kernel whose enumerators are the argument indices
// (abi::gemm::M, abi::reduce::KG, ...) and one ArgInfo list per kernel in
// argument order. MLIR-free and LLVM-free: the runtime includes it.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_RUNTIME_KERNELABI_H
#define ISAAC_RUNTIME_KERNELABI_H

#include <cstddef>

namespace isaac::abi {

/// The PTX type of an argument (KernelABI.def's Type column).
enum class ArgType {
  Ptr,    ///< .u64, a global-memory pointer
  U32,    ///< .u32
  U64,    ///< .u64
  Scalar, ///< the accumulator's type: .f32, or .f64 in f64 kernels
  /// .param .align 64 .b8 [128]: a CUtensorMap passed by value
  /// (__grid_constant__)
  TensorMap
};

struct ArgInfo {
  unsigned index;
  const char *name;
  ArgType type;
  const char *meaning;
};

/// The C type of a host-ABI argument.
enum class HostType { Ptr, I32, I64, F64 };

struct HostArgInfo {
  unsigned index;
  const char *name;
  HostType type;
  const char *meaning;
};

namespace gemm {
enum Arg : unsigned {
#define GEMM_ARG(Index, Name, Type, Meaning) Name = Index,
#define FUSED_GEMM_ARG(Index, Name, Type, Meaning) Name = Index,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace gemm
namespace conv {
enum Arg : unsigned {
#define CONV_ARG(Index, Name, Type, Meaning) Name = Index,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace conv
namespace input {
enum Arg : unsigned {
#define EPILOGUE_INPUT_ARG(Offset, Name, Type, Meaning) Name = Offset,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace input
namespace tma {
enum Arg : unsigned {
#define TMA_GEMM_ARG(Offset, Name, Type, Meaning) Name = Offset,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace tma
namespace scale {
enum Arg : unsigned {
#define SCALE_ARG(Index, Name, Type, Meaning) Name = Index,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace scale
namespace reduce {
enum Arg : unsigned {
#define REDUCE_ARG(Index, Name, Type, Meaning) Name = Index,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace reduce

namespace host {
enum Arg : unsigned {
#define HOST_ARG(Index, Name, Type, Meaning) Name = Index,
#define HOST_EPILOGUE_ARG(Index, Name, Type, Meaning) Name = Index,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace host
namespace hostconv {
enum Arg : unsigned {
#define HOST_CONV_ARG(Index, Name, Type, Meaning) Name = Index,
#include "isaac/Runtime/KernelABI.def"
};
} // namespace hostconv

/// The arguments of each kernel, in order.
inline constexpr ArgInfo kGemmArgs[] = {
#define GEMM_ARG(Index, Name, Type, Meaning)                                   \
  {Index, #Name, ArgType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};
inline constexpr ArgInfo kConvArgs[] = {
#define CONV_ARG(Index, Name, Type, Meaning)                                   \
  {Index, #Name, ArgType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};
/// Appended to kGemmArgs (and kConvArgs) in the kernels takesTileCounters
/// names.
inline constexpr ArgInfo kFusedGemmArgs[] = {
#define FUSED_GEMM_ARG(Index, Name, Type, Meaning)                             \
  {Index, #Name, ArgType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};
/// Appended per epilogue input (offsets within the input's group).
inline constexpr ArgInfo kInputArgs[] = {
#define EPILOGUE_INPUT_ARG(Offset, Name, Type, Meaning)                        \
  {Offset, #Name, ArgType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};
/// Appended last to the GEMM and convolution kernels of the wgmma family.
inline constexpr ArgInfo kTmaGemmArgs[] = {
#define TMA_GEMM_ARG(Offset, Name, Type, Meaning)                              \
  {Offset, #Name, ArgType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};
inline constexpr ArgInfo kScaleArgs[] = {
#define SCALE_ARG(Index, Name, Type, Meaning)                                  \
  {Index, #Name, ArgType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};
inline constexpr ArgInfo kReduceArgs[] = {
#define REDUCE_ARG(Index, Name, Type, Meaning)                                 \
  {Index, #Name, ArgType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};

inline constexpr HostArgInfo kHostArgs[] = {
#define HOST_ARG(Index, Name, Type, Meaning)                                   \
  {Index, #Name, HostType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};
/// Appended to kHostArgs by isaacGemmLaunchEpilogue.
inline constexpr HostArgInfo kHostEpilogueArgs[] = {
#define HOST_EPILOGUE_ARG(Index, Name, Type, Meaning)                          \
  {Index, #Name, HostType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};

/// isaacConvLaunch's arguments.
inline constexpr HostArgInfo kHostConvArgs[] = {
#define HOST_CONV_ARG(Index, Name, Type, Meaning)                              \
  {Index, #Name, HostType::Type, Meaning},
#include "isaac/Runtime/KernelABI.def"
};

template <typename Info, size_t N> constexpr size_t count(const Info (&)[N]) {
  return N;
}
inline constexpr size_t kNumGemmArgs = count(kGemmArgs);
inline constexpr size_t kNumFusedGemmArgs =
    kNumGemmArgs + count(kFusedGemmArgs);
inline constexpr size_t kNumConvArgs = count(kConvArgs);
/// A fused convolution kernel takes the GEMM's tile counters (and then the
/// inputs') after its own arguments.
inline constexpr size_t kNumFusedConvArgs =
    kNumConvArgs + count(kFusedGemmArgs);
inline constexpr size_t kArgsPerInput = count(kInputArgs);
inline constexpr size_t kNumTmaGemmArgs = count(kTmaGemmArgs);
/// The bytes of a TensorMap argument (sizeof(CUtensorMap)) and its
/// alignment.
inline constexpr unsigned kTensorMapBytes = 128;
inline constexpr unsigned kTensorMapAlign = 64;
inline constexpr size_t kNumScaleArgs = count(kScaleArgs);
inline constexpr size_t kNumReduceArgs = count(kReduceArgs);

/// Whether a kernel takes kFusedGemmArgs, the split-K tile counters S
/// (docs/abi.md): a kernel with a fused epilogue (whose last block of a
/// tile applies it), and one with a 16-bit C (f16, bf16: whose last block
/// of a tile sums the slices' f32 partial sums and converts once). The
/// generator and the runtime both ask here.
constexpr bool takesTileCounters(bool fusedEpilogue, bool sixteenBitC) {
  return fusedEpilogue || sixteenBitC;
}

/// Whether the indices of `args` count up from `first`.
template <typename Info, size_t N>
constexpr bool countsUp(const Info (&args)[N], unsigned first = 0) {
  for (size_t i = 0; i < N; ++i)
    if (args[i].index != first + i)
      return false;
  return true;
}
static_assert(countsUp(kGemmArgs) && countsUp(kFusedGemmArgs, kNumGemmArgs) &&
                  countsUp(kConvArgs) && countsUp(kInputArgs) &&
                  countsUp(kTmaGemmArgs) && countsUp(kScaleArgs) &&
                  countsUp(kReduceArgs) && countsUp(kHostArgs) &&
                  countsUp(kHostEpilogueArgs, count(kHostArgs)) &&
                  countsUp(kHostConvArgs),
              "KernelABI.def: each list's indices must count up from 0");

/// The PTX spelling of `t` for documentation: ".u64 ptr", ".u32", ".u64",
/// ".f32/.f64".
inline const char *ptxTypeName(ArgType t) {
  switch (t) {
  case ArgType::Ptr:
    return ".u64 ptr";
  case ArgType::U32:
    return ".u32";
  case ArgType::U64:
    return ".u64";
  case ArgType::Scalar:
    return ".f32/.f64";
  case ArgType::TensorMap:
    return ".align 64 .b8 [128]";
  }
  return "?";
}

} // namespace isaac::abi

#endif // ISAAC_RUNTIME_KERNELABI_H
