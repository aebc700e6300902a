//===- GemmLaunch.cpp - Validate and launch isaac GEMM kernels ------------===//
//
// Implements the launch protocol of docs/abi.md: the grid and block of the
// GEMM kernel, and for split-K kernels (kg > 1) either the prescale of C
// before atomic accumulation or the workspace and the ordered reduction after
// it. Kernels with a fused epilogue take the tile counters and four more
// parameters per epilogue input. An epilogue that is not linear cannot be
// applied to each K-slice's partial sum: split over K, such kernels add the
// slices into a zeroed array and the last block of each tile applies it
// (atomic mode), or reduce through the workspace and the epilogue's reducer
// (deterministic mode). A kernel launched with arguments it does not expect
// writes out of bounds or silently computes garbage, so everything checkable
// is checked on the host first. Convolution kernels are GEMM kernels on
// the implicit GEMM with another parameter list (ConvLaunch.cpp checks their
// arguments and describes that GEMM): the same grid and split-K protocol.
// GEMM and convolution kernels of the wgmma family also take TMA
// descriptors of A and B (a convolution's input: an im2col map), encoded
// for each launch, and fall back to cp.async where TMA cannot address the
// operands or the driver cannot encode them.
//
//===----------------------------------------------------------------------===//

#include "ConvLaunch.h"
#include "Error.h"
#include "KernelInfo.h"
#include "ModuleCache.h"

#include "isaac/Model/Legality.h"
#include "isaac/Model/Search.h"
#include "isaac/Model/Wgmma.h"
#include "isaac/Runtime/KernelABI.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <unordered_map>

namespace isaac::runtime {
namespace {

constexpr int64_t kMaxGridYZ = 65535;
constexpr int64_t kMaxGridX = 2147483647;
/// Block shape of the scale and split-K reduce helper kernels.
constexpr unsigned kHelperBlockX = 32, kHelperBlockY = 8;
// The search never picks a split that this file would refuse.
static_assert(::isaac::kMaxSplitKRows == kMaxGridYZ * kHelperBlockY,
              "Search.h's split-K row limit must match the helpers' grid");

/// The launch's blocks along x: the tiles of M, rounded up to whole
/// clusters for a cluster kernel (wgmma, cm > 1), whose blocks past M load
/// their share of B for the others and store nothing.
int64_t gridBlocksX(const isaacKernelInfo &info, int64_t M) {
  return ceilDiv(ceilDiv(M, info.ml), info.cm) * info.cm;
}

/// Bytes of one accumulator (the split-K workspace's and T's elements, alpha
/// and beta): f64 in f64 kernels, f32 otherwise.
size_t accumulatorSize(const isaacKernelInfo &info) {
  return dtypeSize(info.computeDtype);
}

/// Checks that `pointer` is not NULL and is aligned to `size`; the message
/// names it by `name()` (a const char *), which is only called on failure,
/// so that names built at run time cost nothing on valid launches.
template <typename NameFn>
isaacStatus checkPointerNamed(const void *pointer, NameFn name, size_t size) {
  if (!pointer)
    return setError(ISAAC_ERROR_INVALID_VALUE, "%s is NULL", name());
  if (reinterpret_cast<uintptr_t>(pointer) % size)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "%s=%p is not aligned to the %zu-byte element size", name(),
                    pointer, size);
  return ISAAC_SUCCESS;
}

isaacStatus checkPointer(const void *pointer, const char *name, size_t size) {
  return checkPointerNamed(
      pointer, [name] { return name; }, size);
}

/// "epilogue input 1 (f32)".
std::string inputName(const isaacKernelInfo &info, int32_t i) {
  return "epilogue input " + std::to_string(i) + " (" +
         dtypeName(info.inputDtypes[i]) + ")";
}

/// The epilogue inputs of `a` against the kernel's: their number, and each
/// input's alignment and strides.
isaacStatus validateInputs(const isaacKernelInfo &info,
                           const isaacGemmArgs &a) {
  if (!hasEpilogue(info)) {
    if (a.numInputs != 0)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "numInputs=%d, but kernel %s has no fused epilogue",
                      a.numInputs, info.name);
    return ISAAC_SUCCESS;
  }
  if (a.numInputs != info.numInputs)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "numInputs=%d disagrees with the fused epilogue of kernel "
                    "%s, which reads %d inputs",
                    a.numInputs, info.name, info.numInputs);
  if (a.numInputs > 0 && !a.inputs)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "inputs is NULL but numInputs=%d", a.numInputs);
  for (int32_t i = 0; i < a.numInputs; ++i) {
    const isaacEpilogueInput &in = a.inputs[i];
    // Named only in a message: building the name per input and launch
    // would cost more than the checks.
    std::string name;
    auto nameOf = [&] {
      if (name.empty())
        name = inputName(info, i);
      return name.c_str();
    };
    if (isaacStatus status =
            checkPointerNamed(in.ptr, nameOf, dtypeSize(info.inputDtypes[i])))
      return status;
    // Zero broadcasts; a negative stride would read before the pointer.
    if (in.sRow < 0 || in.sCol < 0 || (a.batch > 1 && in.sBatch < 0))
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "%s: strides sBatch=%" PRId64 ", sRow=%" PRId64
                      " and sCol=%" PRId64 " must not be negative",
                      nameOf(), in.sBatch, in.sRow, in.sCol);
    // The kernel never reads the stride of an index the input was compiled
    // as broadcast along: a non-zero one means a different input.
    int32_t broadcast = info.inputBroadcast[i];
    if ((broadcast & ISAAC_BROADCAST_ROWS) && in.sRow != 0)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "%s: kernel %s reads it as the same for every row "
                      "(compiled for a broadcast input), so sRow must be 0, "
                      "not %" PRId64,
                      nameOf(), info.name, in.sRow);
    if ((broadcast & ISAAC_BROADCAST_COLS) && in.sCol != 0)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "%s: kernel %s reads it as the same for every column "
                      "(compiled for a broadcast input), so sCol must be 0, "
                      "not %" PRId64,
                      nameOf(), info.name, in.sCol);
  }
  return ISAAC_SUCCESS;
}

/// Above this KG, a split-K kernel with a fused epilogue or a 16-bit C in
/// atomic mode finishes each tile in its last block (tile counters); up to
/// it, it reduces through the workspace like the deterministic mode. The
/// reducer reads KG values per element: cheap, bandwidth-bound for small
/// KG, latency-bound for large KG, where the last-block fixup (whose fence
/// and counter cost a fixed tail per block, and whose adds into T wait for
/// T's lines) wins. Measured on an H100 with Table 4's top-1 kernels
/// (docs/perf.md: "Fused epilogues" for the simt kernels, "Split-K into a
/// 16-bit C" for the wgmma ones).
constexpr int32_t kMaxWorkspaceKG = 16;

/// Whether C is 16-bit (f16, bf16) in a kernel without a fused epilogue.
/// There are no f32 atomics into such a C: split over K, the kernel keeps
/// every slice's sums in f32 (the workspace, or T with tile counters) and
/// isaac_splitk_reduce_<C type> (or the tile's last block) converts once.
bool narrowOutput(const isaacKernelInfo &info) {
  return !hasEpilogue(info) &&
         (info.outDtype == ISAAC_F16 || info.outDtype == ISAAC_BF16);
}

/// Whether the kernel takes the tile counters S (KernelABI.def).
bool takesTileCounters(const isaacKernelInfo &info) {
  return abi::takesTileCounters(hasEpilogue(info), narrowOutput(info));
}

/// Whether the KG slices of a tile meet in global memory (GemmConfig): a
/// kc kernel's sum inside the launch, in slice order (deterministic in
/// both modes): one kernel, nothing else to allocate.
bool splitsAcrossGrid(const isaacKernelInfo &info) {
  return configOf(info).splitsAcrossGrid();
}

/// In atomic mode, split-K kernels that take tile counters (a fused
/// epilogue, a 16-bit C) with KG above kMaxWorkspaceKG add their slices
/// into T (batch*M*N accumulators) and count arrivals per tile in S; both
/// live in one zeroed buffer of the stream, which the kernels leave zero.
bool usesTileCounters(const isaacKernelInfo &info, int32_t flags) {
  return splitsAcrossGrid(info) && info.kg > kMaxWorkspaceKG &&
         takesTileCounters(info) && !(flags & ISAAC_DETERMINISTIC);
}

/// Split-K kernels reduce through the workspace in deterministic mode, and
/// those that take tile counters also in atomic mode unless they use them.
bool usesWorkspace(const isaacKernelInfo &info, int32_t flags) {
  return splitsAcrossGrid(info) &&
         ((flags & ISAAC_DETERMINISTIC) ||
          (takesTileCounters(info) && !usesTileCounters(info, flags)));
}

/// The split-K helper kernel (isaac_scale_* before the GEMM, or
/// isaac_splitk_reduce_* after it) of a kernel: named by C's type, which
/// also fixes the workspace's (the accumulation's) type, or for a fused
/// epilogue by the accumulation's type and the epilogue's ID.
std::string helperName(const isaacKernelInfo &info, bool reduce) {
  std::string name = reduce ? "isaac_splitk_reduce_" : "isaac_scale_";
  if (hasEpilogue(info))
    return name + dtypeName(info.computeDtype) + "_ep" + info.epilogue;
  return name + dtypeName(info.outDtype);
}

/// Offset of S behind T, and the buffer's size, in bytes; false on
/// overflow.
bool tileCounterLayout(const isaacKernelInfo &info, const isaacGemmArgs &a,
                       size_t &countersOffset, size_t &bytes) {
  size_t sums = accumulatorSize(info), tiles = 4;
  if (__builtin_mul_overflow(sums, static_cast<size_t>(a.batch), &sums) ||
      __builtin_mul_overflow(sums, static_cast<size_t>(a.M), &sums) ||
      __builtin_mul_overflow(sums, static_cast<size_t>(a.N), &sums) ||
      __builtin_mul_overflow(tiles, static_cast<size_t>(a.batch), &tiles) ||
      __builtin_mul_overflow(tiles, static_cast<size_t>(ceilDiv(a.M, info.ml)),
                             &tiles) ||
      __builtin_mul_overflow(tiles, static_cast<size_t>(ceilDiv(a.N, info.nl)),
                             &tiles))
    return false;
  countersOffset = (sums + 255) / 256 * 256;
  return !__builtin_add_overflow(countersOffset, tiles, &bytes);
}

} // namespace

isaacStatus validateGemm(const isaacKernelInfo &info, const isaacGemmArgs &a,
                         bool infoChecked) {
  if (!infoChecked)
    if (isaacStatus status = checkKernelInfo(info, ISAAC_ERROR_INVALID_VALUE))
      return status;
  if (hasEpilogue(info) && info.numInputs < 0)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "the output and input types of the fused epilogue of "
                    "kernel %s are unknown: describe it by its PTX header "
                    "(isaacParseKernelInfo), not by its name alone",
                    info.name);
  const char *layout = layoutName(info);
  if (a.M < 1 || a.N < 1 || a.K < 1)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "M=%d, N=%d and K=%d must all be at least 1", a.M, a.N,
                    a.K);
  if (a.batch < 1)
    return setError(ISAAC_ERROR_INVALID_VALUE, "batch=%d must be at least 1",
                    a.batch);
  size_t size = dtypeSize(info.dtype);
  // C holds the epilogue's output type (the GEMM's without an epilogue).
  if (isaacStatus status = checkPointer(a.C, "C", dtypeSize(info.outDtype)))
    return status;
  if (isaacStatus status = checkPointer(a.A, "A", size))
    return status;
  if (isaacStatus status = checkPointer(a.B, "B", size))
    return status;

  // Rows are contiguous (row-major), so a leading dimension is at least the
  // number of columns of the operand as stored.
  if (info.transA ? a.lda < a.M : a.lda < a.K)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "lda=%d is smaller than %s=%d: with layout %s, A is "
                    "stored as %s",
                    a.lda, info.transA ? "M" : "K", info.transA ? a.M : a.K,
                    layout, info.transA ? "K x M (transposed)" : "M x K");
  if (info.transB ? a.ldb < a.K : a.ldb < a.N)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "ldb=%d is smaller than %s=%d: with layout %s, B is "
                    "stored as %s",
                    a.ldb, info.transB ? "K" : "N", info.transB ? a.K : a.N,
                    layout, info.transB ? "N x K (transposed)" : "K x N");
  if (a.ldc < a.N)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "ldc=%d is smaller than N=%d: C is stored as M x N", a.ldc,
                    a.N);
  if (a.flags & ~ISAAC_DETERMINISTIC)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "flags=0x%x has bits other than ISAAC_DETERMINISTIC",
                    static_cast<unsigned>(a.flags));
  if (isaacStatus status = validateInputs(info, a))
    return status;
  if (a.batch > 1) {
    if (a.sA < 0 || a.sB < 0)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "batch strides sA=%" PRId64 " and sB=%" PRId64
                      " must not be negative",
                      a.sA, a.sB);
    // Overlapping outputs would make the batches race with each other.
    int64_t footprint = static_cast<int64_t>(a.M - 1) * a.ldc + a.N;
    if (a.sC < footprint)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "batch stride sC=%" PRId64 " is smaller than the %" PRId64
                      " elements (M-1)*ldc+N of one C matrix, so batches "
                      "would overwrite each other",
                      a.sC, footprint);
  }

  int64_t tilesN = ceilDiv(a.N, info.nl);
  if (tilesN > kMaxGridYZ)
    return setError(ISAAC_ERROR_UNSUPPORTED,
                    "N=%d needs %" PRId64 " tiles of nl=%d in grid y; the "
                    "limit is %" PRId64,
                    a.N, tilesN, info.nl, kMaxGridYZ);
  if (gridBlocksX(info, a.M) > kMaxGridX)
    return setError(ISAAC_ERROR_UNSUPPORTED, "M=%d needs too many tiles", a.M);
  int64_t slices = static_cast<int64_t>(a.batch) * info.kg;
  if (slices > kMaxGridYZ)
    return setError(ISAAC_ERROR_UNSUPPORTED,
                    "batch*kg = %d*%d = %" PRId64 " exceeds the grid z limit "
                    "%" PRId64,
                    a.batch, info.kg, slices, kMaxGridYZ);
  if (splitsAcrossGrid(info)) {
    int64_t helperRows = ceilDiv(a.M, kHelperBlockY);
    if (helperRows > kMaxGridYZ)
      return setError(ISAAC_ERROR_UNSUPPORTED,
                      "M=%d needs %" PRId64 " blocks of %u rows in the grid y "
                      "of the split-K helper kernels; the limit is %" PRId64,
                      a.M, helperRows, kHelperBlockY, kMaxGridYZ);
    if (usesWorkspace(info, a.flags)) {
      size_t bytes = accumulatorSize(info);
      if (__builtin_mul_overflow(bytes, static_cast<size_t>(slices), &bytes) ||
          __builtin_mul_overflow(bytes, static_cast<size_t>(a.M), &bytes) ||
          __builtin_mul_overflow(bytes, static_cast<size_t>(a.N), &bytes))
        return setError(ISAAC_ERROR_UNSUPPORTED,
                        "the split-K workspace of batch*kg*M*N elements "
                        "does not fit in the address space");
    }
    size_t countersOffset = 0, bytes = 0;
    if (usesTileCounters(info, a.flags) &&
        !tileCounterLayout(info, a, countersOffset, bytes))
      return setError(ISAAC_ERROR_UNSUPPORTED,
                      "the split-K partial sums of batch*M*N elements do not "
                      "fit in the address space");
  }
  return ISAAC_SUCCESS;
}

namespace {

isaacStatus launch(const Driver &d, const isaacFunction_st &function,
                   int64_t gridX, int64_t gridY, int64_t gridZ, unsigned blockX,
                   unsigned blockY, CUstream stream, void **params,
                   unsigned dynamicSmem = 0) {
  CUresult result = d.cuLaunchKernel(
      function.function, static_cast<unsigned>(gridX),
      static_cast<unsigned>(gridY), static_cast<unsigned>(gridZ), blockX,
      blockY, 1, dynamicSmem, stream, params, nullptr);
  if (result == CUDA_SUCCESS)
    return ISAAC_SUCCESS;
  std::string detail =
      "kernel " + function.name + ", grid (" + std::to_string(gridX) + ", " +
      std::to_string(gridY) + ", " + std::to_string(gridZ) + "), block (" +
      std::to_string(blockX) + ", " + std::to_string(blockY) + ", 1)";
  return cudaFailure(result, "cuLaunchKernel", detail.c_str());
}

static_assert(sizeof(CUtensorMap) == abi::kTensorMapBytes &&
                  alignof(CUtensorMap) == abi::kTensorMapAlign,
              "a TensorMap argument is a CUtensorMap");

/// Kernel parameter storage; cuLaunchKernel reads each parameter through a
/// pointer and copies as many bytes as the PTX .param declares, so the C++
/// types must have exactly the ABI's sizes.
struct GemmParams {
  uint64_t C, A, B, W;
  uint64_t S; ///< tile counters (fused kernels)
  uint32_t M, N, K, lda, ldb, ldc;
  uint64_t sA, sB, sC;
  uint32_t kg;
  float alphaF, betaF;
  double alphaD, betaD;
  bool isF64; ///< alpha and beta are f64 (computeDtype), else f32
  /// Per epilogue input: ptr, sBatch, sRow, sCol (all .u64).
  uint64_t inputs[ISAAC_MAX_EPILOGUE_INPUTS][4];
  int numInputs;
  /// A convolution kernel's own arguments (beside C = O, A = I, B = F, W).
  ConvGeometry conv;
  /// The tensor maps of A and B and whether the kernel reads them (wgmma
  /// GEMM kernels); CUtensorMap's alignment keeps them 64-byte aligned, as
  /// cuTensorMapEncodeTiled requires of the maps it writes.
  CUtensorMap tmA, tmB;
  uint32_t useTma;

  void *alpha() { return isF64 ? static_cast<void *>(&alphaD) : &alphaF; }
  void *beta() { return isF64 ? static_cast<void *>(&betaD) : &betaF; }
};

/// Where GemmParams holds each argument of isaac/Runtime/KernelABI.def.
void *argOf(GemmParams &p, abi::gemm::Arg arg) {
  switch (arg) {
  case abi::gemm::C:
    return &p.C;
  case abi::gemm::A:
    return &p.A;
  case abi::gemm::B:
    return &p.B;
  case abi::gemm::W:
    return &p.W;
  case abi::gemm::M:
    return &p.M;
  case abi::gemm::N:
    return &p.N;
  case abi::gemm::K:
    return &p.K;
  case abi::gemm::lda:
    return &p.lda;
  case abi::gemm::ldb:
    return &p.ldb;
  case abi::gemm::ldc:
    return &p.ldc;
  case abi::gemm::sA:
    return &p.sA;
  case abi::gemm::sB:
    return &p.sB;
  case abi::gemm::sC:
    return &p.sC;
  case abi::gemm::alpha:
    return p.alpha();
  case abi::gemm::beta:
    return p.beta();
  case abi::gemm::S:
    return &p.S;
  }
  return nullptr;
}
void *argOf(GemmParams &p, abi::conv::Arg arg) {
  ConvGeometry &g = p.conv;
  switch (arg) {
  case abi::conv::O:
    return &p.C;
  case abi::conv::I:
    return &p.A;
  case abi::conv::F:
    return &p.B;
  case abi::conv::ws:
    return &p.W;
  case abi::conv::N:
    return &g.n;
  case abi::conv::H:
    return &g.h;
  case abi::conv::W:
    return &g.w;
  case abi::conv::C:
    return &g.c;
  case abi::conv::K:
    return &g.k;
  case abi::conv::P:
    return &g.p;
  case abi::conv::Q:
    return &g.q;
  case abi::conv::R:
    return &g.r;
  case abi::conv::S:
    return &g.s;
  case abi::conv::sh:
    return &g.strideH;
  case abi::conv::sw:
    return &g.strideW;
  case abi::conv::dh:
    return &g.dilationH;
  case abi::conv::dw:
    return &g.dilationW;
  case abi::conv::padT:
    return &g.padTop;
  case abi::conv::padL:
    return &g.padLeft;
  case abi::conv::alpha:
    return p.alpha();
  case abi::conv::beta:
    return p.beta();
  }
  return nullptr;
}
void *argOf(GemmParams &p, abi::scale::Arg arg) {
  switch (arg) {
  case abi::scale::C:
    return &p.C;
  case abi::scale::M:
    return &p.M;
  case abi::scale::N:
    return &p.N;
  case abi::scale::ldc:
    return &p.ldc;
  case abi::scale::sC:
    return &p.sC;
  case abi::scale::beta:
    return p.beta();
  }
  return nullptr;
}
void *argOf(GemmParams &p, abi::reduce::Arg arg) {
  switch (arg) {
  case abi::reduce::C:
    return &p.C;
  case abi::reduce::W:
    return &p.W;
  case abi::reduce::M:
    return &p.M;
  case abi::reduce::N:
    return &p.N;
  case abi::reduce::ldc:
    return &p.ldc;
  case abi::reduce::sC:
    return &p.sC;
  case abi::reduce::KG:
    return &p.kg;
  case abi::reduce::beta:
    return p.beta();
  }
  return nullptr;
}
void *argOf(GemmParams &p, abi::tma::Arg arg) {
  switch (arg) {
  case abi::tma::tmA:
    return &p.tmA;
  case abi::tma::tmB:
    return &p.tmB;
  case abi::tma::useTma:
    return &p.useTma;
  }
  return nullptr;
}
void *argOf(GemmParams &p, int input, abi::input::Arg arg) {
  switch (arg) {
  case abi::input::in:
    return &p.inputs[input][0];
  case abi::input::sBatch:
    return &p.inputs[input][1];
  case abi::input::sRow:
    return &p.inputs[input][2];
  case abi::input::sCol:
    return &p.inputs[input][3];
  }
  return nullptr;
}

/// A kernel's parameter list in the order of KernelABI.def: its arguments
/// (`Arg` names them), the tile counters (takesTileCounters), the
/// arguments of each epilogue input, then a wgmma GEMM kernel's tensor
/// maps.
struct ParamList {
  static constexpr size_t kMaxOwn =
      abi::kNumFusedGemmArgs > abi::kNumFusedConvArgs ? abi::kNumFusedGemmArgs
                                                      : abi::kNumFusedConvArgs;
  void *params[kMaxOwn + abi::kArgsPerInput * ISAAC_MAX_EPILOGUE_INPUTS +
               abi::kNumTmaGemmArgs];
  int count = 0;

  template <typename Arg, size_t N>
  ParamList(const abi::ArgInfo (&args)[N], Arg, GemmParams &p,
            bool tileCounters = false, bool inputs = false, bool tma = false) {
    static_assert(N <= kMaxOwn, "params too short");
    for (const abi::ArgInfo &a : args)
      params[count++] = argOf(p, static_cast<Arg>(a.index));
    if (tileCounters)
      for (const abi::ArgInfo &a : abi::kFusedGemmArgs)
        params[count++] = argOf(p, static_cast<abi::gemm::Arg>(a.index));
    for (int i = 0; inputs && i < p.numInputs; ++i)
      for (const abi::ArgInfo &a : abi::kInputArgs)
        params[count++] = argOf(p, i, static_cast<abi::input::Arg>(a.index));
    if (tma)
      for (const abi::ArgInfo &a : abi::kTmaGemmArgs)
        params[count++] = argOf(p, static_cast<abi::tma::Arg>(a.index));
  }
};

/// Whether the kernel takes KernelABI.def's TMA_GEMM_ARG arguments: the
/// GEMM and convolution kernels of the wgmma family.
bool takesTensorMaps(const isaacKernelInfo &info) {
  return info.family == ISAAC_FAMILY_WGMMA;
}

/// TMA's limit on a global stride (bytes), and the alignment of the global
/// address and of every stride.
constexpr uint64_t kMaxTmaStride = uint64_t(1) << 40;
constexpr uint64_t kTmaAlign = 16;

/// Encodes the tensor map of A (`isB` false) or B (docs/abi.md, "Tensor
/// maps"): a rank-3 view (contiguous extent, other extent, batch) of the
/// operand as stored, whose box is one column block of the operand's
/// shared-memory tile (getWgmmaOperandLayout) with that block's swizzle.
/// False when the operand's address or strides are not what TMA can
/// address, or the driver refuses the map.
bool encodeTensorMap(const Driver &d, const isaacKernelInfo &info,
                     const isaacGemmArgs &a, bool isB, CUtensorMap &map) {
  DType ab = static_cast<DType>(info.dtype);
  if (!isWgmmaType(ab))
    return false;
  const uint64_t esz = dtypeSize(info.dtype);
  bool contigIsK = isB ? info.transB != 0 : info.transA == 0;
  uint64_t mn = static_cast<uint64_t>(isB ? a.N : a.M);
  uint64_t k = static_cast<uint64_t>(a.K);
  uint64_t ld = static_cast<uint64_t>(isB ? a.ldb : a.lda);
  int64_t batchStride = isB ? a.sB : a.sA;
  const void *base = isB ? a.B : a.A;
  if (reinterpret_cast<uintptr_t>(base) % kTmaAlign)
    return false;
  uint64_t globalDim[3] = {contigIsK ? k : mn, contigIsK ? mn : k,
                           static_cast<uint64_t>(a.batch)};
  uint64_t globalStrides[2] = {ld * esz, 0};
  if (a.batch > 1) {
    // A zero (broadcast) batch stride is no TMA stride; the kernel's
    // cp.async path reads it. Checked before multiplying: sA and sB may be
    // anything up to 2^63.
    if (batchStride <= 0 ||
        static_cast<uint64_t>(batchStride) >= kMaxTmaStride / esz)
      return false;
    globalStrides[1] = static_cast<uint64_t>(batchStride) * esz;
  } else {
    // Never stepped over (one matrix), but it must still be a valid
    // stride: the matrix's bytes, a multiple of 16 when the row stride is
    // (and the loop below refuses it otherwise).
    globalStrides[1] = ld * esz * globalDim[1];
  }
  // Rows (and batches) start where TMA can address them.
  for (uint64_t stride : globalStrides)
    if (stride % kTmaAlign || stride >= kMaxTmaStride)
      return false;
  WgmmaOperandLayout l =
      getWgmmaOperandLayout(configOf(info), ab, isB, contigIsK);
  int swizzle = l.atomBytes == 32   ? CU_TENSOR_MAP_SWIZZLE_32B
                : l.atomBytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                    : CU_TENSOR_MAP_SWIZZLE_128B;
  uint32_t boxDim[3] = {
      static_cast<uint32_t>(l.atomBytes / l.esz),
      static_cast<uint32_t>(wgmmaBoxRows(l, configOf(info), isB)), 1};
  uint32_t elementStrides[3] = {1, 1, 1};
  int dataType = ab == DType::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                   : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  // The kernel relies on OOB_FILL_NONE's zeros for the rows past M or N and
  // the k past K of its edge tiles.
  return d.cuTensorMapEncodeTiled(&map, dataType, 3, const_cast<void *>(base),
                                  globalDim, globalStrides, boxDim,
                                  elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
         CUDA_SUCCESS;
}

/// Encodes a convolution's input as an im2col map (docs/abi.md, "Tensor
/// maps"): the NHWC input as a rank-4 tensor {C, W, H, N}, whose box is
/// one column block of A's shared-memory tile: `atomBytes/esz` channels of
/// ML pixels. The pixels are the output pixels' traversed at the
/// convolution's strides inside a bounding box of exactly P x Q positions,
/// from (-padL, -padT); the kernel moves them by each tap's dilated
/// offsets. False where the map cannot describe the convolution
/// (ConvShape::im2colMappable: a K tile must be U channels of one tap,
/// strides at most 8, corners inside [-128, 127] (rank 4), taps' offsets
/// below 128, which the kernel passes as 16-bit im2col offsets), or where
/// the address or strides are not TMA's, or the driver refuses the map.
bool encodeIm2colMap(const Driver &d, const isaacKernelInfo &info,
                     const isaacGemmArgs &a, const ConvGeometry &g,
                     CUtensorMap &map) {
  DType ab = static_cast<DType>(info.dtype);
  if (!isWgmmaType(ab) || !d.cuTensorMapEncodeIm2col)
    return false;
  const uint64_t esz = dtypeSize(info.dtype);
  ConvShape shape = g.shape();
  if (!shape.im2colMappable(info.u) ||
      reinterpret_cast<uintptr_t>(a.A) % kTmaAlign)
    return false;
  ConvShape::Im2colBox box = shape.im2colBox();
  uint64_t globalDim[4] = {g.c, g.w, g.h, g.n};
  uint64_t globalStrides[3] = {g.c * esz, g.c * esz * g.w,
                               g.c * esz * g.w * g.h};
  for (uint64_t stride : globalStrides)
    if (stride % kTmaAlign || stride >= kMaxTmaStride)
      return false;
  WgmmaOperandLayout l =
      getWgmmaOperandLayout(configOf(info), ab, /*isB=*/false,
                            /*contigIsK=*/true);
  int swizzle = l.atomBytes == 32   ? CU_TENSOR_MAP_SWIZZLE_32B
                : l.atomBytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                    : CU_TENSOR_MAP_SWIZZLE_128B;
  int lower[2] = {static_cast<int>(box.lowerW), static_cast<int>(box.lowerH)};
  int upper[2] = {static_cast<int>(box.upperW), static_cast<int>(box.upperH)};
  uint32_t elementStrides[4] = {1, g.strideW, g.strideH, 1};
  int dataType = ab == DType::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                   : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  // OOB_FILL_NONE's zeros are the halo and the rows past M (images past N).
  return d.cuTensorMapEncodeIm2col(
             &map, dataType, 4, const_cast<void *>(a.A), globalDim,
             globalStrides, lower, upper,
             static_cast<uint32_t>(l.atomBytes / l.esz),
             static_cast<uint32_t>(l.rows), elementStrides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/// Sets a wgmma kernel's tensor maps and useTma: 1 when the driver
/// encodes both maps, else 0 with zeroed maps. Not an error: the kernel
/// then copies A and B with cp.async, which needs neither 16-byte
/// alignment nor a CUDA 12 driver. A convolution (`conv`) maps its input
/// by encodeIm2colMap and its filters as the implicit GEMM's B.
void setTensorMaps(const Driver &d, const isaacKernelInfo &info,
                   const isaacGemmArgs &a, const ConvGeometry *conv,
                   GemmParams &p) {
  // ISAAC_TMA=0 keeps every launch on the cp.async path: the same kernel
  // with and without TMA, for comparisons and as a way out.
  static const bool tmaAllowed = envFlag("ISAAC_TMA", true);
  // A block's K loop of fewer tiles than stages never fills the pipeline,
  // and TMA's setup (the stage barriers, one more block barrier, the maps'
  // fetch) then costs more than the copies save: the K = 32 LAPACK
  // problems of Table 4 ran 0.76x as fast on TMA as on cp.async on an H100
  // (docs/perf.md). A persistent block's stages run on from one output
  // tile to the next, so its pipeline fills whatever the depth: with one
  // K tile a tile, the producer fetches the next tiles' operands during
  // this one's stores (docs/perf.md, "Persistent tiles and ping-pong").
  bool pipelined =
      info.pt != 0 || configOf(info).sliceDepth(a.K) / info.u >= info.stages;
  p.useTma = tmaAllowed && pipelined && d.cuTensorMapEncodeTiled &&
             (conv ? encodeIm2colMap(d, info, a, *conv, p.tmA)
                   : encodeTensorMap(d, info, a, /*isB=*/false, p.tmA)) &&
             encodeTensorMap(d, info, a, /*isB=*/true, p.tmB);
  if (!p.useTma)
    p.tmA = p.tmB = CUtensorMap();
}

/// The kernels of one module that a launch site has looked up (getFunction),
/// so that its later launches need no lookup by name: a module's kernels
/// are never unloaded, and which ones a site launches depends only on its
/// kernel info. Null until first looked up; all null for another module.
struct SiteKernels {
  isaacModule_st *module = nullptr;
  isaacFunction_st *gemm = nullptr;
  isaacFunction_st *scale = nullptr;  ///< atomic split-K's prescale
  isaacFunction_st *reduce = nullptr; ///< the split-K reduction
};

/// `slot`, looked up by `name` on first use. Requires the cache mutex.
template <typename Name>
isaacStatus siteFunction(isaacModule_st &module, isaacFunction_st *&slot,
                         Name name, isaacFunction_st *&function) {
  if (!slot)
    if (isaacStatus status = getFunction(module, name(), slot))
      return status;
  function = slot;
  return ISAAC_SUCCESS;
}

/// Sets `function.residentBlocks` once: the blocks of `info`'s kernel the
/// current context's GPU holds at once, at its block size and `dynamicSmem`.
static isaacStatus queryResidentBlocks(const Driver &d,
                                       isaacFunction_st &function,
                                       const isaacKernelInfo &info,
                                       unsigned dynamicSmem) {
  if (function.residentBlocks)
    return ISAAC_SUCCESS;
  CUdevice device = 0;
  int sms = 0, perSM = 0;
  if (CUresult result = d.cuCtxGetDevice(&device))
    return cudaFailure(result, "cuCtxGetDevice", function.name.c_str());
  if (CUresult result = d.cuDeviceGetAttribute(
          &sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device))
    return cudaFailure(result, "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)",
                       function.name.c_str());
  if (CUresult result = d.cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &perSM, function.function, info.threads, dynamicSmem))
    return cudaFailure(result, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                       function.name.c_str());
  if (perSM < 1)
    return setError(ISAAC_ERROR_UNSUPPORTED,
                    "kernel %s: no block of %d threads and %u bytes of "
                    "shared memory fits on a multiprocessor",
                    function.name.c_str(), info.threads, dynamicSmem);
  function.residentBlocks = static_cast<int64_t>(std::max(sms, 1)) * perSM;
  return ISAAC_SUCCESS;
}

/// Enqueues a GEMM kernel, or with `conv` the convolution kernel whose
/// implicit GEMM `a` describes, and its split-K helpers. Requires arguments
/// that validateGemm accepted and a module of the current context;
/// `kernels` (the launch site's) are those of `module` or empty.
isaacStatus enqueueGemm(isaacModule_st &module, const isaacKernelInfo &info,
                        const isaacGemmArgs &a, const ConvGeometry *conv,
                        SiteKernels &kernels) {
  const Driver *d = nullptr;
  if (isaacStatus status = getDriver(d))
    return status;
  if (kernels.module != &module) {
    kernels = SiteKernels();
    kernels.module = &module;
  }

  GemmParams p = {};
  p.C = reinterpret_cast<uintptr_t>(a.C);
  p.A = reinterpret_cast<uintptr_t>(a.A);
  p.B = reinterpret_cast<uintptr_t>(a.B);
  p.M = static_cast<uint32_t>(a.M);
  p.N = static_cast<uint32_t>(a.N);
  p.K = static_cast<uint32_t>(a.K);
  p.lda = static_cast<uint32_t>(a.lda);
  p.ldb = static_cast<uint32_t>(a.ldb);
  p.ldc = static_cast<uint32_t>(a.ldc);
  // Strides of a single matrix are never read, but kernels test them for
  // vector alignment; zero keeps an arbitrary value off the fast path.
  bool batched = a.batch > 1;
  p.sA = batched ? static_cast<uint64_t>(a.sA) : 0;
  p.sB = batched ? static_cast<uint64_t>(a.sB) : 0;
  p.sC = batched ? static_cast<uint64_t>(a.sC) : 0;
  p.kg = static_cast<uint32_t>(info.kg);
  p.isF64 = accumulatorSize(info) == 8;
  p.alphaF = static_cast<float>(a.alpha);
  p.betaF = static_cast<float>(a.beta);
  p.alphaD = a.alpha;
  p.betaD = a.beta;
  if (conv)
    p.conv = *conv;
  p.numInputs = a.numInputs;
  for (int i = 0; i < a.numInputs; ++i) {
    const isaacEpilogueInput &in = a.inputs[i];
    p.inputs[i][0] = reinterpret_cast<uintptr_t>(in.ptr);
    // As for C, the batch stride of a single matrix is passed as 0.
    p.inputs[i][1] = batched ? static_cast<uint64_t>(in.sBatch) : 0;
    p.inputs[i][2] = static_cast<uint64_t>(in.sRow);
    p.inputs[i][3] = static_cast<uint64_t>(in.sCol);
  }
  bool tma = takesTensorMaps(info);
  if (tma)
    setTensorMaps(*d, info, a, conv, p);
  CUstream stream = static_cast<CUstream>(a.stream);
  bool splitK = splitsAcrossGrid(info);
  bool useWorkspace = usesWorkspace(info, a.flags);
  bool useCounters = usesTileCounters(info, a.flags);

  // Held until every kernel is enqueued: the workspace of this stream must
  // not be reallocated by another thread in between.
  std::lock_guard<std::mutex> lock(cacheMutex());
  isaacFunction_st *gemm = nullptr;
  if (isaacStatus status = siteFunction(
          module, kernels.gemm, [&] { return info.name; }, gemm))
    return status;
  if (gemm->maxThreadsPerBlock < info.threads)
    return setError(ISAAC_ERROR_UNSUPPORTED,
                    "kernel %s needs %d threads per block but can run at most "
                    "%d on this GPU (too many registers)",
                    info.name, info.threads, gemm->maxThreadsPerBlock);
  // A kernel with dynamic shared memory may use more than the default
  // 48 KiB limit of a function: raised once for the loaded function.
  unsigned dynamicSmem = info.dynsmem ? static_cast<unsigned>(info.smem) : 0;
  if (dynamicSmem > 0 && gemm->dynamicSmemLimit < info.smem) {
    if (CUresult result = d->cuFuncSetAttribute(
            gemm->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            info.smem))
      return cudaFailure(result,
                         "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                         gemm->name.c_str());
    gemm->dynamicSmemLimit = info.smem;
  }
  int64_t gridX = gridBlocksX(info, a.M), gridY = ceilDiv(a.N, info.nl);
  if (info.pt) {
    // A persistent kernel: about one wave of blocks per batch, each looping
    // over the tiles from its blockIdx.x by gridDim.x (docs/abi.md).
    if (isaacStatus status = queryResidentBlocks(*d, *gemm, info, dynamicSmem))
      return status;
    gridX = std::min(gridX * gridY,
                     std::max<int64_t>(1, gemm->residentBlocks / a.batch));
    gridY = 1;
  }
  isaacFunction_st *helper = nullptr;
  if (splitK && !useCounters) {
    // A fused epilogue is applied by its own reduction kernel.
    std::string name;
    if (isaacStatus status = siteFunction(
            module, useWorkspace ? kernels.reduce : kernels.scale,
            [&] {
              name = helperName(info, useWorkspace);
              return name.c_str();
            },
            helper))
      return status;
  }
  if (useWorkspace) {
    size_t bytes = static_cast<size_t>(a.batch) * info.kg *
                   static_cast<size_t>(a.M) * static_cast<size_t>(a.N) *
                   accumulatorSize(info);
    CUdeviceptr workspace = 0;
    if (isaacStatus status =
            getWorkspace(module.contextId, stream, bytes, workspace))
      return status;
    p.W = workspace;
  }
  if (useCounters) {
    size_t countersOffset = 0, bytes = 0;
    tileCounterLayout(info, a, countersOffset, bytes); // validateGemm's
    CUdeviceptr buffer = 0;
    if (isaacStatus status = getWorkspace(module.contextId, stream, bytes,
                                          buffer, /*zeroed=*/true))
      return status;
    p.W = buffer;
    p.S = buffer + countersOffset;
  }

  int64_t helperGridX = ceilDiv(a.N, kHelperBlockX);
  int64_t helperGridY = ceilDiv(a.M, kHelperBlockY);
  if (splitK && !useWorkspace && !useCounters) {
    ParamList scaleParams(abi::kScaleArgs, abi::scale::Arg(), p);
    if (isaacStatus status =
            launch(*d, *helper, helperGridX, helperGridY, a.batch,
                   kHelperBlockX, kHelperBlockY, stream, scaleParams.params))
      return status;
  }
  ParamList gemmParams =
      conv ? ParamList(abi::kConvArgs, abi::conv::Arg(), p,
                       takesTileCounters(info), /*inputs=*/true, tma)
           : ParamList(abi::kGemmArgs, abi::gemm::Arg(), p,
                       takesTileCounters(info), /*inputs=*/true, tma);
  if (isaacStatus status = launch(*d, *gemm, gridX, gridY,
                                  static_cast<int64_t>(a.batch) * info.kg,
                                  static_cast<unsigned>(info.threads), 1,
                                  stream, gemmParams.params, dynamicSmem))
    return status;
  if (useWorkspace) {
    ParamList reduceParams(abi::kReduceArgs, abi::reduce::Arg(), p,
                           /*tileCounters=*/false, /*inputs=*/true);
    if (isaacStatus status =
            launch(*d, *helper, helperGridX, helperGridY, a.batch,
                   kHelperBlockX, kHelperBlockY, stream, reduceParams.params))
      return status;
  }
  return ISAAC_SUCCESS;
}

/// Launches as enqueueGemm, from a module that may belong to another
/// context than the current one (isaacGemmLaunchModule and
/// isaacConvLaunchModule; their arguments are validated).
isaacStatus launchGemm(isaacModule_st &module, const isaacKernelInfo &info,
                       const isaacGemmArgs &a,
                       const ConvGeometry *conv = nullptr) {
  CUcontext ctx = nullptr;
  uint64_t ctxId = 0;
  if (isaacStatus status = getCurrentContext(&ctx, &ctxId))
    return status;
  if (ctxId != module.contextId)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "the module was loaded in another CUDA context than the "
                    "current one");
  SiteKernels kernels;
  return enqueueGemm(module, info, a, conv, kernels);
}

std::string entryContext(const char *entryPoint, const char *kernelName) {
  return std::string(entryPoint) + "(" + (kernelName ? kernelName : "NULL") +
         ")";
}

isaacGemmArgs makeArgs(void *C, const void *A, const void *B, int32_t M,
                       int32_t N, int32_t K, int32_t lda, int32_t ldb,
                       int32_t ldc, int64_t sA, int64_t sB, int64_t sC,
                       int32_t batch, double alpha, double beta, void *stream,
                       int32_t flags, int32_t numInputs,
                       const isaacEpilogueInput *inputs) {
  isaacGemmArgs args = {};
  args.C = C;
  args.A = A;
  args.B = B;
  args.M = M;
  args.N = N;
  args.K = K;
  args.lda = lda;
  args.ldb = ldb;
  args.ldc = ldc;
  args.sA = sA;
  args.sB = sB;
  args.sC = sC;
  args.batch = batch;
  args.alpha = alpha;
  args.beta = beta;
  args.stream = stream;
  args.flags = flags;
  args.numInputs = numInputs;
  args.inputs = inputs;
  return args;
}

/// What compiled code passes besides the name, to be checked against it.
struct PassedConfig {
  int32_t dtype, ml, nl, threads, kg;
};

/// The entry points of the host ABI.
enum class Entry { Gemm, GemmEpilogue, Conv, ConvEpilogue };

bool isConvEntry(Entry e) {
  return e == Entry::Conv || e == Entry::ConvEpilogue;
}
bool isEpilogueEntry(Entry e) {
  return e == Entry::GemmEpilogue || e == Entry::ConvEpilogue;
}

/// What the name and PTX header of one launch site say, parsed and checked
/// once: compiled code calls with the same string constants every time.
/// Its kernel info passed checkKernelInfo when it was parsed, and a site
/// also remembers what its launches found out that depends on nothing a
/// later launch could change: its module and kernels (valid while the
/// module's context is current), and the last convolution shape that
/// passed its checks.
struct ParsedSite {
  std::string ptxPrefix; ///< first kPtxIdentityBytes of the PTX
  std::string name;
  PassedConfig passed;
  Entry entry;
  isaacKernelInfo info;
  SiteKernels kernels;
  ValidConvShape convShape;
};

/// Per thread, so that no lock is needed; keyed by the PTX's address.
std::unordered_map<const char *, ParsedSite> &parsedSites() {
  static thread_local std::unordered_map<const char *, ParsedSite> sites;
  return sites;
}

isaacStatus parseSite(const char *entryPoint, Entry entry, const char *ptx,
                      const char *kernelName, const PassedConfig &passed,
                      isaacKernelInfo &out);

/// The host ABI: isaacGemmLaunch, isaacGemmLaunchEpilogue, and with `conv`
/// isaacConvLaunch and isaacConvLaunchEpilogue (`args` is then unused).
isaacStatus hostLaunch(const char *entryPoint, Entry entry, const char *ptx,
                       const char *kernelName, const PassedConfig &passed,
                       isaacGemmArgs args,
                       const isaacConvArgs *conv = nullptr) {
  isaacKernelInfo info = {};
  auto &sites = parsedSites();
  ParsedSite *site = nullptr;
  auto found = ptx && kernelName ? sites.find(ptx) : sites.end();
  if (found != sites.end() && found->second.entry == entry &&
      std::memcmp(&found->second.passed, &passed, sizeof passed) == 0 &&
      found->second.name == kernelName &&
      samePtxPrefix(found->second.ptxPrefix, ptx)) {
    site = &found->second;
    info = site->info;
  } else {
    if (isaacStatus status =
            parseSite(entryPoint, entry, ptx, kernelName, passed, info))
      return status;
    if (ptx && kernelName) {
      site = &sites[ptx];
      *site = ParsedSite{std::string(ptx, strnlen(ptx, kPtxIdentityBytes)),
                         kernelName,
                         passed,
                         entry,
                         info,
                         SiteKernels(),
                         ValidConvShape()};
    }
  }
  // Argument errors are reported before the driver is touched, so they
  // read the same on machines without a GPU. The kernel info passed
  // checkKernelInfo when the name or header was parsed.
  ConvGeometry geometry = {};
  isaacStatus invalid =
      conv ? validateConv(info, *conv, args, geometry, /*infoChecked=*/true,
                          site ? &site->convShape : nullptr)
           : validateGemm(info, args, /*infoChecked=*/true);
  if (invalid)
    return addErrorContext(invalid,
                           entryContext(entryPoint, kernelName).c_str());
  // The site's module if the current context is its module's; else the
  // one loadModule finds or loads (in the current context, which it makes
  // current where there was none).
  isaacModule_st *module = site ? site->kernels.module : nullptr;
  if (module) {
    CUcontext ctx = nullptr;
    uint64_t ctxId = 0;
    if (isaacStatus status = getCurrentContext(&ctx, &ctxId))
      return addErrorContext(status,
                             entryContext(entryPoint, kernelName).c_str());
    if (ctxId != module->contextId)
      module = nullptr;
  }
  if (!module)
    if (isaacStatus status = loadModule(ptx, module))
      return addErrorContext(status,
                             entryContext(entryPoint, kernelName).c_str());
  SiteKernels unused;
  if (isaacStatus status =
          enqueueGemm(*module, info, args, conv ? &geometry : nullptr,
                      site ? site->kernels : unused))
    return addErrorContext(status,
                           entryContext(entryPoint, kernelName).c_str());
  return ISAAC_SUCCESS;
}

/// Parses and checks what the kernel name (and, for a fused kernel, the
/// PTX header) say against what compiled code passed.
isaacStatus parseSite(const char *entryPoint, Entry entry, const char *ptx,
                      const char *kernelName, const PassedConfig &passed,
                      isaacKernelInfo &info) {
  std::string where = entryContext(entryPoint, kernelName);
  if (isaacStatus status = isaacParseKernelName(kernelName, &info))
    return addErrorContext(status, where.c_str());
  // The compiler passes these separately from the name; disagreement
  // means the host code and the PTX do not belong together.
  const struct {
    const char *what;
    int32_t passed, fromName;
  } fields[] = {{"dtype", passed.dtype, info.dtype},
                {"ml", passed.ml, info.ml},
                {"nl", passed.nl, info.nl},
                {"threads", passed.threads, info.threads},
                {"kg", passed.kg, info.kg}};
  for (const auto &field : fields)
    if (field.passed != field.fromName)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "%s: %s=%d disagrees with the kernel name, which "
                      "implies %d",
                      where.c_str(), field.what, field.passed, field.fromName);
  const char *plainEntry = isConv(info) ? "isaacConvLaunch" : "isaacGemmLaunch";
  const char *epilogueEntry =
      isConv(info) ? "isaacConvLaunchEpilogue" : "isaacGemmLaunchEpilogue";
  if (isConvEntry(entry) != isConv(info))
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "%s: kernel %s is a %s kernel; launch it with %s",
                    where.c_str(), info.name,
                    isConv(info) ? "convolution" : "GEMM",
                    hasEpilogue(info) ? epilogueEntry : plainEntry);
  if (isEpilogueEntry(entry) && !hasEpilogue(info))
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "%s: kernel %s has no fused epilogue (no _ep<ID> suffix); "
                    "launch it with %s",
                    where.c_str(), info.name, plainEntry);
  if (hasEpilogue(info) || usesDynamicSharedMemory(configOf(info))) {
    // Only the PTX header knows the epilogue's output and input types, and
    // the bytes of dynamic shared memory. It is parsed once per launch
    // site (parsedSites): the header is the first lines of the text.
    isaacKernelInfo header = {};
    if (isaacStatus status = isaacParseKernelInfo(ptx, &header))
      return addErrorContext(status, (where + ": PTX header").c_str());
    if (std::strcmp(header.name, info.name) != 0)
      return setError(ISAAC_ERROR_PARSE,
                      "%s: the PTX header describes kernel %s, not %s",
                      where.c_str(), header.name, info.name);
    info = header;
    if (!isEpilogueEntry(entry) && info.numInputs > 0)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "%s: kernel %s has a fused epilogue that reads %d "
                      "inputs; launch it with %s",
                      where.c_str(), info.name, info.numInputs, epilogueEntry);
  }
  return ISAAC_SUCCESS;
}

/// The host-ABI type of a C parameter type.
template <typename T> constexpr abi::HostType hostTypeOf() {
  if constexpr (std::is_pointer_v<T>)
    return abi::HostType::Ptr;
  else if constexpr (std::is_same_v<T, int32_t>)
    return abi::HostType::I32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return abi::HostType::I64;
  else {
    static_assert(std::is_same_v<T, double>, "a host ABI type");
    return abi::HostType::F64;
  }
}

/// Whether a launch function takes, in order, the arguments of `rows` and
/// then of `more` (KernelABI.def's HOST_* rows), the ones
/// isaac-lower-launch passes.
template <typename R, typename... Ps, size_t N>
constexpr bool followsHostABI(R (*)(Ps...), const abi::HostArgInfo (&rows)[N],
                              const abi::HostArgInfo *more = nullptr,
                              size_t numMore = 0) {
  constexpr abi::HostType got[] = {hostTypeOf<Ps>()...};
  if (sizeof...(Ps) != N + numMore)
    return false;
  for (size_t i = 0; i < sizeof...(Ps); ++i)
    if (got[i] != (i < N ? rows[i].type : more[i - N].type))
      return false;
  return true;
}
static_assert(followsHostABI(&isaacGemmLaunch, abi::kHostArgs),
              "isaacGemmLaunch's prototype disagrees with KernelABI.def");
static_assert(followsHostABI(&isaacGemmLaunchEpilogue, abi::kHostArgs,
                             abi::kHostEpilogueArgs,
                             abi::count(abi::kHostEpilogueArgs)),
              "isaacGemmLaunchEpilogue's prototype disagrees with "
              "KernelABI.def");
static_assert(followsHostABI(&isaacConvLaunch, abi::kHostConvArgs),
              "isaacConvLaunch's prototype disagrees with KernelABI.def");
static_assert(followsHostABI(&isaacConvLaunchEpilogue, abi::kHostConvArgs,
                             abi::kHostEpilogueArgs,
                             abi::count(abi::kHostEpilogueArgs)),
              "isaacConvLaunchEpilogue's prototype disagrees with "
              "KernelABI.def");

} // namespace
} // namespace isaac::runtime

using namespace isaac::runtime;

extern "C" isaacStatus isaacValidateGemm(const isaacKernelInfo *info,
                                         const isaacGemmArgs *args) {
  return guardExceptions("isaacValidateGemm", [&] {
    if (!info || !args)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "isaacValidateGemm: info or args is NULL");
    if (isaacStatus status = validateGemm(*info, *args))
      return addErrorContext(
          status, entryContext("isaacValidateGemm", info->name).c_str());
    return ISAAC_SUCCESS;
  });
}

extern "C" isaacStatus isaacGemmLaunchModule(isaacModule module,
                                             const isaacKernelInfo *info,
                                             const isaacGemmArgs *args) {
  return guardExceptions("isaacGemmLaunchModule", [&] {
    if (!module || !info || !args)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "isaacGemmLaunchModule: module, info or args is NULL");
    isaacStatus status = validateGemm(*info, *args);
    if (!status)
      status = launchGemm(*module, *info, *args);
    if (status)
      return addErrorContext(
          status, entryContext("isaacGemmLaunchModule", info->name).c_str());
    return ISAAC_SUCCESS;
  });
}

extern "C" int32_t
isaacGemmLaunch(const char *ptx, const char *kernelName, int32_t dtype,
                int32_t ml, int32_t nl, int32_t threads, int32_t kg, void *C,
                const void *A, const void *B, int32_t M, int32_t N, int32_t K,
                int32_t lda, int32_t ldb, int32_t ldc, int64_t sA, int64_t sB,
                int64_t sC, int32_t batch, double alpha, double beta,
                void *stream, int32_t flags) {
  return guardExceptions("isaacGemmLaunch", [&]() -> isaacStatus {
    isaacGemmArgs args =
        makeArgs(C, A, B, M, N, K, lda, ldb, ldc, sA, sB, sC, batch, alpha,
                 beta, stream, flags, /*numInputs=*/0, /*inputs=*/nullptr);
    return hostLaunch("isaacGemmLaunch", Entry::Gemm, ptx, kernelName,
                      {dtype, ml, nl, threads, kg}, args);
  });
}

extern "C" int32_t isaacGemmLaunchEpilogue(
    const char *ptx, const char *kernelName, int32_t dtype, int32_t ml,
    int32_t nl, int32_t threads, int32_t kg, void *C, const void *A,
    const void *B, int32_t M, int32_t N, int32_t K, int32_t lda, int32_t ldb,
    int32_t ldc, int64_t sA, int64_t sB, int64_t sC, int32_t batch,
    double alpha, double beta, void *stream, int32_t flags, int32_t numInputs,
    const isaacEpilogueInput *inputs) {
  return guardExceptions("isaacGemmLaunchEpilogue", [&]() -> isaacStatus {
    isaacGemmArgs args =
        makeArgs(C, A, B, M, N, K, lda, ldb, ldc, sA, sB, sC, batch, alpha,
                 beta, stream, flags, numInputs, inputs);
    return hostLaunch("isaacGemmLaunchEpilogue", Entry::GemmEpilogue, ptx,
                      kernelName, {dtype, ml, nl, threads, kg}, args);
  });
}

extern "C" isaacStatus isaacValidateConv(const isaacKernelInfo *info,
                                         const isaacConvArgs *args) {
  return guardExceptions("isaacValidateConv", [&] {
    if (!info || !args)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "isaacValidateConv: info or args is NULL");
    isaacGemmArgs gemm = {};
    ConvGeometry geometry = {};
    if (isaacStatus status = validateConv(*info, *args, gemm, geometry))
      return addErrorContext(
          status, entryContext("isaacValidateConv", info->name).c_str());
    return ISAAC_SUCCESS;
  });
}

extern "C" isaacStatus isaacConvLaunchModule(isaacModule module,
                                             const isaacKernelInfo *info,
                                             const isaacConvArgs *args) {
  return guardExceptions("isaacConvLaunchModule", [&] {
    if (!module || !info || !args)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "isaacConvLaunchModule: module, info or args is NULL");
    isaacGemmArgs gemm = {};
    ConvGeometry geometry = {};
    isaacStatus status = validateConv(*info, *args, gemm, geometry);
    if (!status)
      status = launchGemm(*module, *info, gemm, &geometry);
    if (status)
      return addErrorContext(
          status, entryContext("isaacConvLaunchModule", info->name).c_str());
    return ISAAC_SUCCESS;
  });
}

namespace {
/// isaacConvLaunch and isaacConvLaunchEpilogue.
int32_t hostConvLaunch(const char *entryPoint, Entry entry, const char *ptx,
                       const char *kernelName, const PassedConfig &passed,
                       isaacConvArgs conv) {
  return guardExceptions(entryPoint, [&]() -> isaacStatus {
    return hostLaunch(entryPoint, entry, ptx, kernelName, passed,
                      isaacGemmArgs{}, &conv);
  });
}

isaacConvArgs makeConvArgs(void *O, const void *I, const void *F, int32_t N,
                           int32_t H, int32_t W, int32_t C, int32_t K,
                           int32_t R, int32_t S, int32_t P, int32_t Q,
                           int32_t strideH, int32_t strideW, int32_t dilationH,
                           int32_t dilationW, int32_t padTop, int32_t padLeft,
                           double alpha, double beta, void *stream,
                           int32_t flags, int32_t numInputs,
                           const isaacEpilogueInput *inputs) {
  isaacConvArgs conv = {};
  conv.O = O;
  conv.I = I;
  conv.F = F;
  conv.N = N;
  conv.H = H;
  conv.W = W;
  conv.C = C;
  conv.K = K;
  conv.R = R;
  conv.S = S;
  conv.P = P;
  conv.Q = Q;
  conv.strideH = strideH;
  conv.strideW = strideW;
  conv.dilationH = dilationH;
  conv.dilationW = dilationW;
  conv.padTop = padTop;
  conv.padLeft = padLeft;
  conv.alpha = alpha;
  conv.beta = beta;
  conv.stream = stream;
  conv.flags = flags;
  conv.numInputs = numInputs;
  conv.inputs = inputs;
  return conv;
}
} // namespace

extern "C" int32_t
isaacConvLaunch(const char *ptx, const char *kernelName, int32_t dtype,
                int32_t ml, int32_t nl, int32_t threads, int32_t kg, void *O,
                const void *I, const void *F, int32_t N, int32_t H, int32_t W,
                int32_t C, int32_t K, int32_t R, int32_t S, int32_t P,
                int32_t Q, int32_t strideH, int32_t strideW, int32_t dilationH,
                int32_t dilationW, int32_t padTop, int32_t padLeft,
                double alpha, double beta, void *stream, int32_t flags) {
  return hostConvLaunch(
      "isaacConvLaunch", Entry::Conv, ptx, kernelName,
      {dtype, ml, nl, threads, kg},
      makeConvArgs(O, I, F, N, H, W, C, K, R, S, P, Q, strideH, strideW,
                   dilationH, dilationW, padTop, padLeft, alpha, beta, stream,
                   flags, /*numInputs=*/0, /*inputs=*/nullptr));
}

extern "C" int32_t isaacConvLaunchEpilogue(
    const char *ptx, const char *kernelName, int32_t dtype, int32_t ml,
    int32_t nl, int32_t threads, int32_t kg, void *O, const void *I,
    const void *F, int32_t N, int32_t H, int32_t W, int32_t C, int32_t K,
    int32_t R, int32_t S, int32_t P, int32_t Q, int32_t strideH,
    int32_t strideW, int32_t dilationH, int32_t dilationW, int32_t padTop,
    int32_t padLeft, double alpha, double beta, void *stream, int32_t flags,
    int32_t numInputs, const isaacEpilogueInput *inputs) {
  return hostConvLaunch("isaacConvLaunchEpilogue", Entry::ConvEpilogue, ptx,
                        kernelName, {dtype, ml, nl, threads, kg},
                        makeConvArgs(O, I, F, N, H, W, C, K, R, S, P, Q,
                                     strideH, strideW, dilationH, dilationW,
                                     padTop, padLeft, alpha, beta, stream,
                                     flags, numInputs, inputs));
}
