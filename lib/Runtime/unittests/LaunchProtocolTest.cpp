//===- LaunchProtocolTest.cpp - Launches as docs/abi.md specifies ---------===//
//
// Runs the runtime against FakeCudaDriver, which records every launch with
// its parameter bytes, to check what no CPU-only test could otherwise see:
// the kernel parameters' order, sizes and values, the grids and blocks, the
// helper kernels and workspace of split-K, the module cache, and the extra
// parameters and reduction of kernels with a fused epilogue.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"
#include "TestUtil.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <thread>
#include <vector>

namespace {

FakeCudaApi fake;
int (*fakeSetCurrent)(void *ctx) = nullptr;

template <typename T> T param(const FakeLaunch &launch, int index) {
  T value;
  std::memcpy(&value, launch.params[index], sizeof(T));
  return value;
}

/// A copy: the fake's storage moves when more launches are recorded.
FakeLaunch launchAt(int index) { return *fake.launch(index); }

struct Gemm {
  const char *name;
  int dtype, ml, nl, threads, kg;
  uintptr_t C = 0x10000, A = 0x20000, B = 0x30000;
  int M = 100, N = 70, K = 30, lda = 33, ldb = 31, ldc = 71;
  int64_t sA = -1, sB = -1, sC = -1;
  int batch = 1;
  double alpha = 1.5, beta = 0.5;
  void *stream = reinterpret_cast<void *>(0x5000);
  int flags = 0;

  int launch(const std::string &ptx) const {
    return isaacGemmLaunch(ptx.c_str(), name, dtype, ml, nl, threads, kg,
                           reinterpret_cast<void *>(C),
                           reinterpret_cast<const void *>(A),
                           reinterpret_cast<const void *>(B), M, N, K, lda, ldb,
                           ldc, sA, sB, sC, batch, alpha, beta, stream, flags);
  }
};

void checkGemmParams(const FakeLaunch &l, const Gemm &g, uint64_t workspace) {
  CHECK(l.numParams == 15);
  static const int sizes[] = {8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8};
  for (int i = 0; i < 13; ++i)
    CHECK(l.paramSizes[i] == sizes[i]);
  CHECK(param<uint64_t>(l, 0) == g.C);
  CHECK(param<uint64_t>(l, 1) == g.A);
  CHECK(param<uint64_t>(l, 2) == g.B);
  CHECK(param<uint64_t>(l, 3) == workspace);
  CHECK(param<uint32_t>(l, 4) == static_cast<uint32_t>(g.M));
  CHECK(param<uint32_t>(l, 5) == static_cast<uint32_t>(g.N));
  CHECK(param<uint32_t>(l, 6) == static_cast<uint32_t>(g.K));
  CHECK(param<uint32_t>(l, 7) == static_cast<uint32_t>(g.lda));
  CHECK(param<uint32_t>(l, 8) == static_cast<uint32_t>(g.ldb));
  CHECK(param<uint32_t>(l, 9) == static_cast<uint32_t>(g.ldc));
  // The strides of a single matrix are passed as 0.
  uint64_t sA = g.batch > 1 ? static_cast<uint64_t>(g.sA) : 0;
  uint64_t sB = g.batch > 1 ? static_cast<uint64_t>(g.sB) : 0;
  uint64_t sC = g.batch > 1 ? static_cast<uint64_t>(g.sC) : 0;
  CHECK(param<uint64_t>(l, 10) == sA);
  CHECK(param<uint64_t>(l, 11) == sB);
  CHECK(param<uint64_t>(l, 12) == sC);
  if (g.dtype == ISAAC_F64) {
    CHECK(l.paramSizes[13] == 8 && l.paramSizes[14] == 8);
    CHECK(param<double>(l, 13) == g.alpha);
    CHECK(param<double>(l, 14) == g.beta);
  } else {
    CHECK(l.paramSizes[13] == 4 && l.paramSizes[14] == 4);
    CHECK(param<float>(l, 13) == static_cast<float>(g.alpha));
    CHECK(param<float>(l, 14) == static_cast<float>(g.beta));
  }
  CHECK(l.grid[0] == static_cast<unsigned>((g.M + g.ml - 1) / g.ml));
  CHECK(l.grid[1] == static_cast<unsigned>((g.N + g.nl - 1) / g.nl));
  CHECK(l.grid[2] == static_cast<unsigned>(g.batch * g.kg));
  CHECK(l.block[0] == static_cast<unsigned>(g.threads));
  CHECK(l.block[1] == 1 && l.block[2] == 1);
  CHECK(l.sharedMemBytes == 0);
  CHECK(l.stream == g.stream);
}

void checkHelperLaunch(const FakeLaunch &l, const Gemm &g) {
  CHECK(l.grid[0] == static_cast<unsigned>((g.N + 31) / 32));
  CHECK(l.grid[1] == static_cast<unsigned>((g.M + 7) / 8));
  CHECK(l.grid[2] == static_cast<unsigned>(g.batch));
  CHECK(l.block[0] == 32 && l.block[1] == 8 && l.block[2] == 1);
  CHECK(l.sharedMemBytes == 0);
  CHECK(l.stream == g.stream);
}

const char *const kNt = "isaac_gemm_f32_nt_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4";

void testSingleGemm() {
  fake.reset();
  Gemm g{kNt, ISAAC_F32, 64, 32, 64, 1};
  std::string ptx = ptxWith({kNt});
  CHECK(fake.currentContext() == nullptr);
  int loads = fake.moduleLoads();
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  // No context was current: the runtime made the primary one current.
  CHECK(fake.currentContext() != nullptr);
  CHECK(fake.moduleLoads() == loads + 1);
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1) {
    FakeLaunch l = launchAt(0);
    CHECK(std::strcmp(l.name, kNt) == 0);
    checkGemmParams(l, g, 0);
  }
  // Cached by contents: the same string again, and an equal copy elsewhere.
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  std::string copy = ptx;
  CHECK_STATUS(g.launch(copy), ISAAC_SUCCESS, "");
  CHECK(fake.moduleLoads() == loads + 1);
  // Different PTX at the same address is a different module.
  copy += "\n// changed\n";
  CHECK_STATUS(g.launch(copy), ISAAC_SUCCESS, "");
  CHECK(fake.moduleLoads() == loads + 2);
  CHECK(fake.launchCount() == 4);
}

void testBatchedF64() {
  fake.reset();
  const char *name = "isaac_gemm_f64_tt_ml32_nl16_ms4_ns4_u4_ks1_kl2_kg1_v2";
  Gemm g{name, ISAAC_F64, 32, 16, 64, 1};
  g.M = 10;
  g.N = 20;
  g.K = 7;
  g.lda = 10; // A stored K x M
  g.ldb = 7;  // B stored N x K
  g.ldc = 20;
  g.batch = 5;
  g.sA = 1000;
  g.sB = 0; // broadcast
  g.sC = 3000;
  g.alpha = -0.25;
  g.beta = 2.0 / 3.0; // not a float: f64 kernels must get all its bits
  g.stream = nullptr;
  CHECK_STATUS(g.launch(ptxWith({name})), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1)
    checkGemmParams(launchAt(0), g, 0);
}

const char *const kSplitK =
    "isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg4_v4";

Gemm splitKGemm() {
  Gemm g{kSplitK, ISAAC_F32, 64, 64, 64, 4};
  g.K = 1000;
  g.lda = 1000;
  g.ldb = 70;
  g.ldc = 70;
  g.batch = 2;
  g.sA = 100 * 1000;
  g.sB = 1000 * 70;
  g.sC = 100 * 70;
  return g;
}

void testAtomicSplitK() {
  fake.reset();
  Gemm g = splitKGemm();
  int allocations = fake.allocations();
  std::string ptx =
      ptxWith({"isaac_scale_f32", kSplitK, "isaac_splitk_reduce_f32"});
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 2);
  CHECK(fake.allocations() == allocations);
  if (fake.launchCount() != 2)
    return;
  // C = beta*C first, then the slices accumulate atomically (W = 0).
  FakeLaunch scale = launchAt(0);
  CHECK(std::strcmp(scale.name, "isaac_scale_f32") == 0);
  checkHelperLaunch(scale, g);
  CHECK(param<uint64_t>(scale, 0) == g.C);
  CHECK(param<uint32_t>(scale, 1) == 100u);
  CHECK(param<uint32_t>(scale, 2) == 70u);
  CHECK(param<uint32_t>(scale, 3) == 70u);
  CHECK(param<uint64_t>(scale, 4) == 7000u);
  CHECK(param<float>(scale, 5) == 0.5f);
  FakeLaunch gemm = launchAt(1);
  CHECK(std::strcmp(gemm.name, kSplitK) == 0);
  checkGemmParams(gemm, g, 0);
}

void testDeterministicSplitK() {
  fake.reset();
  Gemm g = splitKGemm();
  g.flags = ISAAC_DETERMINISTIC;
  std::string ptx =
      ptxWith({"isaac_scale_f32", kSplitK, "isaac_splitk_reduce_f32"});
  int allocations = fake.allocations(), frees = fake.frees();
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.allocations() == allocations + 1);
  size_t needed = size_t(2) * 4 * 100 * 70 * sizeof(float);
  CHECK(fake.lastAllocationBytes() >= needed);
  uint64_t workspace = fake.lastAllocation();
  CHECK(fake.launchCount() == 2);
  if (fake.launchCount() == 2) {
    // Slices store into W, then the reduction writes C = sum + beta*C.
    FakeLaunch gemm = launchAt(0);
    CHECK(std::strcmp(gemm.name, kSplitK) == 0);
    checkGemmParams(gemm, g, workspace);
    FakeLaunch reduce = launchAt(1);
    CHECK(std::strcmp(reduce.name, "isaac_splitk_reduce_f32") == 0);
    checkHelperLaunch(reduce, g);
    CHECK(reduce.numParams == 8);
    CHECK(param<uint64_t>(reduce, 0) == g.C);
    CHECK(param<uint64_t>(reduce, 1) == workspace);
    CHECK(param<uint32_t>(reduce, 2) == 100u);
    CHECK(param<uint32_t>(reduce, 3) == 70u);
    CHECK(param<uint32_t>(reduce, 4) == 70u);
    CHECK(param<uint64_t>(reduce, 5) == 7000u);
    CHECK(param<uint32_t>(reduce, 6) == 4u);
    CHECK(param<float>(reduce, 7) == 0.5f);
  }

  // The workspace is reused while large enough, and grows on demand after
  // the stream's earlier kernels are done with it.
  Gemm smaller = g;
  smaller.M = 50;
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK_STATUS(smaller.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.allocations() == allocations + 1);
  int syncs = fake.streamSyncs();
  Gemm larger = g;
  larger.M = 1000;
  larger.sA = 1000 * 1000;
  larger.sC = 1000 * 70;
  CHECK_STATUS(larger.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.allocations() == allocations + 2);
  CHECK(fake.frees() == frees + 1);
  CHECK(fake.streamSyncs() == syncs + 1);
  CHECK(fake.lastAllocationBytes() >= size_t(2) * 4 * 1000 * 70 * 4);
  // Another stream gets its own workspace: kernels on different streams
  // may run concurrently.
  Gemm otherStream = g;
  otherStream.stream = reinterpret_cast<void *>(0x6000);
  CHECK_STATUS(otherStream.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.allocations() == allocations + 3);
  CHECK(fake.frees() == frees + 1);
}

void testDriverErrors() {
  Gemm g{kNt, ISAAC_F32, 64, 32, 64, 1};
  CHECK_STATUS(g.launch(ptxWith({kNt}, "// " FAKE_JIT_FAILURE_MARKER "\n")),
               ISAAC_ERROR_JIT,
               "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (218): a "
               "PTX JIT compilation failed");
  CHECK(std::strstr(isaacGetLastError(), "JIT error log: ptxas fatal   : "
                                         "fake syntax error on line 3"));
  CHECK(std::strstr(isaacGetLastError(), "isaacGemmLaunch(") != nullptr);
  CHECK_STATUS(g.launch(ptxWith({"isaac_scale_f32"})),
               ISAAC_ERROR_KERNEL_NOT_FOUND,
               std::string("no kernel named '") + kNt + "'");
  // A split-K launch needs the helper kernel of its mode.
  Gemm atomic = splitKGemm();
  CHECK_STATUS(atomic.launch(ptxWith({kSplitK, "isaac_splitk_reduce_f32"})),
               ISAAC_ERROR_KERNEL_NOT_FOUND,
               "no kernel named 'isaac_scale_f32'");
  Gemm deterministic = splitKGemm();
  deterministic.flags = ISAAC_DETERMINISTIC;
  CHECK_STATUS(deterministic.launch(ptxWith({kSplitK, "isaac_scale_f32"})),
               ISAAC_ERROR_KERNEL_NOT_FOUND,
               "no kernel named 'isaac_splitk_reduce_f32'");
  Gemm failing = g;
  failing.stream = FAKE_FAILING_STREAM;
  CHECK_STATUS(failing.launch(ptxWith({kNt})), ISAAC_ERROR_CUDA,
               "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (1): invalid "
               "argument; kernel isaac_gemm_f32_nt_ml64_nl32_ms8_ns4_u8_ks1_"
               "kl1_kg1_v4, grid (2, 3, 1), block (64, 1, 1)");
  CHECK_STATUS(g.launch(ptxWith({kNt}, "// " FAKE_MAX_THREADS_MARKER "\n")),
               ISAAC_ERROR_UNSUPPORTED,
               "needs 64 threads per block but can run at most 32");
}

void testModuleApi() {
  fake.reset();
  std::string ptx = ptxWith({kNt, "isaac_scale_f32"});
  isaacModule module = nullptr, again = nullptr;
  CHECK_STATUS(isaacModuleLoad(ptx.c_str(), &module), ISAAC_SUCCESS, "");
  CHECK_STATUS(isaacModuleLoad(std::string(ptx).c_str(), &again), ISAAC_SUCCESS,
               "");
  CHECK(module != nullptr && module == again);
  isaacFunction function = nullptr, same = nullptr;
  CHECK_STATUS(isaacGetFunction(module, kNt, &function), ISAAC_SUCCESS, "");
  CHECK_STATUS(isaacGetFunction(module, kNt, &same), ISAAC_SUCCESS, "");
  CHECK(function != nullptr && function == same);
  CHECK_STATUS(isaacGetFunction(module, "missing", &same),
               ISAAC_ERROR_KERNEL_NOT_FOUND, "no kernel named 'missing'");

  isaacKernelInfo info;
  CHECK_STATUS(isaacParseKernelName(kNt, &info), ISAAC_SUCCESS, "");
  Gemm g{kNt, ISAAC_F32, 64, 32, 64, 1};
  isaacGemmArgs args;
  std::memset(&args, 0, sizeof(args));
  args.C = reinterpret_cast<void *>(g.C);
  args.A = reinterpret_cast<const void *>(g.A);
  args.B = reinterpret_cast<const void *>(g.B);
  args.M = g.M;
  args.N = g.N;
  args.K = g.K;
  args.lda = g.lda;
  args.ldb = g.ldb;
  args.ldc = g.ldc;
  args.batch = 1;
  args.alpha = g.alpha;
  args.beta = g.beta;
  args.stream = g.stream;
  CHECK_STATUS(isaacGemmLaunchModule(module, &info, &args), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1)
    checkGemmParams(launchAt(0), g, 0);
  args.lda = 1;
  CHECK_STATUS(isaacGemmLaunchModule(module, &info, &args),
               ISAAC_ERROR_INVALID_VALUE, "lda=1 is smaller than K=30");
  args.lda = g.lda;

  // A module only launches in the context it was loaded in.
  void *saved = fake.currentContext();
  fakeSetCurrent(reinterpret_cast<void *>(0xc0de1000));
  CHECK_STATUS(isaacGemmLaunchModule(module, &info, &args),
               ISAAC_ERROR_INVALID_VALUE, "another CUDA context");
  // ... and the host ABI loads the PTX again there.
  int loads = fake.moduleLoads();
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.moduleLoads() == loads + 1);
  fakeSetCurrent(saved);
}

//===--- Fused epilogues
//---------------------------------------------------===//

const char *const kEpilogueId = "00c0ffee12345678";
const char *const kFusedGemm =
    "isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4_ep00c0ffee12345678";
const char *const kFusedSplitK =
    "isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg4_v4_ep00c0ffee12345678";
const char *const kFusedReduce = "isaac_splitk_reduce_f32_ep00c0ffee12345678";
/// KG above the runtime's kMaxWorkspaceKG: atomic mode uses tile counters.
const char *const kFusedDeepSplitK =
    "isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg32_v4_ep00c0ffee12345678";

/// A PTX entry declaring `sizes` (in bytes) as its parameters, so that the
/// fake decodes a fused kernel's parameters as the PTX declares them.
std::string entry(const std::string &name, const std::vector<int> &sizes) {
  std::string text = "\n.visible .entry " + name + "(";
  for (size_t i = 0; i < sizes.size(); ++i)
    text += std::string(i ? "," : "") + "\n\t.param ." +
            (sizes[i] == 8 ? "u64" : "u32") + " " + name + "_param_" +
            std::to_string(i);
  return text + "\n)\n{\n\tret;\n}\n";
}

/// The PTX of a fused f32 kernel `name` (and its fused reducer when split
/// over K) whose epilogue writes bf16 and reads f16, f32 and bf16 inputs.
std::string fusedPtx(const char *name, int kg) {
  std::string header =
      std::string("// isaac.kernel name=") + name +
      " dtype=f32 layout=nn ml=64 nl=64 ms=8 ns=8 u=8 ks=1 kl=1 kg=" +
      std::to_string(kg) +
      " vec=4 threads=64 smem=8192 chip=sm_90 epilogue=00c0ffee12345678\n"
      "// isaac.epilogue id=00c0ffee12345678 out=bf16 inputs=3 in0=f16[n] "
      "in1=f32 in2=bf16[] program=gelu(acc*in2+in0+in1)\n";
  // The GEMM's 15 parameters and the tile counters; the reducer's 8.
  std::vector<int> gemm = {8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8, 4, 4, 8};
  std::vector<int> reduce = {8, 8, 4, 4, 4, 8, 4, 4};
  for (int i = 0; i < 12; ++i) {
    gemm.push_back(8);
    reduce.push_back(8);
  }
  std::string ptx = header + ptxWith({}) + entry(name, gemm);
  if (kg > 1)
    ptx += entry("isaac_scale_f32", {8, 4, 4, 4, 8, 4}) +
           entry("isaac_splitk_reduce_f32", {8, 8, 4, 4, 4, 8, 4, 4}) +
           entry(kFusedReduce, reduce);
  return ptx;
}

struct FusedGemm : Gemm {
  isaacEpilogueInput inputs[3] = {
      {reinterpret_cast<const void *>(0x40002), 0, 0, 1},     // bias (f16)
      {reinterpret_cast<const void *>(0x50000), 7000, 70, 1}, // residual
      {reinterpret_cast<const void *>(0x60002), 0, 0, 0}};    // scalar
  int numInputs = 3;

  FusedGemm(const char *name, int kg) : Gemm{name, ISAAC_F32, 64, 64, 64, kg} {
    C = 0x10002; // bf16 output
    lda = 30;
    ldb = 70;
    ldc = 70;
  }

  int launch(const std::string &ptx) const {
    return isaacGemmLaunchEpilogue(
        ptx.c_str(), name, dtype, ml, nl, threads, kg,
        reinterpret_cast<void *>(C), reinterpret_cast<const void *>(A),
        reinterpret_cast<const void *>(B), M, N, K, lda, ldb, ldc, sA, sB, sC,
        batch, alpha, beta, stream, flags, numInputs, inputs);
  }
};

/// The four parameters of each input from `first` on: ptr, sBatch (0 for
/// a single matrix), sRow, sCol, all .u64.
void checkInputParams(const FakeLaunch &l, int first, const FusedGemm &g) {
  CHECK(l.numParams == first + 4 * g.numInputs);
  for (int i = 0; i < g.numInputs; ++i) {
    const isaacEpilogueInput &in = g.inputs[i];
    int p = first + 4 * i;
    for (int j = 0; j < 4; ++j)
      CHECK(l.paramSizes[p + j] == 8);
    CHECK(param<uint64_t>(l, p) == reinterpret_cast<uintptr_t>(in.ptr));
    CHECK(param<uint64_t>(l, p + 1) ==
          (g.batch > 1 ? static_cast<uint64_t>(in.sBatch) : 0));
    CHECK(param<uint64_t>(l, p + 2) == static_cast<uint64_t>(in.sRow));
    CHECK(param<uint64_t>(l, p + 3) == static_cast<uint64_t>(in.sCol));
  }
}

/// The first 15 parameters as for any GEMM, the tile counters, then the
/// inputs'.
void checkFusedGemmParams(const FakeLaunch &l, const FusedGemm &g,
                          uint64_t workspace, uint64_t counters = 0) {
  FakeLaunch fixed = l;
  fixed.numParams = 15;
  checkGemmParams(fixed, g, workspace);
  CHECK(l.paramSizes[15] == 8);
  CHECK(param<uint64_t>(l, 15) == counters);
  checkInputParams(l, 16, g);
}

void testFusedGemm() {
  fake.reset();
  FusedGemm g(kFusedGemm, 1);
  g.batch = 3;
  g.sA = 100 * 30;
  g.sB = 30 * 70;
  g.sC = 100 * 70;
  int allocations = fake.allocations();
  CHECK_STATUS(g.launch(fusedPtx(kFusedGemm, 1)), ISAAC_SUCCESS, "");
  // One launch, W = 0, no workspace.
  CHECK(fake.launchCount() == 1);
  CHECK(fake.allocations() == allocations);
  if (fake.launchCount() == 1) {
    FakeLaunch l = launchAt(0);
    CHECK(std::strcmp(l.name, kFusedGemm) == 0);
    checkFusedGemmParams(l, g, 0);
  }

  // A single matrix: each input's batch stride is passed as 0, whatever it
  // is (as C's).
  fake.reset();
  g.batch = 1;
  g.inputs[1].sBatch = -12345;
  CHECK_STATUS(g.launch(fusedPtx(kFusedGemm, 1)), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1) {
    FakeLaunch l = launchAt(0);
    checkFusedGemmParams(l, g, 0);
    CHECK(param<uint64_t>(l, 16 + 4 + 1) == 0);
  }

  // The module API takes the same inputs through isaacGemmArgs, and needs
  // the header's description of the kernel.
  fake.reset();
  std::string ptx = fusedPtx(kFusedGemm, 1);
  isaacModule module = nullptr;
  CHECK_STATUS(isaacModuleLoad(ptx.c_str(), &module), ISAAC_SUCCESS, "");
  isaacKernelInfo info, nameOnly;
  CHECK_STATUS(isaacParseKernelInfo(ptx.c_str(), &info), ISAAC_SUCCESS, "");
  CHECK_STATUS(isaacParseKernelName(kFusedGemm, &nameOnly), ISAAC_SUCCESS, "");
  // in0=f16[n]: the same for every row; in2=bf16[]: for every element.
  CHECK(info.inputBroadcast[0] == ISAAC_BROADCAST_ROWS);
  CHECK(info.inputBroadcast[1] == 0);
  CHECK(info.inputBroadcast[2] ==
        (ISAAC_BROADCAST_ROWS | ISAAC_BROADCAST_COLS));
  CHECK(info.inputBroadcast[3] == 0);
  isaacGemmArgs args = {};
  args.C = reinterpret_cast<void *>(g.C);
  args.A = reinterpret_cast<const void *>(g.A);
  args.B = reinterpret_cast<const void *>(g.B);
  args.M = g.M;
  args.N = g.N;
  args.K = g.K;
  args.lda = g.lda;
  args.ldb = g.ldb;
  args.ldc = g.ldc;
  args.batch = 1;
  args.alpha = g.alpha;
  args.beta = g.beta;
  args.stream = g.stream;
  args.numInputs = 3;
  args.inputs = g.inputs;
  CHECK_STATUS(isaacGemmLaunchModule(module, &info, &args), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1)
    checkFusedGemmParams(launchAt(0), g, 0);
  CHECK_STATUS(isaacGemmLaunchModule(module, &nameOnly, &args),
               ISAAC_ERROR_INVALID_VALUE, "are unknown");
  args.numInputs = 2;
  CHECK_STATUS(isaacGemmLaunchModule(module, &info, &args),
               ISAAC_ERROR_INVALID_VALUE,
               "isaacGemmLaunchModule(isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_"
               "ks1_kl1_kg1_v4_ep00c0ffee12345678): numInputs=2 disagrees");
  CHECK(fake.launchCount() == 1);
  args.numInputs = 3;

  // A kernel compiled for a broadcast input never reads the stride along
  // the broadcast index: a non-zero one is a different input.
  g.inputs[0].sRow = 50;
  CHECK_STATUS(g.launch(ptx), ISAAC_ERROR_INVALID_VALUE,
               "epilogue input 0 (f16): kernel "
               "isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4_"
               "ep00c0ffee12345678 reads it as the same for every row "
               "(compiled for a broadcast input), so sRow must be 0, not 50");
  g.inputs[0].sRow = 0;
  g.inputs[2].sCol = 1;
  CHECK_STATUS(g.launch(ptx), ISAAC_ERROR_INVALID_VALUE,
               "so sCol must be 0, not 1");
  g.inputs[2].sCol = 0;
  CHECK(fake.launchCount() == 1);
}

/// Atomic mode with KG > 16: the slices add into T and the last block of
/// each tile applies the epilogue. One launch; T and the tile counters live
/// in one buffer of the stream, cleared once when it is allocated, which
/// the kernels leave zero.
void testFusedSplitKAtomic() {
  fake.reset();
  FusedGemm g(kFusedDeepSplitK, 32);
  g.K = 1000;
  g.lda = 1000;
  g.batch = 2;
  g.sA = 100 * 1000;
  g.sB = 1000 * 70;
  g.sC = 100 * 70;
  g.stream = reinterpret_cast<void *>(0x7400);
  fake.clearCalls();
  int allocations = fake.allocations();
  CHECK_STATUS(g.launch(fusedPtx(kFusedDeepSplitK, 32)), ISAAC_SUCCESS, "");
  CHECK(fake.allocations() == allocations + 1);
  uint64_t buffer = fake.lastAllocation();
  size_t bytes = fake.lastAllocationBytes();
  // T: batch*M*N f32 sums, then 256-byte aligned batch*tiles u32 counters
  // (2 x 2 tiles of 64 x 64 per batch).
  size_t sums = size_t(2) * 100 * 70 * 4;
  size_t countersOffset = (sums + 255) / 256 * 256;
  CHECK(bytes >= countersOffset + 2 * 2 * 2 * 4);
  std::string calls = fake.calls();
  char memset[128];
  std::snprintf(memset, sizeof(memset),
                "cuMemsetD32Async(%#llx, 0, %zu, stream=0x7400)",
                static_cast<unsigned long long>(buffer), bytes / 4);
  CHECK(calls.find(memset) != std::string::npos);
  // No scale kernel, no reducer.
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1) {
    FakeLaunch gemm = launchAt(0);
    CHECK(std::strcmp(gemm.name, kFusedDeepSplitK) == 0);
    checkFusedGemmParams(gemm, g, buffer, buffer + countersOffset);
    CHECK(gemm.grid[2] == 2u * 32u);
  }
  // The next launch on the stream reuses the buffer as it is: zero.
  fake.clearCalls();
  CHECK_STATUS(g.launch(fusedPtx(kFusedDeepSplitK, 32)), ISAAC_SUCCESS, "");
  CHECK(fake.allocations() == allocations + 1);
  CHECK(std::string(fake.calls()).find("cuMemsetD32Async") ==
        std::string::npos);
}

void testFusedSplitK() {
  // Deterministic mode, and atomic mode with KG <= 16: the slices go
  // through the workspace and the fused reduction applies the epilogue;
  // the tile counters are NULL.
  for (int flags : {0, static_cast<int>(ISAAC_DETERMINISTIC)}) {
    fake.reset();
    FusedGemm g(kFusedSplitK, 4);
    g.K = 1000;
    g.lda = 1000;
    g.batch = 2;
    g.sA = 100 * 1000;
    g.sB = 1000 * 70;
    g.sC = 100 * 70;
    g.flags = flags;
    // A fresh stream, so that the workspace is allocated here.
    g.stream = reinterpret_cast<void *>(0x7000 + 0x100 * flags);
    int allocations = fake.allocations();
    CHECK_STATUS(g.launch(fusedPtx(kFusedSplitK, 4)), ISAAC_SUCCESS, "");
    CHECK(fake.allocations() == allocations + 1);
    // batch*kg*M*N elements of the GEMM's dtype (f32), not of bf16.
    CHECK(fake.lastAllocationBytes() >= size_t(2) * 4 * 100 * 70 * 4);
    uint64_t workspace = fake.lastAllocation();
    // No scale kernel: GEMM into W, then the fused reduction.
    CHECK(fake.launchCount() == 2);
    if (fake.launchCount() != 2)
      continue;
    FakeLaunch gemm = launchAt(0);
    CHECK(std::strcmp(gemm.name, kFusedSplitK) == 0);
    checkFusedGemmParams(gemm, g, workspace);
    FakeLaunch reduce = launchAt(1);
    CHECK(std::strcmp(reduce.name, kFusedReduce) == 0);
    checkHelperLaunch(reduce, g);
    CHECK(param<uint64_t>(reduce, 0) == g.C);
    CHECK(param<uint64_t>(reduce, 1) == workspace);
    CHECK(param<uint32_t>(reduce, 2) == 100u);
    CHECK(param<uint32_t>(reduce, 3) == 70u);
    CHECK(param<uint32_t>(reduce, 4) == 70u);
    CHECK(param<uint64_t>(reduce, 5) == 7000u);
    CHECK(param<uint32_t>(reduce, 6) == 4u);
    CHECK(param<float>(reduce, 7) == 0.5f);
    checkInputParams(reduce, 8, g);
  }

  // The plain reducer does not apply the epilogue: the fused one must be
  // there.
  FusedGemm g(kFusedSplitK, 4);
  g.K = 1000;
  g.lda = 1000;
  g.flags = ISAAC_DETERMINISTIC;
  std::string ptx = fusedPtx(kFusedSplitK, 4);
  size_t at = ptx.find(".entry " + std::string(kFusedReduce));
  ptx.replace(at, 6, ".entry_removed");
  CHECK_STATUS(g.launch(ptx), ISAAC_ERROR_KERNEL_NOT_FOUND,
               std::string("no kernel named '") + kFusedReduce + "'");
}

/// A fused epilogue without inputs (an activation) launches through either
/// host entry point, with the 15 parameters of any GEMM.
void testFusedWithoutInputs() {
  const char *name = "isaac_gemm_f64_tn_ml32_nl16_ms4_ns4_u4_ks1_kl2_kg1_v2_"
                     "ep0000000000000001";
  std::string ptx =
      std::string("// isaac.kernel name=") + name +
      " dtype=f64 layout=tn ml=32 nl=16 ms=4 ns=4 u=4 ks=1 kl=2 kg=1 vec=2 "
      "threads=64 smem=0 epilogue=0000000000000001\n"
      "// isaac.epilogue id=0000000000000001 out=f16 inputs=0 "
      "program=relu(acc)\n" +
      ptxWith({}) + entry(name, {8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8});
  Gemm g{name, ISAAC_F64, 32, 16, 64, 1};
  g.C = 0x10002; // f16 output
  g.A = 0x20008;
  g.lda = 100;
  g.ldb = 70;
  for (int viaEpilogueEntry = 0; viaEpilogueEntry < 2; ++viaEpilogueEntry) {
    fake.reset();
    int status = viaEpilogueEntry
                     ? isaacGemmLaunchEpilogue(
                           ptx.c_str(), name, g.dtype, g.ml, g.nl, g.threads,
                           g.kg, reinterpret_cast<void *>(g.C),
                           reinterpret_cast<const void *>(g.A),
                           reinterpret_cast<const void *>(g.B), g.M, g.N, g.K,
                           g.lda, g.ldb, g.ldc, g.sA, g.sB, g.sC, g.batch,
                           g.alpha, g.beta, g.stream, g.flags, 0, nullptr)
                     : g.launch(ptx);
    CHECK_STATUS(status, ISAAC_SUCCESS, "");
    CHECK(fake.launchCount() == 1);
    if (fake.launchCount() == 1)
      checkGemmParams(launchAt(0), g, 0);
  }
}

void testConcurrentLaunches() {
  std::string ptx = ptxWith({kNt, "// concurrent"});
  int loads = fake.moduleLoads();
  std::vector<int> failures(8, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t, &ptx, &failures] {
      // Each thread has its own copy: the cache must match by contents.
      std::string copy = ptx;
      Gemm g{kNt, ISAAC_F32, 64, 32, 64, 1};
      for (int i = 0; i < 100; ++i)
        failures[t] += g.launch(copy) != ISAAC_SUCCESS;
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int f : failures)
    CHECK(f == 0);
  CHECK(fake.moduleLoads() == loads + 1);
}

/// A launch site (one PTX string and kernel name of compiled code) keeps its
/// module and kernels between launches: only for the context the module
/// was loaded in, and a helper per split-K mode.
void testSiteCaches() {
  void *saved = fake.currentContext();
  // Text of its own, so that no other test loaded this module.
  std::string ptx =
      ptxWith({"isaac_scale_f32", kSplitK, "isaac_splitk_reduce_f32"},
              "// site caches\n");
  Gemm g = splitKGemm();
  g.stream = reinterpret_cast<void *>(0x9400);
  Gemm d = g;
  d.flags = ISAAC_DETERMINISTIC;
  fakeSetCurrent(FAKE_PRIMARY_CONTEXT_0);
  int loads = fake.moduleLoads();
  fake.reset();
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK_STATUS(d.launch(ptx), ISAAC_SUCCESS, "");
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  const char *const expected[] = {"isaac_scale_f32", kSplitK,
                                  kSplitK,           "isaac_splitk_reduce_f32",
                                  "isaac_scale_f32", kSplitK};
  CHECK(fake.launchCount() == 6);
  for (int i = 0; i < 6 && i < fake.launchCount(); ++i)
    CHECK(std::strcmp(launchAt(i).name, expected[i]) == 0);
  CHECK(fake.moduleLoads() == loads + 1);
  // Another context loads its own module; back in the first, its module
  // is found again.
  fakeSetCurrent(FAKE_PRIMARY_CONTEXT_1);
  fake.reset();
  CHECK_STATUS(d.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.moduleLoads() == loads + 2);
  CHECK(fake.launchCount() == 2 &&
        launchAt(0).context == FAKE_PRIMARY_CONTEXT_1);
  fakeSetCurrent(FAKE_PRIMARY_CONTEXT_0);
  fake.reset();
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.moduleLoads() == loads + 2);
  CHECK(fake.launchCount() == 2 &&
        launchAt(1).context == FAKE_PRIMARY_CONTEXT_0);
  fakeSetCurrent(saved);
}

/// The fake's quiet mode (isaac-runtime-overhead's): calls are counted but
/// neither logged nor recorded, and injected failures still happen.
void testQuietFake() {
  std::string ptx = ptxWith({kNt});
  Gemm g{kNt, ISAAC_F32, 64, 32, 64, 1};
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  fake.reset();
  fake.clearCalls();
  fake.clearDriverCalls();
  fake.setQuiet(1);
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 0);
  CHECK(std::string(fake.calls()).empty());
  std::string counts = fake.driverCallCounts();
  CHECK(counts.find("cuLaunchKernel 2\n") != std::string::npos);
  CHECK(fake.driverCalls() >= 2);
  fake.failNext("cuLaunchKernel", 1);
  CHECK_STATUS(g.launch(ptx), ISAAC_ERROR_CUDA,
               "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE");
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  fake.setQuiet(0);
  fake.clearCalls();
}

/// A kernel whose shared memory is dynamic (`dynsmem=1` on its header line:
/// mma kernels) has its function's limit raised once, when it is first
/// launched, and every launch passes that many dynamic bytes; a kernel with
/// static shared memory (dynsmem=0, or no key: older headers) gets neither.
void testDynamicSharedMemory() {
  const char *name =
      "isaac_gemm_f16f32_nt_mma_ml128_nl128_wm64_wn32_u32_kl1_kg1_v8_st4";
  std::string ptx = std::string("// isaac.kernel name=") + name +
                    " dtype=f16f32 layout=nt ml=128 nl=128 wm=64 wn=32 u=32 "
                    "kl=1 kg=1 vec=8 stages=4 threads=256 smem=65536 "
                    "dynsmem=1 chip=sm_90\n" +
                    ptxWith({name});
  fake.reset();
  fake.clearCalls();
  Gemm g{name, ISAAC_F16, 128, 128, 256, 1};
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  CHECK_STATUS(g.launch(ptx), ISAAC_SUCCESS, "");
  std::string log = fake.calls();
  std::string raise = std::string("cuFuncSetAttribute(") + name + ", 8, 65536)";
  size_t at = log.find(raise);
  CHECK(at != std::string::npos);
  CHECK(at == std::string::npos ||
        log.find("cuFuncSetAttribute", at + 1) == std::string::npos);
  CHECK(at == std::string::npos ||
        log.find("cuLaunchKernel", at) != std::string::npos);
  CHECK(fake.launchCount() == 2);
  for (int i = 0; i < fake.launchCount() && i < 2; ++i) {
    FakeLaunch l = launchAt(i);
    CHECK(l.sharedMemBytes == 65536);
    CHECK(l.block[0] == 256);
    // f16 operands accumulate in f32: alpha and beta are f32.
    CHECK(l.numParams == 15 && l.paramSizes[13] == 4 && l.paramSizes[14] == 4);
  }

  const char *plain = "isaac_gemm_f32_nt_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4";
  for (const char *key : {" dynsmem=0", ""}) {
    std::string staticPtx =
        std::string("// isaac.kernel name=") + plain +
        " dtype=f32 layout=nt ml=64 nl=32 ms=8 ns=4 u=8 ks=1 kl=1 kg=1 vec=4 "
        "threads=64 smem=12288" +
        key + " chip=sm_90\n" + ptxWith({plain});
    fake.reset();
    fake.clearCalls();
    Gemm s{plain, ISAAC_F32, 64, 32, 64, 1};
    CHECK_STATUS(s.launch(staticPtx), ISAAC_SUCCESS, "");
    CHECK(std::string(fake.calls()).find("cuFuncSetAttribute") ==
          std::string::npos);
    CHECK(fake.launchCount() == 1 && launchAt(0).sharedMemBytes == 0);
  }
}

template <typename Fn> bool lookup(void *library, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  if (!fn)
    std::fprintf(stderr, "fake driver lacks %s\n", name);
  return fn != nullptr;
}

} // namespace

void runFakeDriverTests(const char *path, bool hasTensorMaps) {
  // The runtime dlopens the same file, so both see one instance.
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  CHECK(library != nullptr);
  if (!library) {
    std::fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    return;
  }
  bool ok =
      lookup(library, "fakeCudaLaunchCount", fake.launchCount) &&
      lookup(library, "fakeCudaLaunch", fake.launch) &&
      lookup(library, "fakeCudaReset", fake.reset) &&
      lookup(library, "fakeCudaModuleLoads", fake.moduleLoads) &&
      lookup(library, "fakeCudaAllocations", fake.allocations) &&
      lookup(library, "fakeCudaFrees", fake.frees) &&
      lookup(library, "fakeCudaLastAllocationBytes",
             fake.lastAllocationBytes) &&
      lookup(library, "fakeCudaLastAllocation", fake.lastAllocation) &&
      lookup(library, "fakeCudaStreamSyncs", fake.streamSyncs) &&
      lookup(library, "fakeCudaCurrentContext", fake.currentContext) &&
      lookup(library, "fakeCudaCalls", fake.calls) &&
      lookup(library, "fakeCudaClearCalls", fake.clearCalls) &&
      lookup(library, "fakeCudaFailNext", fake.failNext) &&
      lookup(library, "fakeCudaSetQuiet", fake.setQuiet) &&
      lookup(library, "fakeCudaDriverCalls", fake.driverCalls) &&
      lookup(library, "fakeCudaDriverCallCounts", fake.driverCallCounts) &&
      lookup(library, "fakeCudaClearDriverCalls", fake.clearDriverCalls) &&
      lookup(library, "fakeCudaPoolReleaseThreshold",
             fake.poolReleaseThreshold) &&
      lookup(library, "cuCtxSetCurrent", fakeSetCurrent);
  CHECK(ok);
  if (!ok)
    return;
  // The mode the command line named is the library's.
  CHECK((dlsym(library, "cuTensorMapEncodeTiled") != nullptr) == hasTensorMaps);
  CHECK((dlsym(library, "cuTensorMapEncodeIm2col") != nullptr) ==
        hasTensorMaps);
  CHECK_STATUS(isaacInit(), ISAAC_SUCCESS, "");
  // isaacInit made the primary context current on this thread; start the
  // launch tests from a thread without one.
  fakeSetCurrent(nullptr);
  testSingleGemm();
  testBatchedF64();
  testAtomicSplitK();
  testDeterministicSplitK();
  testDriverErrors();
  testModuleApi();
  testConcurrentLaunches();
  testSiteCaches();
  testQuietFake();
  testFusedGemm();
  testFusedSplitK();
  testFusedSplitKAtomic();
  testFusedWithoutInputs();
  testDynamicSharedMemory();
  runTypeLaunchTests(fake);
  runTmaLaunchTests(fake, hasTensorMaps);
  runConvLaunchTests(fake);
  runMgpuTests(fake, fakeSetCurrent);
}
