//===- ConvTest.cpp - Convolution kernels in the runtime ------------------===//
//
// Names and PTX headers of convolution kernels (isaac_conv_...), the checks
// of isaacConvLaunch's arguments, and, against FakeCudaDriver, the launch
// protocol: the conv parameter list of KernelABI.def's CONV_ARG rows, the
// implicit GEMM's grid, and its split-K helpers on an N*P*Q x K matrix.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"
#include "TestUtil.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace {

const char *const kHwcf =
    "isaac_conv_f32_nhwc_hwcf_simt_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4";
const char *const kFhwcSplit =
    "isaac_conv_f64_nhwc_fhwc_simt_ml32_nl32_ms4_ns4_u4_ks1_kl1_kg4_v2";

/// A module holding `entries`, each with the conv kernel's parameters (the
/// fake driver reads their sizes from the PTX), plus `extra` text.
std::string convPtx(const char *header, const char *name, bool f64,
                    const char *helpers = "") {
  std::string ptx = header;
  ptx += "//\n.version 8.0\n.target sm_90\n.address_size 64\n";
  ptx += helpers;
  const char *scalar = f64 ? ".f64" : ".f32";
  ptx += std::string("\n.visible .entry ") + name + "(";
  for (int i = 0; i < 21; ++i) {
    const char *type = i < 4 ? ".u64" : i < 19 ? ".u32" : scalar;
    ptx += std::string(i ? ",\n" : "\n") + "\t.param " + type + " p" +
           std::to_string(i);
  }
  ptx += "\n)\n{\n\tret;\n}\n";
  return ptx;
}

/// A convolution launch through the host ABI.
struct Conv {
  const char *name;
  int dtype, ml, nl, threads, kg;
  uintptr_t O = 0x10000, I = 0x20000, F = 0x30000;
  int N = 2, H = 9, W = 11, C = 5, K = 7, R = 3, S = 3, P = 9, Q = 6;
  int strideH = 1, strideW = 2, dilationH = 1, dilationW = 1, padTop = 1,
      padLeft = 1;
  double alpha = 1.5, beta = 0.5;
  void *stream = reinterpret_cast<void *>(0x5000);
  int flags = 0;

  int launch(const std::string &ptx) const {
    return isaacConvLaunch(ptx.c_str(), name, dtype, ml, nl, threads, kg,
                           reinterpret_cast<void *>(O),
                           reinterpret_cast<const void *>(I),
                           reinterpret_cast<const void *>(F), N, H, W, C, K, R,
                           S, P, Q, strideH, strideW, dilationH, dilationW,
                           padTop, padLeft, alpha, beta, stream, flags);
  }
  isaacConvArgs args() const {
    isaacConvArgs a = {};
    a.O = reinterpret_cast<void *>(O);
    a.I = reinterpret_cast<const void *>(I);
    a.F = reinterpret_cast<const void *>(F);
    a.N = N;
    a.H = H;
    a.W = W;
    a.C = C;
    a.K = K;
    a.R = R;
    a.S = S;
    a.P = P;
    a.Q = Q;
    a.strideH = strideH;
    a.strideW = strideW;
    a.dilationH = dilationH;
    a.dilationW = dilationW;
    a.padTop = padTop;
    a.padLeft = padLeft;
    a.alpha = alpha;
    a.beta = beta;
    a.stream = stream;
    a.flags = flags;
    return a;
  }
};

void testConvNames() {
  isaacKernelInfo info;
  CHECK_STATUS(isaacParseKernelName(kHwcf, &info), ISAAC_SUCCESS, "");
  CHECK(info.op == ISAAC_OP_CONV);
  CHECK(info.convLayout == ISAAC_CONV_NHWC_HWCF);
  CHECK(info.dtype == ISAAC_F32 && info.cDtype == ISAAC_F32);
  CHECK(info.transA == 0 && info.transB == 0);
  CHECK(info.ml == 64 && info.nl == 32 && info.kg == 1 && info.vec == 4);
  CHECK(info.threads == 64);
  CHECK(info.family == ISAAC_FAMILY_SIMT);

  CHECK_STATUS(isaacParseKernelName(kFhwcSplit, &info), ISAAC_SUCCESS, "");
  CHECK(info.op == ISAAC_OP_CONV);
  CHECK(info.convLayout == ISAAC_CONV_NHWC_FHWC);
  CHECK(info.dtype == ISAAC_F64 && info.computeDtype == ISAAC_F64);
  // FHWC filters are the implicit GEMM's B stored N x K.
  CHECK(info.transA == 0 && info.transB == 1);

  // GEMM names keep op = 0.
  CHECK_STATUS(
      isaacParseKernelName(
          "isaac_gemm_f32_nn_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4", &info),
      ISAAC_SUCCESS, "");
  CHECK(info.op == ISAAC_OP_GEMM && info.convLayout == 0);

  CHECK_STATUS(
      isaacParseKernelName(
          "isaac_conv_f32_nchw_hwcf_simt_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4",
          &info),
      ISAAC_ERROR_PARSE, "isaac_conv_<types>_<nhwc_hwcf|nhwc_fhwc>");
  CHECK_STATUS(
      isaacParseKernelName(
          "isaac_conv_f32_nhwc_hwcf_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4",
          &info),
      ISAAC_ERROR_PARSE, "a family token");
}

const char *const kHwcfHeader =
    "// isaac.config = #isaac.gemm<...>\n"
    "// isaac.kernel name=isaac_conv_f32_nhwc_hwcf_simt_ml64_nl32_ms8_ns4_u8_"
    "ks1_kl1_kg1_v4 op=conv dtype=f32 layout=nhwc_hwcf ml=64 nl=32 ms=8 ns=4 "
    "u=8 ks=1 kl=1 kg=1 vec=4 threads=64 smem=12288 dynsmem=0 chip=sm_90\n";

void testConvHeaders() {
  isaacKernelInfo info;
  std::string ptx = convPtx(kHwcfHeader, kHwcf, false);
  CHECK_STATUS(isaacParseKernelInfo(ptx.c_str(), &info), ISAAC_SUCCESS, "");
  CHECK(info.op == ISAAC_OP_CONV && info.smem == 12288);
  CHECK(std::strcmp(info.chip, "sm_90") == 0);

  auto edited = [&](const char *from, const char *to) {
    std::string text = kHwcfHeader;
    text.replace(text.find(from), std::strlen(from), to);
    return convPtx(text.c_str(), kHwcf, false);
  };
  CHECK_STATUS(isaacParseKernelInfo(edited("op=conv ", "").c_str(), &info),
               ISAAC_ERROR_PARSE, "op=gemm disagrees with name");
  CHECK_STATUS(
      isaacParseKernelInfo(edited("op=conv", "op=pool").c_str(), &info),
      ISAAC_ERROR_PARSE, "op 'pool' is neither gemm nor conv");
  CHECK_STATUS(
      isaacParseKernelInfo(
          edited("layout=nhwc_hwcf", "layout=nhwc_fhwc").c_str(), &info),
      ISAAC_ERROR_PARSE, "layout=nhwc_fhwc disagrees with name");
  CHECK_STATUS(isaacParseKernelInfo(
                   edited("layout=nhwc_hwcf", "layout=nn").c_str(), &info),
               ISAAC_ERROR_PARSE, "layout 'nn' is not nhwc_hwcf or nhwc_fhwc");
}

void testConvValidation() {
  isaacKernelInfo info;
  CHECK_STATUS(isaacParseKernelName(kHwcf, &info), ISAAC_SUCCESS, "");
  Conv c{kHwcf, ISAAC_F32, 64, 32, 64, 1};
  isaacConvArgs a = c.args();
  CHECK_STATUS(isaacValidateConv(&info, &a), ISAAC_SUCCESS, "");
  // P = 9 rows from H = 9, R = 3, padTop = 1: padBottom = 1. With P = 11
  // the last row's window (input rows 9 to 11) would read only padding.
  a.P = 11;
  CHECK_STATUS(isaacValidateConv(&info, &a), ISAAC_ERROR_INVALID_VALUE,
               "output rows whose window lies entirely in the padding");
  a = c.args();
  a.C = 0;
  CHECK_STATUS(isaacValidateConv(&info, &a), ISAAC_ERROR_INVALID_VALUE,
               "invalid convolution");
  a = c.args();
  a.I = reinterpret_cast<const void *>(0x20002);
  CHECK_STATUS(isaacValidateConv(&info, &a), ISAAC_ERROR_INVALID_VALUE,
               "A=0x20002 is not aligned");
  a = c.args();
  a.flags = 4;
  CHECK_STATUS(isaacValidateConv(&info, &a), ISAAC_ERROR_INVALID_VALUE,
               "flags=0x4");
  // The implicit GEMM's M = N*P*Q must fit the kernels' 32-bit arguments.
  a = c.args();
  a.N = 1 << 20;
  a.H = a.P = 1 << 11;
  CHECK_STATUS(isaacValidateConv(&info, &a), ISAAC_ERROR_INVALID_VALUE,
               "at most 2^31 - 1");

  isaacKernelInfo gemm;
  CHECK_STATUS(
      isaacParseKernelName(
          "isaac_gemm_f32_nn_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4", &gemm),
      ISAAC_SUCCESS, "");
  a = c.args();
  CHECK_STATUS(isaacValidateConv(&gemm, &a), ISAAC_ERROR_INVALID_VALUE,
               "is a GEMM kernel, not a convolution kernel");

  // The host ABI checks the entry point against the name: no driver is
  // needed to refuse these.
  std::string ptx = convPtx(kHwcfHeader, kHwcf, false);
  CHECK_STATUS(isaacGemmLaunch(ptx.c_str(), kHwcf, ISAAC_F32, 64, 32, 64, 1,
                               reinterpret_cast<void *>(0x10000),
                               reinterpret_cast<const void *>(0x20000),
                               reinterpret_cast<const void *>(0x30000), 10, 10,
                               10, 10, 10, 10, 0, 0, 0, 1, 1.0, 0.0, nullptr,
                               0),
               ISAAC_ERROR_INVALID_VALUE,
               "is a convolution kernel; launch it with isaacConvLaunch");
  Conv wrongName = c;
  wrongName.name = "isaac_gemm_f32_nn_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4";
  CHECK_STATUS(wrongName.launch(ptx), ISAAC_ERROR_INVALID_VALUE,
               "is a GEMM kernel; launch it with isaacGemmLaunch");
  Conv wrongTile = c;
  wrongTile.ml = 32;
  CHECK_STATUS(wrongTile.launch(ptx), ISAAC_ERROR_INVALID_VALUE,
               "ml=32 disagrees with the kernel name");
  Conv badShape = c;
  badShape.Q = 0;
  CHECK_STATUS(badShape.launch(ptx), ISAAC_ERROR_INVALID_VALUE,
               "isaacConvLaunch(" + std::string(kHwcf) + ")");
}

template <typename T> T param(const FakeLaunch &launch, int index) {
  T value;
  std::memcpy(&value, launch.params[index], sizeof(T));
  return value;
}

void checkConvParams(const FakeLaunch &l, const Conv &c, uint64_t workspace,
                     bool f64) {
  CHECK(l.numParams == 21);
  CHECK(param<uint64_t>(l, 0) == c.O);
  CHECK(param<uint64_t>(l, 1) == c.I);
  CHECK(param<uint64_t>(l, 2) == c.F);
  CHECK(param<uint64_t>(l, 3) == workspace);
  const int sizes[] = {c.N,         c.H,       c.W,       c.C,
                       c.K,         c.P,       c.Q,       c.R,
                       c.S,         c.strideH, c.strideW, c.dilationH,
                       c.dilationW, c.padTop,  c.padLeft};
  for (int i = 0; i < 15; ++i)
    CHECK(param<uint32_t>(l, 4 + i) == static_cast<uint32_t>(sizes[i]));
  if (f64) {
    CHECK(param<double>(l, 19) == c.alpha && param<double>(l, 20) == c.beta);
  } else {
    CHECK(param<float>(l, 19) == static_cast<float>(c.alpha));
    CHECK(param<float>(l, 20) == static_cast<float>(c.beta));
  }
  // The implicit GEMM's grid: N*P*Q rows of the output by K channels.
  int m = c.N * c.P * c.Q;
  CHECK(l.grid[0] == static_cast<unsigned>((m + c.ml - 1) / c.ml));
  CHECK(l.grid[1] == static_cast<unsigned>((c.K + c.nl - 1) / c.nl));
  CHECK(l.grid[2] == static_cast<unsigned>(c.kg));
  CHECK(l.block[0] == static_cast<unsigned>(c.threads));
  CHECK(l.stream == c.stream);
}

} // namespace

void runConvTests() {
  testConvNames();
  testConvHeaders();
  testConvValidation();
}

void runConvLaunchTests(const FakeCudaApi &fake) {
  fake.reset();
  Conv c{kHwcf, ISAAC_F32, 64, 32, 64, 1};
  std::string ptx = convPtx(kHwcfHeader, kHwcf, false);
  CHECK_STATUS(c.launch(ptx), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1)
    checkConvParams(*fake.launch(0), c, 0, false);

  // The shape that passed last is remembered per launch site: a different
  // one from the same site is checked again.
  Conv badShape = c;
  badShape.Q = 0;
  CHECK_STATUS(badShape.launch(ptx), ISAAC_ERROR_INVALID_VALUE,
               "invalid convolution: Q = 0 must be at least 1");
  CHECK_STATUS(c.launch(ptx), ISAAC_SUCCESS, "");
  badShape = c;
  badShape.padTop = 3;
  CHECK_STATUS(badShape.launch(ptx), ISAAC_ERROR_INVALID_VALUE,
               "window lies entirely in the padding");
  CHECK(fake.launchCount() == 2);

  // Split-K, atomic: O = beta*O over the N*P*Q x K output first.
  const char *helpers =
      "\n.visible .entry isaac_scale_f64(\n\t.param .u64 p0\n)\n{\n\tret;\n}\n"
      "\n.visible .entry isaac_splitk_reduce_f64(\n\t.param .u64 p0\n)\n{\n\t"
      "ret;\n}\n";
  Conv s{kFhwcSplit, ISAAC_F64, 32, 32, 64, 4};
  s.alpha = 1.0 / 3.0;
  // A stream of its own: its workspace is allocated by this test.
  s.stream = reinterpret_cast<void *>(0x9300);
  std::string splitPtx = convPtx("", kFhwcSplit, true, helpers);
  fake.reset();
  CHECK_STATUS(s.launch(splitPtx), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 2);
  int m = s.N * s.P * s.Q;
  if (fake.launchCount() == 2) {
    FakeLaunch scale = *fake.launch(0);
    CHECK(std::strcmp(scale.name, "isaac_scale_f64") == 0);
    CHECK(param<uint64_t>(scale, 0) == s.O);
    CHECK(param<uint32_t>(scale, 1) == static_cast<uint32_t>(m));
    CHECK(param<uint32_t>(scale, 2) == static_cast<uint32_t>(s.K));
    CHECK(param<uint32_t>(scale, 3) == static_cast<uint32_t>(s.K));
    CHECK(param<uint64_t>(scale, 4) == 0u);
    CHECK(param<double>(scale, 5) == s.beta);
    checkConvParams(*fake.launch(1), s, 0, true);
  }

  // Split-K, deterministic: KG planes of N*P*Q x K, then the reduction.
  s.flags = ISAAC_DETERMINISTIC;
  fake.reset();
  CHECK_STATUS(s.launch(splitPtx), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 2);
  if (fake.launchCount() == 2) {
    uint64_t workspace = fake.lastAllocation();
    CHECK(fake.lastAllocationBytes() >=
          static_cast<size_t>(4) * m * s.K * sizeof(double));
    checkConvParams(*fake.launch(0), s, workspace, true);
    FakeLaunch reduce = *fake.launch(1);
    CHECK(std::strcmp(reduce.name, "isaac_splitk_reduce_f64") == 0);
    CHECK(param<uint64_t>(reduce, 1) == workspace);
    CHECK(param<uint32_t>(reduce, 2) == static_cast<uint32_t>(m));
    CHECK(param<uint32_t>(reduce, 3) == static_cast<uint32_t>(s.K));
    CHECK(param<uint32_t>(reduce, 6) == 4u);
  }

  // isaacConvLaunchModule: the same launch from a loaded module.
  isaacModule module = nullptr;
  CHECK_STATUS(isaacModuleLoad(ptx.c_str(), &module), ISAAC_SUCCESS, "");
  isaacKernelInfo info;
  CHECK_STATUS(isaacParseKernelInfo(ptx.c_str(), &info), ISAAC_SUCCESS, "");
  isaacConvArgs a = c.args();
  fake.reset();
  CHECK_STATUS(isaacConvLaunchModule(module, &info, &a), ISAAC_SUCCESS, "");
  CHECK(fake.launchCount() == 1);
  if (fake.launchCount() == 1)
    checkConvParams(*fake.launch(0), c, 0, false);
}
