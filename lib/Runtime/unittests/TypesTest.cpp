//===- TypesTest.cpp - Kernels of 16-bit and TF32 element types -----------===//
//
// The element types of docs/abi.md beyond f32 and f64: f16 and bf16
// operands with a 16-bit or f32 C (f32 accumulation, alpha and beta), and
// f32 operands multiplied in TF32. Without a driver: what names and headers
// say about the types, and what validation refuses (alignment to each
// operand's own size, types that do not go together). With the fake driver:
// the parameter bytes of every launch (alpha and beta as f32 whatever the
// operands), and split-K, where a 16-bit C reduces through an f32 workspace
// in both modes and an f32 C works as for f32 kernels. And f64 on the mma
// family (DMMA): f64 alpha, beta and split-K, as f64 simt kernels.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"
#include "TestUtil.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

template <typename T> T param(const FakeLaunch &launch, int index) {
  T value;
  std::memcpy(&value, launch.params[index], sizeof(T));
  return value;
}

/// An mma kernel (bf16 operands, f32 C, split over K): 32 threads per
/// 64 x 32 warp tile of its 128 x 64 block tile.
const char *const kMma =
    "isaac_gemm_bf16f32_nt_mma_ml128_nl64_wm64_wn32_u32_kl1_kg4_v8_st3";
/// An f64 mma kernel (DMMA), layout tn, split over K and KL.
const char *const kMmaF64 =
    "isaac_gemm_f64_tn_mma_ml64_nl32_wm32_wn16_u16_kl2_kg4_v2_st4";

/// The same configuration in each types token: the runtime reads the
/// types from the name whatever the family.
std::string kernelName(const char *types, const char *layout, int kg) {
  return std::string("isaac_gemm_") + types + "_" + layout +
         "_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg" + std::to_string(kg) + "_v4";
}

void testTypesFromNames() {
  const struct {
    const char *token;
    int dtype, cDtype, computeDtype, tf32;
  } tokens[] = {
      {"f32", ISAAC_F32, ISAAC_F32, ISAAC_F32, 0},
      {"f64", ISAAC_F64, ISAAC_F64, ISAAC_F64, 0},
      {"f16", ISAAC_F16, ISAAC_F16, ISAAC_F32, 0},
      {"bf16", ISAAC_BF16, ISAAC_BF16, ISAAC_F32, 0},
      {"f16f32", ISAAC_F16, ISAAC_F32, ISAAC_F32, 0},
      {"bf16f32", ISAAC_BF16, ISAAC_F32, ISAAC_F32, 0},
      {"tf32", ISAAC_F32, ISAAC_F32, ISAAC_F32, 1},
  };
  for (const auto &t : tokens) {
    std::string name = kernelName(t.token, "tn", 1);
    isaacKernelInfo info;
    CHECK_STATUS(isaacParseKernelName(name.c_str(), &info), ISAAC_SUCCESS, "");
    CHECK(info.dtype == t.dtype && info.cDtype == t.cDtype &&
          info.outDtype == t.cDtype && info.computeDtype == t.computeDtype &&
          info.tf32 == t.tf32);
    CHECK(info.transA == 1 && info.transB == 0 && info.threads == 64);
    // The header's dtype= key repeats the token.
    std::string header = "// isaac.kernel name=" + name + " dtype=" + t.token +
                         " layout=tn ml=64 nl=32 ms=8 ns=4 u=8 ks=1 kl=1 kg=1 "
                         "vec=4 threads=64 smem=4096\n";
    isaacKernelInfo fromHeader;
    CHECK_STATUS(isaacParseKernelInfo(header.c_str(), &fromHeader),
                 ISAAC_SUCCESS, "");
    CHECK(fromHeader.dtype == info.dtype && fromHeader.cDtype == info.cDtype &&
          fromHeader.outDtype == info.outDtype &&
          fromHeader.tf32 == info.tf32 &&
          fromHeader.computeDtype == info.computeDtype &&
          fromHeader.smem == 4096);
  }
  // A token must match the name's whole types, not a prefix of them.
  std::string header = "// isaac.kernel name=" + kernelName("f16f32", "nn", 1) +
                       " dtype=f16 layout=nn ml=64 nl=32 ms=8 ns=4 u=8 ks=1 "
                       "kl=1 kg=1 vec=4 threads=64 smem=0\n";
  isaacKernelInfo info;
  CHECK_STATUS(isaacParseKernelInfo(header.c_str(), &info), ISAAC_ERROR_PARSE,
               "dtype=f16 disagrees with name");
  for (const char *bad : {"isaac_gemm_f16f64_nn_ml64_nl32_ms8_ns4_u8_ks1_kl1_"
                          "kg1_v4",
                          "isaac_gemm_tf16_nn_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_"
                          "v4"})
    CHECK_STATUS(isaacParseKernelName(bad, &info), ISAAC_ERROR_PARSE,
                 "expected an element-type token");

  // The mma family: the same types, a warp tile instead of a thread tile.
  CHECK_STATUS(isaacParseKernelName(kMma, &info), ISAAC_SUCCESS, "");
  CHECK(info.family == ISAAC_FAMILY_MMA && info.dtype == ISAAC_BF16 &&
        info.cDtype == ISAAC_F32 && info.outDtype == ISAAC_F32 &&
        info.computeDtype == ISAAC_F32 && info.tf32 == 0);
  CHECK(info.ml == 128 && info.nl == 64 && info.wm == 64 && info.wn == 32 &&
        info.kg == 4 && info.stages == 3 && info.threads == 128);
  // f64 on the mma family: f64 throughout.
  CHECK_STATUS(isaacParseKernelName(kMmaF64, &info), ISAAC_SUCCESS, "");
  CHECK(info.family == ISAAC_FAMILY_MMA && info.dtype == ISAAC_F64 &&
        info.cDtype == ISAAC_F64 && info.outDtype == ISAAC_F64 &&
        info.computeDtype == ISAAC_F64 && info.tf32 == 0);
  CHECK(info.ml == 64 && info.nl == 32 && info.wm == 32 && info.wn == 16 &&
        info.u == 16 && info.kl == 2 && info.kg == 4 && info.vec == 2 &&
        info.stages == 4 && info.threads == 32 * 2 * 2 * 2);
}

/// An isaacGemmArgs that fits kernelName(..., "nn", kg) with K = 30.
isaacGemmArgs argsFor() {
  isaacGemmArgs args = {};
  args.C = reinterpret_cast<void *>(0x10000);
  args.A = reinterpret_cast<const void *>(0x20000);
  args.B = reinterpret_cast<const void *>(0x30000);
  args.M = 100;
  args.N = 70;
  args.K = 30;
  args.lda = 31;
  args.ldb = 71;
  args.ldc = 73;
  args.batch = 1;
  args.alpha = 1.5;
  args.beta = 0.5;
  return args;
}

void testValidation() {
  isaacKernelInfo f16, f16f32, tf32;
  CHECK_STATUS(isaacParseKernelName(kernelName("f16", "nn", 1).c_str(), &f16),
               ISAAC_SUCCESS, "");
  CHECK_STATUS(
      isaacParseKernelName(kernelName("f16f32", "nn", 1).c_str(), &f16f32),
      ISAAC_SUCCESS, "");
  CHECK_STATUS(isaacParseKernelName(kernelName("tf32", "nn", 1).c_str(), &tf32),
               ISAAC_SUCCESS, "");
  isaacGemmArgs args = argsFor();
  CHECK_STATUS(isaacValidateGemm(&f16, &args), ISAAC_SUCCESS, "");
  // 16-bit operands and C need 2-byte alignment only; an f32 C needs 4.
  args.A = reinterpret_cast<const void *>(0x20002);
  args.B = reinterpret_cast<const void *>(0x30006);
  args.C = reinterpret_cast<void *>(0x10002);
  CHECK_STATUS(isaacValidateGemm(&f16, &args), ISAAC_SUCCESS, "");
  CHECK_STATUS(isaacValidateGemm(&f16f32, &args), ISAAC_ERROR_INVALID_VALUE,
               "C=0x10002 is not aligned to the 4-byte element size");
  args.C = reinterpret_cast<void *>(0x10004);
  CHECK_STATUS(isaacValidateGemm(&f16f32, &args), ISAAC_SUCCESS, "");
  CHECK_STATUS(isaacValidateGemm(&tf32, &args), ISAAC_ERROR_INVALID_VALUE,
               "A=0x20002 is not aligned to the 4-byte element size");
  args.A = reinterpret_cast<const void *>(0x20001);
  CHECK_STATUS(isaacValidateGemm(&f16, &args), ISAAC_ERROR_INVALID_VALUE,
               "A=0x20001 is not aligned to the 2-byte element size");
  args = argsFor();
  args.lda = 29;
  CHECK_STATUS(isaacValidateGemm(&f16, &args), ISAAC_ERROR_INVALID_VALUE,
               "lda=29 is smaller than K=30");

  // Descriptions whose types do not go together are refused.
  args = argsFor();
  isaacKernelInfo edited = f16;
  edited.cDtype = edited.outDtype = ISAAC_F64;
  CHECK_STATUS(isaacValidateGemm(&edited, &args), ISAAC_ERROR_INVALID_VALUE,
               "cDtype=1 does not go with dtype=2");
  edited = f16;
  edited.computeDtype = ISAAC_F16;
  CHECK_STATUS(isaacValidateGemm(&edited, &args), ISAAC_ERROR_INVALID_VALUE,
               "computeDtype=2, but f16 operands accumulate in f32");
  edited = f16;
  edited.tf32 = 1;
  CHECK_STATUS(isaacValidateGemm(&edited, &args), ISAAC_ERROR_INVALID_VALUE,
               "only f32 operands (dtype 0) can be multiplied in TF32");
  edited = f16;
  edited.dtype = 4;
  CHECK_STATUS(isaacValidateGemm(&edited, &args), ISAAC_ERROR_INVALID_VALUE,
               "dtype=4 is not 0 (f32), 1 (f64), 2 (f16) or 3 (bf16)");
  edited = f16f32;
  edited.outDtype = ISAAC_F16;
  CHECK_STATUS(isaacValidateGemm(&edited, &args), ISAAC_ERROR_INVALID_VALUE,
               "has no fused epilogue, so outDtype=2 must equal cDtype=0");
}

//===--- Launches through the fake driver ---------------------------------===//

const FakeCudaApi *fake = nullptr;

FakeLaunch launchAt(int index) { return *fake->launch(index); }

struct Gemm {
  std::string name;
  int dtype, kg;
  uintptr_t C = 0x10000, A = 0x20002, B = 0x30002;
  int M = 100, N = 70, K = 1000, lda = 1001, ldb = 71, ldc = 73;
  int64_t sA = 0, sB = 0, sC = 0;
  int batch = 1;
  double alpha = 1.0 / 3.0, beta = -2.0 / 3.0; // not floats: rounded
  void *stream = reinterpret_cast<void *>(0x5000);
  int flags = 0;

  int launch(const std::string &ptx) const {
    return isaacGemmLaunch(ptx.c_str(), name.c_str(), dtype, 64, 32, 64, kg,
                           reinterpret_cast<void *>(C),
                           reinterpret_cast<const void *>(A),
                           reinterpret_cast<const void *>(B), M, N, K, lda, ldb,
                           ldc, sA, sB, sC, batch, alpha, beta, stream, flags);
  }
};

/// The 15 parameters byte by byte: pointers and sizes as for every
/// kernel, alpha and beta as f32 (4 bytes, the doubles rounded); then a
/// 16-bit C's tile counters, `counters`.
void checkGemmParams(const FakeLaunch &l, const Gemm &g, uint64_t workspace,
                     uint64_t counters = 0) {
  CHECK(std::strcmp(l.name, g.name.c_str()) == 0);
  CHECK(l.numParams == (sixteenBitC(g.name) ? 16 : 15));
  static const int sizes[] = {8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8, 4, 4, 8};
  for (int i = 0; i < l.numParams && i < 16; ++i)
    CHECK(l.paramSizes[i] == sizes[i]);
  if (sixteenBitC(g.name))
    CHECK(param<uint64_t>(l, 15) == counters);
  CHECK(param<uint64_t>(l, 0) == g.C);
  CHECK(param<uint64_t>(l, 1) == g.A);
  CHECK(param<uint64_t>(l, 2) == g.B);
  CHECK(param<uint64_t>(l, 3) == workspace);
  const uint32_t u32[] = {
      static_cast<uint32_t>(g.M),   static_cast<uint32_t>(g.N),
      static_cast<uint32_t>(g.K),   static_cast<uint32_t>(g.lda),
      static_cast<uint32_t>(g.ldb), static_cast<uint32_t>(g.ldc)};
  for (int i = 0; i < 6; ++i)
    CHECK(param<uint32_t>(l, 4 + i) == u32[i]);
  bool batched = g.batch > 1;
  CHECK(param<uint64_t>(l, 10) == (batched ? uint64_t(g.sA) : 0));
  CHECK(param<uint64_t>(l, 11) == (batched ? uint64_t(g.sB) : 0));
  CHECK(param<uint64_t>(l, 12) == (batched ? uint64_t(g.sC) : 0));
  float alpha = static_cast<float>(g.alpha), beta = static_cast<float>(g.beta);
  CHECK(std::memcmp(l.params[13], &alpha, 4) == 0);
  CHECK(std::memcmp(l.params[14], &beta, 4) == 0);
  CHECK(l.grid[0] == 2u && l.grid[1] == 3u);
  CHECK(l.grid[2] == static_cast<unsigned>(g.batch * g.kg));
  CHECK(l.block[0] == 64u && l.block[1] == 1u && l.block[2] == 1u);
  CHECK(l.stream == g.stream);
}

/// isaac_splitk_reduce_<C>(C, W, M, N, ldc, sC, KG, beta f32).
void checkReduce(const FakeLaunch &l, const char *name, const Gemm &g,
                 uint64_t workspace) {
  CHECK(std::strcmp(l.name, name) == 0);
  CHECK(l.numParams == 8);
  CHECK(l.paramSizes[7] == 4);
  CHECK(param<uint64_t>(l, 0) == g.C);
  CHECK(param<uint64_t>(l, 1) == workspace);
  CHECK(param<uint32_t>(l, 2) == static_cast<uint32_t>(g.M));
  CHECK(param<uint32_t>(l, 3) == static_cast<uint32_t>(g.N));
  CHECK(param<uint32_t>(l, 4) == static_cast<uint32_t>(g.ldc));
  CHECK(param<uint64_t>(l, 5) == (g.batch > 1 ? uint64_t(g.sC) : 0));
  CHECK(param<uint32_t>(l, 6) == static_cast<uint32_t>(g.kg));
  float beta = static_cast<float>(g.beta);
  CHECK(std::memcmp(l.params[7], &beta, 4) == 0);
  CHECK(l.grid[0] == static_cast<unsigned>((g.N + 31) / 32));
  CHECK(l.grid[1] == static_cast<unsigned>((g.M + 7) / 8));
  CHECK(l.grid[2] == static_cast<unsigned>(g.batch));
  CHECK(l.block[0] == 32u && l.block[1] == 8u);
}

void testPlainLaunches() {
  const struct {
    const char *token;
    int dtype;
  } types[] = {{"f16", ISAAC_F16},
               {"bf16", ISAAC_BF16},
               {"f16f32", ISAAC_F16},
               {"bf16f32", ISAAC_BF16},
               {"tf32", ISAAC_F32}};
  for (const auto &t : types) {
    fake->reset();
    Gemm g{kernelName(t.token, "nn", 1), t.dtype, 1};
    if (t.dtype == ISAAC_F32) {
      g.A = 0x20004;
      g.B = 0x30004;
    }
    g.batch = 3;
    g.sA = 100 * 1001 + 1;
    g.sB = 1000 * 71;
    g.sC = 100 * 73;
    int allocations = fake->allocations();
    CHECK_STATUS(g.launch(ptxWith({g.name})), ISAAC_SUCCESS, "");
    CHECK(fake->launchCount() == 1);
    CHECK(fake->allocations() == allocations);
    if (fake->launchCount() == 1)
      checkGemmParams(launchAt(0), g, 0);
    // Compiled code passes the operands' type; another is refused.
    Gemm wrong = g;
    wrong.dtype = t.dtype == ISAAC_F32 ? ISAAC_F64 : ISAAC_F32;
    CHECK_STATUS(wrong.launch(ptxWith({g.name})), ISAAC_ERROR_INVALID_VALUE,
                 "dtype=" + std::to_string(wrong.dtype) +
                     " disagrees with the kernel name, which implies " +
                     std::to_string(t.dtype));
  }
}

/// A 16-bit C takes no atomics and no scale kernel: its slices' f32 sums
/// are converted once. Up to KG = 16, and in deterministic mode, through
/// the f32 workspace of batch*KG*M*N, S = 0, then
/// isaac_splitk_reduce_<C type>. Above, in atomic mode, one launch: the
/// kernel gets W = T (batch*M*N f32) and S behind it (one u32 per tile,
/// batch*2*3), both in the stream's zeroed buffer.
void testNarrowSplitK() {
  for (int kg : {4, 32}) {
    for (const char *token : {"f16", "bf16"}) {
      for (int flags : {0, int(ISAAC_DETERMINISTIC)}) {
        fake->reset();
        Gemm g{kernelName(token, "nn", kg),
               std::string(token) == "f16" ? ISAAC_F16 : ISAAC_BF16, kg};
        g.flags = flags;
        g.batch = 2;
        g.sA = 100 * 1001;
        g.sB = 1000 * 71;
        g.sC = 100 * 73;
        // A stream no other test uses: its buffers are allocated here.
        g.stream = reinterpret_cast<void *>(
            0xa000 + kg * 0x1000 + flags * 0x100 + (token[0] == 'b') * 0x10);
        std::string reduce = std::string("isaac_splitk_reduce_") + token;
        // The module has the f32 helpers too: the runtime must not pick
        // them.
        std::string ptx = ptxWith(
            {g.name, reduce, "isaac_scale_f32", "isaac_splitk_reduce_f32"});
        int allocations = fake->allocations();
        CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
        CHECK(fake->allocations() == allocations + 1);
        uint64_t buffer = fake->lastAllocation();
        if (kg > 16 && flags == 0) {
          // T: 2*100*70 f32, then S 256-byte aligned: 6 counters.
          size_t tBytes = size_t(2) * 100 * 70 * 4;
          uint64_t counters = buffer + (tBytes + 255) / 256 * 256;
          CHECK(fake->lastAllocationBytes() >= tBytes + 256 + 24);
          CHECK(fake->launchCount() == 1);
          if (fake->launchCount() == 1)
            checkGemmParams(launchAt(0), g, buffer, counters);
          continue;
        }
        CHECK(fake->lastAllocationBytes() >= size_t(2) * kg * 100 * 70 * 4);
        CHECK(fake->launchCount() == 2);
        if (fake->launchCount() != 2)
          continue;
        checkGemmParams(launchAt(0), g, buffer, 0);
        checkReduce(launchAt(1), reduce.c_str(), g, buffer);
      }
      // Without its reducer a launch that needs it is refused.
      Gemm g{kernelName(token, "nn", kg),
             std::string(token) == "f16" ? ISAAC_F16 : ISAAC_BF16, kg};
      g.flags = ISAAC_DETERMINISTIC;
      CHECK_STATUS(
          g.launch(
              ptxWith({g.name, "isaac_scale_f32", "isaac_splitk_reduce_f32"})),
          ISAAC_ERROR_KERNEL_NOT_FOUND,
          std::string("no kernel named 'isaac_splitk_reduce_") + token + "'");
    }
  }
}

/// An f32 C (f16f32, bf16f32, tf32): atomic mode scales C with
/// isaac_scale_f32 first (beta as f32) and passes W = 0; deterministic
/// mode reduces an f32 workspace with isaac_splitk_reduce_f32.
void testWideSplitK() {
  const struct {
    const char *token;
    int dtype;
  } types[] = {
      {"f16f32", ISAAC_F16}, {"bf16f32", ISAAC_BF16}, {"tf32", ISAAC_F32}};
  for (const auto &t : types) {
    fake->reset();
    Gemm g{kernelName(t.token, "tt", 8), t.dtype, 8};
    g.A = 0x20004;
    g.B = 0x30004;
    g.lda = 101;  // A stored K x M
    g.ldb = 1003; // B stored N x K
    std::string ptx = ptxWith({g.name, "isaac_scale_f32",
                               "isaac_splitk_reduce_f32", "isaac_scale_f16"});
    int allocations = fake->allocations();
    CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
    CHECK(fake->allocations() == allocations);
    CHECK(fake->launchCount() == 2);
    if (fake->launchCount() == 2) {
      FakeLaunch scale = launchAt(0);
      CHECK(std::strcmp(scale.name, "isaac_scale_f32") == 0);
      CHECK(scale.numParams == 6 && scale.paramSizes[5] == 4);
      CHECK(param<uint64_t>(scale, 0) == g.C);
      float beta = static_cast<float>(g.beta);
      CHECK(std::memcmp(scale.params[5], &beta, 4) == 0);
      checkGemmParams(launchAt(1), g, 0);
    }
    fake->reset();
    g.flags = ISAAC_DETERMINISTIC;
    g.stream = reinterpret_cast<void *>(0xb000 + t.dtype * 0x10);
    allocations = fake->allocations();
    CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
    CHECK(fake->allocations() == allocations + 1);
    CHECK(fake->lastAllocationBytes() >= size_t(8) * 100 * 70 * 4);
    uint64_t workspace = fake->lastAllocation();
    CHECK(fake->launchCount() == 2);
    if (fake->launchCount() == 2) {
      checkGemmParams(launchAt(0), g, workspace);
      checkReduce(launchAt(1), "isaac_splitk_reduce_f32", g, workspace);
    }
  }
}

/// mma kernels through the host ABI, described by their PTX header
/// (dynamic shared memory: 3 stages of a 128 x 32 and a 32 x 64 bf16 tile,
/// launched with that many bytes): 32 threads per warp tile, alpha and beta as
/// f32, and split over K, with an f32 C the scale kernel first (atomic
/// mode), with a bf16 C the f32 workspace and isaac_splitk_reduce_bf16.
void testMmaLaunch() {
  for (bool narrow : {false, true}) {
    std::string name = narrow ? "isaac_gemm_bf16_nt_mma_ml128_nl64_wm64_wn32_"
                                "u32_kl1_kg4_v8_st3"
                              : kMma;
    std::string header = "// isaac.kernel name=" + name +
                         " dtype=" + (narrow ? "bf16" : "bf16f32") +
                         " layout=nt ml=128 nl=64 wm=64 wn=32 u=32 kl=1 kg=4 "
                         "vec=8 stages=3 threads=128 smem=36864 dynsmem=1 "
                         "chip=sm_90\n";
    std::string ptx =
        header + ptxWith({name, "isaac_scale_f32", "isaac_splitk_reduce_f32",
                          "isaac_splitk_reduce_bf16"});
    fake->reset();
    Gemm g{name, ISAAC_BF16, 4};
    g.ldb = 1000; // B stored N x K
    g.stream = reinterpret_cast<void *>(0xc000 + narrow * 0x10);
    int32_t status = isaacGemmLaunch(
        ptx.c_str(), name.c_str(), ISAAC_BF16, 128, 64, 128, 4,
        reinterpret_cast<void *>(g.C), reinterpret_cast<const void *>(g.A),
        reinterpret_cast<const void *>(g.B), g.M, g.N, g.K, g.lda, g.ldb, g.ldc,
        0, 0, 0, 1, g.alpha, g.beta, g.stream, 0);
    CHECK_STATUS(status, ISAAC_SUCCESS, "");
    CHECK(fake->launchCount() == 2);
    if (fake->launchCount() != 2)
      continue;
    FakeLaunch l = launchAt(narrow ? 0 : 1);
    CHECK(std::strcmp(l.name, name.c_str()) == 0);
    CHECK(l.grid[0] == 1u && l.grid[1] == 2u && l.grid[2] == 4u);
    CHECK(l.block[0] == 128u && l.sharedMemBytes == 36864u);
    float alpha = static_cast<float>(g.alpha);
    CHECK(l.paramSizes[13] == 4 && std::memcmp(l.params[13], &alpha, 4) == 0);
    uint64_t workspace = param<uint64_t>(l, 3);
    if (narrow) {
      // The tile counters (parameter 15) are 0 at KG = 4.
      CHECK(workspace != 0);
      CHECK(l.numParams == 16 && param<uint64_t>(l, 15) == 0);
      checkReduce(launchAt(1), "isaac_splitk_reduce_bf16", g, workspace);
    } else {
      CHECK(workspace == 0 && l.numParams == 15);
      CHECK(std::strcmp(launchAt(0).name, "isaac_scale_f32") == 0);
    }
  }
}

/// An f64 mma kernel through the host ABI, described by its PTX header
/// (dynamic shared memory: 4 stages of (64 + 32) x 16 f64 = 49152 bytes,
/// above the 48 KiB of static shared memory): 32 threads per warp tile
/// and KL group, alpha and beta as f64 (8 bytes, every bit), and split
/// over K in both modes: atomic (isaac_scale_f64 first, no workspace) and
/// deterministic (an f64 workspace, then isaac_splitk_reduce_f64).
void testMmaLaunchF64() {
  std::string header = std::string("// isaac.kernel name=") + kMmaF64 +
                       " dtype=f64 layout=tn ml=64 nl=32 wm=32 wn=16 u=16 "
                       "kl=2 kg=4 vec=2 stages=4 threads=256 smem=49152 "
                       "dynsmem=1 chip=sm_90\n";
  std::string ptx =
      header + ptxWith({kMmaF64, "isaac_scale_f64", "isaac_splitk_reduce_f64"});
  for (bool deterministic : {false, true}) {
    fake->reset();
    Gemm g{kMmaF64, ISAAC_F64, 4};
    g.A = 0x20000; // aligned to f64
    g.B = 0x30000;
    g.lda = 100; // A stored K x M
    g.ldb = 70;  // B stored K x N
    g.alpha = 1.0 / 3.0;
    g.beta = 2.0 / 3.0; // not floats: every bit must reach the kernel
    g.flags = deterministic ? ISAAC_DETERMINISTIC : 0;
    g.stream = reinterpret_cast<void *>(0xd000 + deterministic * 0x10);
    int allocations = fake->allocations();
    int32_t status = isaacGemmLaunch(
        ptx.c_str(), kMmaF64, ISAAC_F64, 64, 32, 256, 4,
        reinterpret_cast<void *>(g.C), reinterpret_cast<const void *>(g.A),
        reinterpret_cast<const void *>(g.B), g.M, g.N, g.K, g.lda, g.ldb, g.ldc,
        0, 0, 0, 1, g.alpha, g.beta, g.stream, g.flags);
    CHECK_STATUS(status, ISAAC_SUCCESS, "");
    CHECK(fake->launchCount() == 2);
    if (fake->launchCount() != 2)
      continue;
    FakeLaunch l = launchAt(deterministic ? 0 : 1);
    CHECK(std::strcmp(l.name, kMmaF64) == 0);
    CHECK(l.grid[0] == 2u && l.grid[1] == 3u && l.grid[2] == 4u);
    CHECK(l.block[0] == 256u && l.sharedMemBytes == 49152u);
    CHECK(l.numParams == 15 && l.paramSizes[13] == 8 && l.paramSizes[14] == 8);
    CHECK(param<double>(l, 13) == g.alpha && param<double>(l, 14) == g.beta);
    uint64_t workspace = param<uint64_t>(l, 3);
    if (deterministic) {
      CHECK(workspace != 0 && fake->allocations() == allocations + 1);
      CHECK(fake->lastAllocationBytes() >= size_t(4) * 100 * 70 * 8);
      FakeLaunch r = launchAt(1);
      CHECK(std::strcmp(r.name, "isaac_splitk_reduce_f64") == 0);
      CHECK(r.numParams == 8 && r.paramSizes[7] == 8);
      CHECK(param<uint64_t>(r, 1) == workspace);
      CHECK(param<double>(r, 7) == g.beta);
    } else {
      CHECK(workspace == 0);
      CHECK(std::strcmp(launchAt(0).name, "isaac_scale_f64") == 0);
    }
  }
}

} // namespace

void runTypeTests() {
  testTypesFromNames();
  testValidation();
}

void runTypeLaunchTests(const FakeCudaApi &api) {
  fake = &api;
  testPlainLaunches();
  testNarrowSplitK();
  testWideSplitK();
  testMmaLaunch();
  testMmaLaunchF64();
}
