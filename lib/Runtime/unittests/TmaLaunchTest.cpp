//===- TmaLaunchTest.cpp - Tensor maps of wgmma kernels -------------------===//
//
// A GEMM kernel of the wgmma family takes, after all its other parameters,
// the tensor maps of A and B and useTma (docs/abi.md, "Tensor maps"). Its
// launches against the fake driver check what the runtime asked
// cuTensorMapEncodeTiled for (the global view of each operand as stored
// and the box and swizzle of its shared-memory tile, in K-major and M or N
// major layouts), that the kernel received the maps the driver wrote with
// useTma = 1, and that every operand TMA cannot address, a refused map, a
// driver without the encoder (the fake built without it), or a block's K
// loop of fewer tiles than the kernel's stages gives useTma = 0 and zeroed
// maps, still launching. simt and mma kernels take no maps. The family's
// convolution kernels take them too: the input's im2col map
// (cuTensorMapEncodeIm2col) and the filters' as the implicit GEMM's B.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"
#include "TestUtil.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

const FakeCudaApi *fake = nullptr;
bool driverHasEncoder = true;

template <typename T> T param(const FakeLaunch &launch, int index) {
  T value;
  std::memcpy(&value, launch.params[index], sizeof(T));
  return value;
}

struct WgmmaGemm {
  std::string name, header;
  /// The split-K reduction launched after the GEMM; none without split-K.
  std::string helper;
  int dtype, ml, nl, threads, kg = 1;
  uintptr_t C = 0x10000, A = 0x20000, B = 0x30000;
  // K spans enough tiles of every kernel below (5 of U = 64, 10 of 32, 19
  // of 16) to fill its pipeline: fewer than its stages would keep it off
  // TMA whatever its operands.
  int M = 100, N = 70, K = 300, lda = 304, ldb = 312, ldc = 72;
  int64_t sA = 0, sB = 0, sC = 0;
  int batch = 1;
  int flags = 0; ///< isaacGemmLaunch's flags (ISAAC_DETERMINISTIC)

  /// Names the kernel and describes it by the `// isaac.kernel` line of
  /// `fields` (after its name).
  void describe(const std::string &kernel, const std::string &fields) {
    name = kernel;
    header = "// isaac.kernel name=" + kernel + " " + fields + "\n";
  }

  int launch() const {
    // The header describes the kernel (dynamic shared memory: the runtime
    // reads it); the split-K helper, if any, follows the GEMM.
    std::vector<std::string> entries = {name};
    if (!helper.empty())
      entries.push_back(helper);
    std::string ptx = header + ptxWith(entries, "", "sm_90a");
    return isaacGemmLaunch(ptx.c_str(), name.c_str(), dtype, ml, nl, threads,
                           kg, reinterpret_cast<void *>(C),
                           reinterpret_cast<const void *>(A),
                           reinterpret_cast<const void *>(B), M, N, K, lda, ldb,
                           ldc, sA, sB, sC, batch, 1.0, 0.0, nullptr, flags);
  }
};

/// f16, layout nt: A (M x K) and B (N x K) both K-major. A tile row is
/// U = 64 f16 = 128 bytes, so each box is 64 x ML (A) or 64 x NL (B) with
/// the 128-byte swizzle.
WgmmaGemm kMajorGemm() {
  WgmmaGemm g;
  g.describe(
      "isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4",
      "dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=128 u=64 kl=1 kg=1 vec=8 "
      "stages=4 threads=256 smem=131072 dynsmem=1 chip=sm_90a");
  g.dtype = ISAAC_F16;
  g.ml = 128;
  g.nl = 128;
  g.threads = 256;
  return g;
}

/// bf16, layout nn, batched: A (M x K) K-major with U = 32 (64-byte rows:
/// box 32 x 64, 64-byte swizzle), B (K x N) N-major, its rows the
/// warpgroup's WN = 64 columns (128 bytes: box 64 x U = 64 x 32).
WgmmaGemm mixedGemm() {
  WgmmaGemm g;
  g.describe("isaac_gemm_bf16_nn_wgmma_ml64_nl128_wm64_wn64_u32_kl1_kg1_v8_st3",
             "dtype=bf16 layout=nn ml=64 nl=128 wm=64 wn=64 u=32 kl=1 kg=1 "
             "vec=8 stages=3 threads=256 smem=49152 dynsmem=1 chip=sm_90a");
  g.dtype = ISAAC_BF16;
  g.ml = 64;
  g.nl = 128;
  g.threads = 256;
  g.ldb = 72;
  g.batch = 2;
  g.sA = 100 * 304 + 8;
  g.sB = 300 * 72;
  g.sC = 100 * 72;
  return g;
}

/// f16f32, layout tt: A (K x M) M-major, its rows WM = 64 elements (box
/// 64 x U = 64 x 16, 128-byte swizzle); B (N x K) K-major with U = 16
/// (32-byte rows: box 16 x NL = 16 x 64, 32-byte swizzle).
WgmmaGemm mMajorGemm() {
  WgmmaGemm g;
  g.describe(
      "isaac_gemm_f16f32_tt_wgmma_ml64_nl64_wm64_wn16_u16_kl1_kg1_v8_st4",
      "dtype=f16f32 layout=tt ml=64 nl=64 wm=64 wn=16 u=16 kl=1 kg=1 vec=8 "
      "stages=4 threads=512 smem=32768 dynsmem=1 chip=sm_90a");
  g.dtype = ISAAC_F16;
  g.ml = 64;
  g.nl = 64;
  g.threads = 512;
  g.lda = 104; // A stored K x M
  g.ldb = 320; // B stored N x K
  g.C = 0x10000;
  return g;
}

/// kMajorGemm's kernel split over K into KG = 4 slices: its blocks each
/// loop over ceil(K / 4) of K. C is f16, so the slices' sums go through
/// the workspace and isaac_splitk_reduce_f16 runs after the GEMM.
WgmmaGemm splitKGemm() {
  WgmmaGemm g = kMajorGemm();
  g.describe(
      "isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg4_v8_st4",
      "dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=128 u=64 kl=1 kg=4 vec=8 "
      "stages=4 threads=256 smem=131072 dynsmem=1 chip=sm_90a");
  g.kg = 4;
  g.helper = "isaac_splitk_reduce_f16";
  return g;
}

/// The encoder calls the fake logged, in order: those of the tiled form,
/// or (`prefix` "cuTensorMapEncode") of both forms.
std::vector<std::string>
encodes(const char *prefix = "cuTensorMapEncodeTiled(") {
  std::vector<std::string> lines;
  std::string log = fake->calls();
  for (size_t at = 0; (at = log.find(prefix, at)) != std::string::npos;) {
    size_t end = log.find('\n', at);
    lines.push_back(log.substr(at, end - at));
    at = end;
  }
  return lines;
}

/// The log line of an encode the runtime must ask for.
std::string encodeLine(int type, uintptr_t address, const char *dim,
                       const char *stride, const char *box, int swizzle) {
  char text[320];
  std::snprintf(text, sizeof text,
                "cuTensorMapEncodeTiled(type=%d, rank=3, addr=%#llx, dim=%s, "
                "stride=%s, box=%s, elementStride=1x1x1, interleave=0, "
                "swizzle=%d, l2=3, oob=0)",
                type, static_cast<unsigned long long>(address), dim, stride,
                box, swizzle);
  return text;
}

/// The index of useTma in `g`'s parameters: after the GEMM's 15, its tile
/// counters if it has them (a 16-bit C) and the two maps.
int useTmaIndex(const WgmmaGemm &g) { return 17 + sixteenBitC(g.name); }

/// Launches `g`, which must succeed with a first launch of 18 parameters
/// (19 with tile counters) whose first 15 are the GEMM's, then its helper's
/// if any; returns the GEMM's launch.
FakeLaunch launchOnce(const WgmmaGemm &g) {
  fake->reset();
  fake->clearCalls();
  CHECK_STATUS(g.launch(), ISAAC_SUCCESS, "");
  int launches = g.helper.empty() ? 1 : 2;
  CHECK(fake->launchCount() == launches);
  FakeLaunch l = {};
  if (fake->launchCount() != launches)
    return l;
  if (launches == 2)
    CHECK(fake->launch(1)->name == g.helper);
  l = *fake->launch(0);
  CHECK(l.name == g.name);
  CHECK(l.grid[2] == static_cast<unsigned>(g.batch * g.kg));
  int useTma = useTmaIndex(g);
  CHECK(l.numParams == useTma + 1);
  CHECK(param<uint64_t>(l, 1) == g.A && param<uint64_t>(l, 2) == g.B);
  CHECK(param<uint32_t>(l, 7) == static_cast<uint32_t>(g.lda));
  CHECK(param<uint32_t>(l, 8) == static_cast<uint32_t>(g.ldb));
  // S: 0 when no tile's last block finishes it (KG <= 16 here).
  if (sixteenBitC(g.name))
    CHECK(l.paramSizes[15] == 8 && param<uint64_t>(l, 15) == 0);
  CHECK(l.paramSizes[useTma - 2] == FAKE_TENSOR_MAP_BYTES &&
        l.paramSizes[useTma - 1] == FAKE_TENSOR_MAP_BYTES &&
        l.paramSizes[useTma] == 4);
  CHECK(l.numTensorMaps == 2);
  // The runtime's copies are aligned whether or not it encoded them.
  CHECK(l.tensorMapAligned[0] && l.tensorMapAligned[1]);
  return l;
}

/// useTma = 1, and the maps passed are all the bytes the encoder wrote for
/// A (first) and B.
void checkTma(const FakeLaunch &l, const WgmmaGemm &g) {
  CHECK(param<uint32_t>(l, useTmaIndex(g)) == 1u);
  const uintptr_t address[2] = {g.A, g.B};
  for (int m = 0; m < 2 && m < l.numTensorMaps; ++m) {
    uint64_t words[16];
    std::memcpy(words, l.tensorMaps[m], sizeof words);
    for (int q = 0; q < 16; ++q)
      CHECK(words[q] == fakeTensorMapWord(address[m], q));
  }
}

/// useTma = 0 and both maps zero.
void checkNoTma(const FakeLaunch &l, const WgmmaGemm &g) {
  CHECK(param<uint32_t>(l, useTmaIndex(g)) == 0u);
  static const unsigned char zero[FAKE_TENSOR_MAP_BYTES] = {};
  for (int m = 0; m < 2 && m < l.numTensorMaps; ++m)
    CHECK(std::memcmp(l.tensorMaps[m], zero, sizeof zero) == 0);
}

/// Launches `g`: with the encoder, the runtime asks for exactly `expected`
/// (A's map, B's) and passes them with useTma = 1; without it, asks for
/// nothing and passes useTma = 0.
void checkEncoded(const WgmmaGemm &g,
                  const std::vector<std::string> &expected) {
  FakeLaunch l = launchOnce(g);
  std::vector<std::string> got = encodes();
  if (!driverHasEncoder) {
    CHECK(got.empty());
    checkNoTma(l, g);
    return;
  }
  CHECK(got == expected);
  if (got != expected)
    for (const std::string &line : got)
      std::fprintf(stderr, "  got: %s\n", line.c_str());
  checkTma(l, g);
}

void testEncodedMaps() {
  // f16 (type 6), nt: A {K, M, 1} with strides {lda*2, lda*2*M}; B
  // {K, N, 1}, {ldb*2, ldb*2*N}.
  WgmmaGemm nt = kMajorGemm();
  checkEncoded(nt,
               {encodeLine(6, nt.A, "300x100x1", "608x60800", "64x128x1", 3),
                encodeLine(6, nt.B, "300x70x1", "624x43680", "64x128x1", 3)});
  // Other extents and leading dimensions: a single matrix's batch stride
  // is its bytes, 640 * 99 and 656 * 3.
  nt.lda = 320;
  nt.M = 99;
  nt.ldb = 328;
  nt.N = 3;
  checkEncoded(nt, {encodeLine(6, nt.A, "300x99x1", "640x63360", "64x128x1", 3),
                    encodeLine(6, nt.B, "300x3x1", "656x1968", "64x128x1", 3)});

  // bf16 (type 9), nn, two matrices: A {K, M, 2}, B N-major {N, K, 2}, the
  // batch strides in bytes.
  WgmmaGemm nn = mixedGemm();
  checkEncoded(nn,
               {encodeLine(9, nn.A, "300x100x2", "608x60816", "32x64x1", 2),
                encodeLine(9, nn.B, "70x300x2", "144x43200", "64x32x1", 3)});
  // The largest batch stride TMA takes: 2^40 - 16 bytes.
  nn.sA = (int64_t(1) << 39) - 8;
  checkEncoded(
      nn, {encodeLine(9, nn.A, "300x100x2", "608x1099511627760", "32x64x1", 2),
           encodeLine(9, nn.B, "70x300x2", "144x43200", "64x32x1", 3)});

  // f16f32 (A and B f16), tt: A M-major {M, K, 1}, B K-major {K, N, 1}.
  WgmmaGemm tt = mMajorGemm();
  checkEncoded(tt,
               {encodeLine(6, tt.A, "100x300x1", "208x62400", "64x16x1", 3),
                encodeLine(6, tt.B, "300x70x1", "640x44800", "16x64x1", 1)});
}

/// A cluster kernel (cm = 2: two blocks along M share B's tiles, each
/// copying half of B's rows and multicasting them): B's box is half the
/// tile's rows (K-major B: NL = 128 -> 64 rows; N-major: U = 32 -> 16), A's
/// unchanged, and the grid's x is a whole number of clusters (M = 100 is
/// one tile of 128 rows, launched as 2 blocks; 257 rows of 64 are 5, as 6).
void testClusterKernels() {
  // `g` renamed to its cm = 2 kernel (the header gains cm=2 after stages).
  auto cluster = [](WgmmaGemm g) {
    std::string fields = g.header.substr(g.header.find("dtype="));
    fields.pop_back(); // the line's end
    fields.insert(fields.find(" threads="), " cm=2");
    g.describe(g.name + "_cm2", fields);
    return g;
  };
  WgmmaGemm nt = cluster(kMajorGemm());
  checkEncoded(nt,
               {encodeLine(6, nt.A, "300x100x1", "608x60800", "64x128x1", 3),
                encodeLine(6, nt.B, "300x70x1", "624x43680", "64x64x1", 3)});
  CHECK(launchOnce(nt).grid[0] == 2u);
  WgmmaGemm nn = cluster(mixedGemm());
  checkEncoded(nn,
               {encodeLine(9, nn.A, "300x100x2", "608x60816", "32x64x1", 2),
                encodeLine(9, nn.B, "70x300x2", "144x43200", "64x16x1", 3)});
  CHECK(launchOnce(nn).grid[0] == 2u);
  nn.M = 257;
  nn.sC = 257 * 72;
  nn.sA = 257 * 304 + 8;
  FakeLaunch l = launchOnce(nn);
  CHECK(l.grid[0] == 6u && l.grid[1] == 1u);
}

/// A persistent kernel (ws = 1, pt = 1): a grid of (min(tiles, resident /
/// batch), 1, batch) blocks that loop over the tiles, where resident is
/// the GPU's SMs times the blocks of the kernel an SM holds, which the
/// runtime asks the driver once per loaded kernel.
void testPersistentKernel() {
  WgmmaGemm g = kMajorGemm();
  g.describe(g.name + "_ws1_pt1",
             "dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=128 u=64 kl=1 kg=1 "
             "vec=8 stages=4 ws=1 pt=1 threads=384 smem=149632 dynsmem=1 "
             "chip=sm_90a");
  g.threads = 384;
  const unsigned resident = kFakeMultiprocessors * kFakeBlocksPerMultiprocessor;
  const std::string query = "cuOccupancyMaxActiveBlocksPerMultiprocessor(" +
                            g.name + ", 384, 149632)";
  // One tile (100 x 70): one block.
  FakeLaunch l = launchOnce(g);
  CHECK(l.grid[0] == 1u && l.grid[1] == 1u);
  CHECK(std::string(fake->calls()).find(query) != std::string::npos);
  // 8 x 6 tiles: as many blocks as the GPU holds; asked once.
  g.M = 1000;
  g.N = 700;
  g.ldc = 704;
  l = launchOnce(g);
  CHECK(l.grid[0] == resident && l.grid[1] == 1u);
  CHECK(std::string(fake->calls()).find(query) == std::string::npos);
  // Two batches share the GPU.
  g.batch = 2;
  g.sA = int64_t(1000) * 304;
  g.sB = int64_t(700) * 312;
  g.sC = int64_t(1000) * 704;
  l = launchOnce(g);
  CHECK(l.grid[0] == resident / 2 && l.grid[1] == 1u && l.grid[2] == 2u);
  // The persistent protocol has no place for split-K slices.
  WgmmaGemm split = splitKGemm();
  split.describe(split.name + "_ws1_pt1",
                 "dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=128 u=64 kl=1 "
                 "kg=4 vec=8 stages=4 ws=1 pt=1 threads=384 smem=149632 "
                 "dynsmem=1 chip=sm_90a");
  split.threads = 384;
  CHECK_STATUS(split.launch(), ISAAC_ERROR_PARSE,
               "pt=1 (persistent tiles) needs kg=1, not kg=4");
}

/// splitKGemm's kernel with kc = 1: its KG = 4 slices are one cluster
/// along z that sums them inside the launch, so in both modes it is one
/// launch of batch * KG blocks in z, no workspace (W = 0) and no tile
/// counters (S = 0), and nothing is allocated; B's box is the whole tile
/// (no cluster along M).
void testClusterSplitK() {
  WgmmaGemm g = splitKGemm();
  g.describe(
      "isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg4_v8_st4_kc1",
      "dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=128 u=64 kl=1 kg=4 vec=8 "
      "stages=4 kc=1 threads=256 smem=131072 dynsmem=1 chip=sm_90a");
  g.helper.clear();
  // Slices of K / KG = 512: 8 tiles of U, the pipeline filled (TMA).
  g.K = 2048;
  g.lda = 2056;
  g.ldb = 2064;
  g.batch = 2;
  g.sA = 100 * 2056;
  g.sB = 70 * 2064;
  g.sC = 100 * 72;
  for (int flags : {0, static_cast<int>(ISAAC_DETERMINISTIC)}) {
    g.flags = flags;
    int allocations = fake->allocations();
    FakeLaunch l = launchOnce(g);
    CHECK(fake->allocations() == allocations);
    CHECK(param<uint64_t>(l, 3) == 0u);
    CHECK(l.grid[2] == 8u);
    if (!driverHasEncoder) {
      checkNoTma(l, g);
      continue;
    }
    checkTma(l, g);
    std::vector<std::string> maps = encodes();
    CHECK(maps.size() == 2u &&
          maps[1] ==
              encodeLine(6, g.B, "2048x70x2", "4128x288960", "64x128x1", 3));
  }
}

/// A block's K loop of fewer tiles of U than the kernel's stages never
/// fills its pipeline, so it is launched with useTma = 0 and zeroed maps,
/// and nothing is encoded, whatever its operands; with split-K the loop is
/// one slice of ceil(K / KG). Each kernel is tried on both sides of the
/// boundary, where a partial last tile counts, so that rounding the tiles
/// or the slice down, comparing strictly, or ignoring KG or the stages of
/// the header would fail.
void testPipelineDepth() {
  struct Case {
    const char *what;
    WgmmaGemm g;
    std::vector<std::string> encoded; ///< with the encoder; none: no TMA
  };
  std::vector<Case> cases;
  WgmmaGemm g = kMajorGemm(); // U = 64, 4 stages
  g.K = 30;
  cases.push_back({"u64 st4, K = 30: 1 tile", g, {}});
  g.K = 192;
  cases.push_back({"u64 st4, K = 192: 3 tiles", g, {}});
  g.K = 193;
  cases.push_back(
      {"u64 st4, K = 193: 4 tiles, the last partial",
       g,
       {encodeLine(6, g.A, "193x100x1", "608x60800", "64x128x1", 3),
        encodeLine(6, g.B, "193x70x1", "624x43680", "64x128x1", 3)}});
  g.K = 256;
  cases.push_back(
      {"u64 st4, K = 256: 4 tiles",
       g,
       {encodeLine(6, g.A, "256x100x1", "608x60800", "64x128x1", 3),
        encodeLine(6, g.B, "256x70x1", "624x43680", "64x128x1", 3)}});
  g = mixedGemm(); // U = 32, 3 stages
  g.K = 64;
  cases.push_back({"u32 st3, K = 64: 2 tiles", g, {}});
  g.K = 65;
  cases.push_back({"u32 st3, K = 65: 3 tiles, the last partial",
                   g,
                   {encodeLine(9, g.A, "65x100x2", "608x60816", "32x64x1", 2),
                    encodeLine(9, g.B, "70x65x2", "144x43200", "64x32x1", 3)}});
  g = splitKGemm(); // U = 64, 4 stages, KG = 4
  g.lda = 776;
  g.ldb = 784;
  g.K = 768;
  cases.push_back({"u64 st4 kg4, K = 768: 12 tiles, 3 a slice", g, {}});
  // The maps span all of K: each block offsets its own slice.
  g.K = 769;
  cases.push_back(
      {"u64 st4 kg4, K = 769: slices of 193, 4 tiles",
       g,
       {encodeLine(6, g.A, "769x100x1", "1552x155200", "64x128x1", 3),
        encodeLine(6, g.B, "769x70x1", "1568x109760", "64x128x1", 3)}});
  for (const Case &c : cases) {
    int failures = testFailures;
    if (c.encoded.empty()) {
      FakeLaunch l = launchOnce(c.g);
      CHECK(encodes().empty());
      checkNoTma(l, c.g);
    } else {
      checkEncoded(c.g, c.encoded);
    }
    if (testFailures != failures)
      std::fprintf(stderr, "  case: %s\n", c.what);
  }
}

/// Operands TMA cannot address: the runtime does not ask for their maps
/// (A's problems stop before any encode, B's after A's), and the kernel is
/// launched with useTma = 0 and zeroed maps.
void testIneligibleOperands() {
  struct Case {
    const char *what;
    WgmmaGemm g;
    size_t encodes; ///< with the encoder
  };
  std::vector<Case> cases;
  WgmmaGemm g = kMajorGemm();
  g.lda = 301; // odd: 602-byte rows
  cases.push_back({"odd lda", g, 0});
  g = kMajorGemm();
  g.ldb = 324; // 648-byte rows
  cases.push_back({"ldb*2 not a multiple of 16", g, 1});
  g = kMajorGemm();
  g.A = 0x20008; // aligned to f16, not to 16 bytes
  cases.push_back({"A not 16-byte aligned", g, 0});
  g = kMajorGemm();
  g.B = 0x30002;
  cases.push_back({"B not 16-byte aligned", g, 1});
  g = mixedGemm();
  g.sB = 0; // every batch reads the same B
  cases.push_back({"broadcast B", g, 1});
  g = mixedGemm();
  g.sA = 100 * 304 + 4; // 60808 bytes: not a multiple of 16
  cases.push_back({"sA*2 not a multiple of 16", g, 0});
  g = mixedGemm();
  g.sA = int64_t(1) << 39; // 2^40 bytes
  cases.push_back({"sA*2 of 2^40 bytes", g, 0});
  for (const Case &c : cases) {
    FakeLaunch l = launchOnce(c.g);
    size_t got = encodes().size();
    CHECK(got == (driverHasEncoder ? c.encodes : 0));
    checkNoTma(l, c.g);
    if (param<uint32_t>(l, useTmaIndex(c.g)) != 0 ||
        got != (driverHasEncoder ? c.encodes : 0))
      std::fprintf(stderr, "  case: %s\n", c.what);
  }
}

/// A map the driver refuses gives useTma = 0, not an error: A's (B's is
/// then not asked for), or B's after A's was written (which must not reach
/// the kernel).
void testEncoderFailure() {
  if (!driverHasEncoder)
    return;
  WgmmaGemm g = kMajorGemm();
  fake->failNext("cuTensorMapEncodeTiled", 1);
  FakeLaunch l = launchOnce(g);
  std::vector<std::string> got = encodes();
  CHECK(got.size() == 1 && got[0].find(" -> 1") != std::string::npos);
  checkNoTma(l, g);

  g.B = FAKE_REFUSED_TENSOR;
  l = launchOnce(g);
  got = encodes();
  CHECK(got.size() == 2 && got[0].find(" -> ") == std::string::npos &&
        got[1].find(" -> 1") != std::string::npos);
  checkNoTma(l, g);
}

/// A module of one kernel `name` described by the header lines `head`,
/// whose parameters are `types` (PTX types, e.g. "u64") then the wgmma
/// family's tmA, tmB and useTma (the fake driver reads the sizes of a
/// fused kernel's parameters from them).
std::string tmaEntryPtx(const std::string &head, const std::string &name,
                        const std::vector<const char *> &types) {
  std::string ptx = head +
                    ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    "\n.visible .entry " +
                    name + "(";
  for (size_t i = 0; i < types.size(); ++i)
    ptx += std::string(i ? "," : "") + "\n\t.param ." + types[i] + " p" +
           std::to_string(i);
  return ptx + ",\n\t.param .align 64 .b8 tmA[128],\n\t.param .align 64 "
               ".b8 tmB[128],\n\t.param .u32 useTma\n)\n{\n\tret;\n}\n";
}

/// The header lines of a fused kernel with one f32 input along n.
std::string fusedHead(const std::string &name, const std::string &fields) {
  return "// isaac.kernel name=" + name + " " + fields +
         " epilogue=00c0ffee12345678\n"
         "// isaac.epilogue id=00c0ffee12345678 out=f32 inputs=1 in0=f32[n] "
         "program=acc+in0\n";
}

/// The epilogue input of the fused kernels: a bias along n.
const isaacEpilogueInput kBias = {reinterpret_cast<const void *>(0x40000), 0, 0,
                                  1};

/// The one launch of a fused wgmma kernel whose kBias parameters start at
/// `input`: the maps and useTma follow them, 64-byte aligned, useTma = 1
/// with the maps the encoder wrote for `a` (tmA) and `b` (tmB) where the
/// driver has it, else 0.
void checkFusedLaunch(int input, uintptr_t a, uintptr_t b) {
  CHECK(fake->launchCount() == 1);
  if (fake->launchCount() != 1)
    return;
  FakeLaunch l = *fake->launch(0);
  int useTma = input + 4 + 2;
  CHECK(l.numParams == useTma + 1);
  CHECK(param<uint64_t>(l, input) == 0x40000u); // the input
  CHECK(param<uint64_t>(l, input + 3) == 1u);   // its sCol
  CHECK(l.paramSizes[useTma - 2] == FAKE_TENSOR_MAP_BYTES &&
        l.paramSizes[useTma - 1] == FAKE_TENSOR_MAP_BYTES &&
        l.paramSizes[useTma] == 4);
  CHECK(l.numTensorMaps == 2 && l.tensorMapAligned[0] && l.tensorMapAligned[1]);
  CHECK(param<uint32_t>(l, useTma) == (driverHasEncoder ? 1u : 0u));
  if (driverHasEncoder && l.numTensorMaps == 2) {
    uint64_t first[2] = {};
    std::memcpy(&first[0], l.tensorMaps[0], sizeof first[0]);
    std::memcpy(&first[1], l.tensorMaps[1], sizeof first[1]);
    CHECK(first[0] == fakeTensorMapWord(a, 0) &&
          first[1] == fakeTensorMapWord(b, 0));
  }
}

/// A fused wgmma kernel: the maps and useTma come after the tile counters
/// and the epilogue inputs' parameters, as its PTX declares them.
void testFusedKernel() {
  const std::string name = "isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_"
                           "u64_kl1_kg1_v8_st4_ep00c0ffee12345678";
  // The GEMM's 15, S, the input's 4, then tmA, tmB, useTma.
  std::string ptx = tmaEntryPtx(
      fusedHead(name, "dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=128 u=64 "
                      "kl=1 kg=1 vec=8 stages=4 threads=256 smem=131072 "
                      "dynsmem=1 chip=sm_90a"),
      name,
      {"u64", "u64", "u64", "u64", "u32", "u32", "u32", "u32", "u32", "u32",
       "u64", "u64", "u64", "f32", "f32", "u64", "u64", "u64", "u64", "u64"});
  WgmmaGemm g = kMajorGemm();
  fake->reset();
  fake->clearCalls();
  CHECK_STATUS(isaacGemmLaunchEpilogue(
                   ptx.c_str(), name.c_str(), ISAAC_F16, 128, 128, 256, 1,
                   reinterpret_cast<void *>(g.C),
                   reinterpret_cast<const void *>(g.A),
                   reinterpret_cast<const void *>(g.B), g.M, g.N, g.K, g.lda,
                   g.ldb, g.ldc, 0, 0, 0, 1, 1.0, 0.0, nullptr, 0, 1, &kBias),
               ISAAC_SUCCESS, "");
  checkFusedLaunch(16, g.A, g.B);
}

/// simt and mma GEMM kernels take no tensor maps: nothing is encoded and
/// they get their 15 parameters and (f16 C) the tile counters.
void testOtherFamilies() {
  const std::string mma =
      "isaac_gemm_f16_nt_mma_ml128_nl128_wm64_wn32_u32_kl1_kg1_v8_st4";
  WgmmaGemm m = kMajorGemm();
  m.describe(mma, "dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=32 u=32 kl=1 "
                  "kg=1 vec=8 stages=4 threads=256 smem=65536 dynsmem=1 "
                  "chip=sm_90");
  const std::string simt =
      "isaac_gemm_f16_nt_ml64_nl32_ms8_ns4_u8_ks1_kl1_kg1_v4";
  WgmmaGemm s = kMajorGemm();
  s.name = simt;
  s.header = "";
  s.ml = 64;
  s.nl = 32;
  s.threads = 64;
  for (const WgmmaGemm &g : {m, s}) {
    fake->reset();
    fake->clearCalls();
    CHECK_STATUS(g.launch(), ISAAC_SUCCESS, "");
    CHECK(fake->launchCount() == 1);
    CHECK(encodes().empty());
    if (fake->launchCount() == 1) {
      FakeLaunch l = *fake->launch(0);
      CHECK(l.numParams == 16 && l.numTensorMaps == 0);
    }
  }
}

/// A convolution kernel of the wgmma family: its 21 parameters, S (an f16
/// C's tile counters), then tmA (the input's im2col map), tmB (the
/// filters') and useTma, launched through isaacConvLaunch. The default is
/// hwcf, f16, U = 64 with 4 stages, on N2 9x11 C64 K40 3x3 with stride 2
/// and padding 1 (P = 5, Q = 6): 9 K tiles.
struct WgmmaConv {
  std::string name =
      "isaac_conv_f16_nhwc_hwcf_wgmma_ml128_nl64_wm64_wn64_u64_kl1_kg1_v8_st4";
  std::string fields = "op=conv dtype=f16 layout=nhwc_hwcf ml=128 nl=64 wm=64 "
                       "wn=64 u=64 kl=1 kg=1 vec=8 stages=4 threads=256 "
                       "smem=98304 dynsmem=1 chip=sm_90a";
  int ml = 128, nl = 64, threads = 256;
  uintptr_t O = 0x10000, I = 0x20000, F = 0x30000;
  int N = 2, H = 9, W = 11, C = 64, K = 40, R = 3, S = 3, P = 5, Q = 6;
  int strideH = 2, strideW = 2, dilationH = 1, dilationW = 1, padTop = 1,
      padLeft = 1;

  /// The PTX types of the conv kernel's parameters before the maps: its
  /// 21, S, then (`inputs`) an epilogue input's four.
  static std::vector<const char *> paramTypes(int inputs) {
    std::vector<const char *> types(4, "u64");
    types.insert(types.end(), 15, "u32");
    types.insert(types.end(), 2, "f32");
    types.insert(types.end(), 1 + 4 * inputs, "u64");
    return types;
  }

  int launch() const {
    std::string ptx =
        tmaEntryPtx("// isaac.kernel name=" + name + " " + fields + "\n", name,
                    paramTypes(0));
    return isaacConvLaunch(
        ptx.c_str(), name.c_str(), ISAAC_F16, ml, nl, threads, 1,
        reinterpret_cast<void *>(O), reinterpret_cast<const void *>(I),
        reinterpret_cast<const void *>(F), N, H, W, C, K, R, S, P, Q, strideH,
        strideW, dilationH, dilationW, padTop, padLeft, 1.0, 0.0, nullptr, 0);
  }
};

/// Launches `c`: one launch of 25 parameters whose maps are 64-byte
/// aligned; with the encoder and `expected` non-empty, exactly those
/// encodes (the input's im2col map, then the filters' tiled map), passed
/// with useTma = 1; otherwise no encode, useTma = 0 and zeroed maps.
void checkConvMaps(const WgmmaConv &c, const std::vector<std::string> &expected,
                   const char *what) {
  fake->reset();
  fake->clearCalls();
  CHECK_STATUS(c.launch(), ISAAC_SUCCESS, "");
  CHECK(fake->launchCount() == 1);
  if (fake->launchCount() != 1)
    return;
  FakeLaunch l = *fake->launch(0);
  CHECK(l.numParams == 25 && l.numTensorMaps == 2);
  CHECK(l.paramSizes[22] == FAKE_TENSOR_MAP_BYTES &&
        l.paramSizes[23] == FAKE_TENSOR_MAP_BYTES && l.paramSizes[24] == 4);
  CHECK(l.tensorMapAligned[0] && l.tensorMapAligned[1]);
  CHECK(param<uint64_t>(l, 1) == c.I && param<uint64_t>(l, 2) == c.F);
  std::vector<std::string> got = encodes("cuTensorMapEncode");
  bool tma = driverHasEncoder && !expected.empty();
  CHECK(got == (driverHasEncoder ? expected : std::vector<std::string>()));
  CHECK(param<uint32_t>(l, 24) == (tma ? 1u : 0u));
  if (got != (driverHasEncoder ? expected : std::vector<std::string>()) ||
      param<uint32_t>(l, 24) != (tma ? 1u : 0u)) {
    std::fprintf(stderr, "  case: %s\n", what);
    for (const std::string &line : got)
      std::fprintf(stderr, "  got: %s\n", line.c_str());
  }
  const uintptr_t address[2] = {c.I, c.F};
  static const unsigned char zero[FAKE_TENSOR_MAP_BYTES] = {};
  for (int m = 0; m < 2 && m < l.numTensorMaps; ++m) {
    if (!tma) {
      CHECK(std::memcmp(l.tensorMaps[m], zero, sizeof zero) == 0);
      continue;
    }
    uint64_t words[16];
    std::memcpy(words, l.tensorMaps[m], sizeof words);
    for (int q = 0; q < 16; ++q)
      CHECK(words[q] == fakeTensorMapWord(address[m], q));
  }
}

/// The input's im2col map (docs/abi.md, "Tensor maps"): {C, W, H, N}, the
/// bounding box of the first taps' Q x P positions from (-padL, -padT) at
/// the strides, one column block of A's tile (64 channels of ML pixels);
/// the filters as the implicit GEMM's B. Convolutions the map cannot
/// describe, or whose K loop is shorter than the stages, run on cp.async.
void testConvMaps() {
  WgmmaConv c;
  checkConvMaps(
      c,
      {"cuTensorMapEncodeIm2col(type=6, rank=4, addr=0x20000, dim=64x11x9x2, "
       "stride=128x1408x12672, lower=-1x-1, upper=-1x-1, channels=64, "
       "pixels=128, elementStride=1x2x2x1, interleave=0, swizzle=3, l2=3, "
       "oob=0)",
       encodeLine(6, c.F, "40x576x1", "80x46080", "64x64x1", 3)},
      "hwcf, stride 2");

  // fhwc (K-major B), dilation 2 with padding 2, stride 1, one image:
  // upper = -2 + (Q-1) - (W-1) = -2 and -2 + (P-1) - (H-1) = -2.
  WgmmaConv f;
  f.name = "isaac_conv_f16_nhwc_fhwc_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_"
           "v8_st4";
  f.fields = "op=conv dtype=f16 layout=nhwc_fhwc ml=64 nl=64 wm=64 wn=64 "
             "u=64 kl=1 kg=1 vec=8 stages=4 threads=128 smem=65536 dynsmem=1 "
             "chip=sm_90a";
  f.ml = 64;
  f.threads = 128;
  f.N = 1, f.H = 12, f.W = 10, f.C = 128, f.K = 48, f.P = 12, f.Q = 10;
  f.strideH = f.strideW = 1;
  f.dilationH = f.dilationW = 2;
  f.padTop = f.padLeft = 2;
  checkConvMaps(
      f,
      {"cuTensorMapEncodeIm2col(type=6, rank=4, addr=0x20000, "
       "dim=128x10x12x1, stride=256x2560x30720, lower=-2x-2, upper=-2x-2, "
       "channels=64, pixels=64, elementStride=1x1x1x1, interleave=0, "
       "swizzle=3, l2=3, oob=0)",
       encodeLine(6, f.F, "1152x48x1", "2304x110592", "64x64x1", 3)},
      "fhwc, dilation 2");

  WgmmaConv x = c;
  x.C = 96; // K tiles would straddle taps
  checkConvMaps(x, {}, "C not a multiple of U");
  x = c;
  x.I = 0x20008;
  checkConvMaps(x, {}, "input not 16-byte aligned");
  x = c;
  x.R = x.S = 1, x.padTop = x.padLeft = 0, x.P = 5, x.Q = 6;
  checkConvMaps(x, {}, "1x1: one K tile, fewer than the stages");
  x = c;
  x.W = 300, x.S = 2, x.dilationW = 130, x.strideW = 1, x.padLeft = 0;
  x.Q = 170; // (S-1)*dw = 130: past the offsets' range
  checkConvMaps(x, {}, "tap offset 130");
}

/// A fused wgmma convolution kernel: the maps and useTma come after its 21
/// parameters, the tile counters and the epilogue input's four, as its PTX
/// declares them (isaacConvLaunchEpilogue).
void testFusedConvKernel() {
  WgmmaConv c;
  const std::string name = c.name + "_ep00c0ffee12345678";
  std::string ptx =
      tmaEntryPtx(fusedHead(name, c.fields), name, WgmmaConv::paramTypes(1));
  fake->reset();
  fake->clearCalls();
  CHECK_STATUS(
      isaacConvLaunchEpilogue(
          ptx.c_str(), name.c_str(), ISAAC_F16, c.ml, c.nl, c.threads, 1,
          reinterpret_cast<void *>(c.O), reinterpret_cast<const void *>(c.I),
          reinterpret_cast<const void *>(c.F), c.N, c.H, c.W, c.C, c.K, c.R,
          c.S, c.P, c.Q, c.strideH, c.strideW, c.dilationH, c.dilationW,
          c.padTop, c.padLeft, 1.0, 0.0, nullptr, 0, 1, &kBias),
      ISAAC_SUCCESS, "");
  checkFusedLaunch(22, c.I, c.F);
}

} // namespace

void runTmaLaunchTests(const FakeCudaApi &api, bool hasTensorMaps) {
  fake = &api;
  driverHasEncoder = hasTensorMaps;
  testEncodedMaps();
  testClusterKernels();
  testClusterSplitK();
  testPersistentKernel();
  testPipelineDepth();
  testIneligibleOperands();
  testEncoderFailure();
  testFusedKernel();
  testOtherFamilies();
  testConvMaps();
  testFusedConvKernel();
}
