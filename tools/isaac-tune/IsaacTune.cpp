//===- IsaacTune.cpp - ISAAC data generation (SC17 §4) --------------------===//
//
//   isaac-tune acceptance [--seed S] [--chip C] [--alpha A] [--warmup W]
//                         [--uniform-proposals N] [--categorical-proposals N]
//                         [--box full|paper]
//       Table 1 of the paper: acceptance rate of the categorical generative
//       model vs uniform sampling, for f32 and f64, over
//       the simt family's box of GemmParams.def (full) or over powers of two
//       in [1, 16] (paper).
//
//   isaac-tune sample --dtype f32|f64 --kernels N --shapes-per-kernel R
//                     --seed S --out DIR [--chip C] [--alpha A] [--warmup W]
//                     [--skewed P] [--values PARAM=V,V...]
//                     [--variants PARAM=V,V...]
//       N distinct legal configurations drawn with the categorical sampler
//       (with --values, PARAM only takes the values listed), each as the
//       compiler emits it (withClusterSplitK: a split that isaac-select-config
//       runs inside a cluster is timed that way), layouts nn, nt, tn, tt
//       round-robin, written as DIR/kernels.mlir (one
//       configured linalg.matmul per kernel, for isaac-opt --isaac-pipeline),
//       and R random inputs per kernel in DIR/samples.txt
//       (`KERNEL_NAME M N K` per line); with --skewed P a fraction P of
//       the inputs comes from thin/deep/shallow families. With --variants,
//       each kernel is followed by its legal variants with PARAM at each
//       value listed, timed on the same inputs (paired timings: what PARAM
//       alone changes; e.g. --values stages=2 --variants stages=3,4). See
//       docs/sampler.md.
//
//   isaac-tune sample --op conv --dtype TYPES --kernels N
//                     --shapes-per-kernel R --seed S --out DIR [--chip C]
//                     [--alpha A] [--warmup W] [--exclude FILE[,FILE...]]
//                     [--max-gflop G] [--family simt|mma|wgmma]
//       N distinct configurations of the family that searchBestConv
//       searches for TYPES (or of --family: wgmma on sm_90a), drawn with the
//       same categorical sampler, filter layouts nhwc_hwcf and nhwc_fhwc in
//       turn, written as one configured convolution per kernel, and R random
//       convolutions per kernel
//       (`KERNEL N,H,W,C,K,R,S,sh,sw,pt,pl,dh,dw,P,Q` per line), each
//       legal for its kernel (isConvLegal) and none of Table 5, ResNet-50
//       or the --exclude files. See docs/sampler.md.
//
// MLIR-free: links isaac_model only. Bad arguments exit with code 2.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/ConvSuites.h"
#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Sampler.h"
#include "isaac/Model/Search.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace isaac;

namespace {

const char *const kUsage =
    "usage:\n"
    "  isaac-tune acceptance [--seed S] [--chip C] [--alpha A] [--warmup W]\n"
    "                        [--uniform-proposals N] "
    "[--categorical-proposals N]\n"
    "                        [--box full|paper] [--family simt|mma|wgmma]\n"
    "  isaac-tune sample --dtype TYPES --kernels N --shapes-per-kernel R\n"
    "                    --seed S --out DIR [--chip C] [--alpha A] "
    "[--warmup W]\n"
    "                    [--skewed P] [--family simt|mma|wgmma]\n"
    "                    [--values PARAM=V,V...] [--variants PARAM=V,V...]\n"
    "  isaac-tune sample --op conv --dtype TYPES --kernels N "
    "--shapes-per-kernel R\n"
    "                    --seed S --out DIR [--chip C] [--alpha A] "
    "[--warmup W]\n"
    "                    [--exclude FILE[,FILE...]] [--max-gflop G]\n"
    "                    [--family simt|mma|wgmma]\n"
    "TYPES: a kernel types token, f32 f64 f16 bf16 f16f32 bf16f32 tf32\n"
    "       (convolutions: all but tf32)\n"
    "defaults: --op gemm --chip sm_90 --alpha 100 --warmup 10000 --seed 1\n"
    "          --skewed 0 --max-gflop 100\n"
    "          --uniform-proposals 1000000 --categorical-proposals 100000\n";

/// Reports a usage error and returns the exit code for it.
int usageError(const std::string &msg) {
  std::fprintf(stderr, "isaac-tune: error: %s\n%s", msg.c_str(), kUsage);
  return 2;
}

/// `--name value` / `--name=value` options of one subcommand.
struct Options {
  std::map<std::string, std::string> values;
  std::string error;

  bool parse(int argc, char **argv, int first,
             const std::set<std::string> &known) {
    for (int i = first; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg.rfind("--", 0) != 0) {
        error = "unexpected argument '" + arg + "'";
        return false;
      }
      std::string name = arg.substr(2), value;
      size_t eq = name.find('=');
      if (eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        error = "option --" + name + " needs a value";
        return false;
      }
      if (!known.count(name)) {
        error = "unknown option --" + name;
        return false;
      }
      if (values.count(name)) {
        error = "option --" + name + " given twice";
        return false;
      }
      values[name] = value;
    }
    return true;
  }

  bool has(const std::string &name) const { return values.count(name) != 0; }

  /// Unsigned integer option in [lo, hi]; false (with `error`) if malformed.
  bool getUInt(const std::string &name, uint64_t lo, uint64_t hi,
               uint64_t &out) {
    auto it = values.find(name);
    if (it == values.end())
      return true; // keep the default
    const std::string &s = it->second;
    errno = 0;
    char *end = nullptr;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || s[0] == '-' || s[0] == '+' || *end != '\0' ||
        errno == ERANGE || v < lo || v > hi) {
      error = "--" + name + " expects an integer in [" + std::to_string(lo) +
              ", " + std::to_string(hi) + "], got '" + s + "'";
      return false;
    }
    out = v;
    return true;
  }

  bool getDouble(const std::string &name, double lo, double hi, double &out) {
    auto it = values.find(name);
    if (it == values.end())
      return true;
    const std::string &s = it->second;
    errno = 0;
    char *end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) ||
        v < lo || v > hi) {
      char range[96];
      std::snprintf(range, sizeof(range), "[%g, %g]", lo, hi);
      error =
          "--" + name + " expects a number in " + range + ", got '" + s + "'";
      return false;
    }
    out = v;
    return true;
  }
};

//===----------------------------------------------------------------------===//
// acceptance
//===----------------------------------------------------------------------===//

/// The options `acceptance` and `sample` share: the Dirichlet prior needs
/// some mass, and the chip must be known. Returns an error or "".
static std::string checkSamplerOptions(Options &o, double alpha,
                                       uint64_t warmup,
                                       std::optional<ChipLimits> &chip) {
  if (alpha == 0 && warmup == 0)
    return "--alpha 0 needs --warmup > 0 (every categorical needs some mass)";
  std::string chipName = o.has("chip") ? o.values["chip"] : "sm_90";
  chip = getChipLimits(chipName);
  if (!chip)
    return "unknown chip '" + chipName + "'; known chips: " + knownChips();
  return "";
}

std::string restrictBox(ParamBox &box, const std::string &spec);

int runAcceptance(int argc, char **argv) {
  Options o;
  if (!o.parse(argc, argv, 2,
               {"seed", "chip", "alpha", "warmup", "uniform-proposals",
                "categorical-proposals", "box", "family"}))
    return usageError(o.error);
  uint64_t seed = 1, warmup = 10000, uniformN = 1000000, categoricalN = 100000;
  double alpha = 100;
  if (!o.getUInt("seed", 0, UINT64_MAX, seed) ||
      !o.getUInt("warmup", 0, 100000000, warmup) ||
      !o.getUInt("uniform-proposals", 1, 10000000000ull, uniformN) ||
      !o.getUInt("categorical-proposals", 1, 10000000000ull, categoricalN) ||
      !o.getDouble("alpha", 0, 1e12, alpha))
    return usageError(o.error);
  std::optional<ChipLimits> chip;
  if (std::string error = checkSamplerOptions(o, alpha, warmup, chip);
      !error.empty())
    return usageError(error);
  std::string familyName = o.has("family") ? o.values["family"] : "simt";
  std::optional<GemmFamily> family = parseGemmFamily(familyName);
  if (!family)
    return usageError("--family expects simt, mma or wgmma, got '" + familyName + "'");
  std::string boxName = o.has("box") ? o.values["box"] : "full";
  ParamBox box;
  if (boxName == "full")
    box = gemmParamValues(*family);
  else if (boxName == "paper" && *family == GemmFamily::Simt)
    box = gemmParamBoxUpTo(16);
  else if (boxName == "paper")
    return usageError("--box paper is the simt family's (the paper's "
                      "Table 1); the mma family has --box full only");
  else
    return usageError("--box expects full or paper, got '" + boxName + "'");
  // The table is over the space legalConfigs() enumerates (its "expected"
  // column counts it), which holds simt's extra feature, stages, at 2: the
  // paper's nine parameters.
  if (*family == GemmFamily::Simt)
    if (std::string error = restrictBox(box, "stages=2"); !error.empty())
      return usageError(error);

  std::printf("# ISAAC SC17 Table 1: proportion of proposals that are legal\n");
  std::printf("# chip %s, seed %llu, alpha %g, warm-up %llu accepted uniform "
              "samples\n",
              chip->chip.c_str(), (unsigned long long)seed, alpha,
              (unsigned long long)warmup);
  std::printf(
      "# box %s: %.0f configurations (%s)\n", boxName.c_str(), boxSize(box),
      boxName == "full" ? (std::string("the ") + gemmFamilyName(*family) +
                           " family's values of GemmParams.def")
                              .c_str()
                        : "powers of two in [1, 16], as in Table 1");
  std::printf("%-5s %-11s %12s %10s %10s %10s\n", "dtype", "sampler",
              "proposals", "accepted", "rate", "expected");
  struct Row {
    const char *dtype;
    double uniform, categorical;
    uint64_t warmupProposals, legal;
    std::map<std::string, uint64_t> rejections; // first rule broken
  };
  std::vector<Row> rows;
  // The operand types the family multiplies (simt: f32, f64; mma: f16,
  // bf16, f32 as TF32 and, where the chip has DMMA, f64), in a fixed order.
  std::vector<DType> types =
      *family == GemmFamily::Simt
          ? std::vector<DType>{DType::F32, DType::F64}
          : std::vector<DType>{DType::F16, DType::BF16, DType::F32, DType::F64};
  int typeIndex = -1;
  for (DType t : types) {
    ++typeIndex;
    // The legal space restricted to the box, for the exact rates.
    std::vector<GemmConfig> legal;
    for (const GemmConfig &c : legalConfigs(t, *chip, box.family))
      if (box.contains(c))
        legal.push_back(c);
    if (legal.empty())
      continue; // no instruction of the family for the type on the chip
    const char *label =
        *family == GemmFamily::Mma && t == DType::F32 ? "tf32" : dtypeName(t);
    Row row{label, 0, 0, 0, legal.size(), {}};
    // Different streams for the two samplers and each dtype (simt's f32
    // and f64 keep the streams of the first tables).
    uint64_t base = seed * 2 * types.size() + 2 * typeIndex;
    UniformConfigSampler uni(t, *chip, base, box);
    for (uint64_t i = 0; i < uniformN; ++i)
      if (!uni.propose())
        ++row.rejections
              [checkGemmLegality(uni.lastProposal(), t, *chip).front().rule];
    CategoricalConfigSampler cat(t, *chip, base + 1, alpha, warmup, box);
    for (uint64_t i = 0; i < categoricalN; ++i)
      (void)cat.propose();
    double exactUniform = double(legal.size()) / boxSize(box);
    double exactCat = cat.massOf(legal);
    std::printf("%-5s %-11s %12llu %10llu %9.3f%% %9.3f%%\n", label, "uniform",
                (unsigned long long)uni.proposals(),
                (unsigned long long)uni.accepted(),
                100 * uni.stats().acceptanceRate(), 100 * exactUniform);
    std::printf("%-5s %-11s %12llu %10llu %9.3f%% %9.3f%%\n", label,
                "categorical", (unsigned long long)cat.proposals(),
                (unsigned long long)cat.accepted(),
                100 * cat.stats().acceptanceRate(), 100 * exactCat);
    row.uniform = uni.stats().acceptanceRate();
    row.categorical = cat.stats().acceptanceRate();
    row.warmupProposals = cat.warmupStats().proposals;
    rows.push_back(std::move(row));
  }
  std::printf("# expected: exact probability that one proposal is legal, "
              "from the enumerated legal space\n");
  bool better = true;
  for (const Row &r : rows) {
    std::printf("# %s: %llu legal configurations in the box; warm-up took "
                "%llu uniform proposals; categorical/uniform = %.1fx\n",
                r.dtype, (unsigned long long)r.legal,
                (unsigned long long)r.warmupProposals,
                r.uniform > 0 ? r.categorical / r.uniform : INFINITY);
    std::printf("# %s: uniform proposals rejected by (first rule broken):",
                r.dtype);
    for (const auto &[rule, n] : r.rejections)
      std::printf(" %s %.2f%%", rule.c_str(),
                  100.0 * double(n) / double(uniformN));
    std::printf("\n");
    better = better && r.categorical > r.uniform;
  }
  std::printf("categorical > uniform: %s\n", better ? "yes" : "no");
  return 0;
}

//===----------------------------------------------------------------------===//
// sample
//===----------------------------------------------------------------------===//

/// Input ranges and filters of the random shapes (docs/sampler.md).
constexpr int64_t kMaxMN = 8192;
constexpr int64_t kMaxK = 65536;
constexpr double kMinFlops = 1e6;
constexpr double kMaxFlops = 2e11;
constexpr double kMaxOperandBytes = 2147483648.0; // 2 GiB, A + B + C

/// The skewed input families of `--skewed` (docs/sampler.md): the
/// applications' shapes that plain log-uniform sampling rarely draws
/// together — a thin operand against two wide dimensions, or a reduction
/// far deeper or shallower than the output. Each is drawn with
/// probability 1/4.
void skewedShape(std::mt19937_64 &rng, int64_t &m, int64_t &n, int64_t &k) {
  constexpr int64_t kThin = 128, kWideLo = 512, kWideHi = 16384;
  switch (rng() % 4) {
  case 0: // thin M: inference with few tokens, x * W
    m = logUniformIn(rng, 1, kThin);
    n = logUniformIn(rng, kWideLo, kWideHi);
    k = logUniformIn(rng, kWideLo, kWideHi);
    break;
  case 1: // thin N
    m = logUniformIn(rng, kWideLo, kWideHi);
    n = logUniformIn(rng, 1, kThin);
    k = logUniformIn(rng, kWideLo, kWideHi);
    break;
  case 2: // deep reduction: covariance-like, K >> M, N
    m = logUniformIn(rng, 1, 512);
    n = logUniformIn(rng, 1, 512);
    k = logUniformIn(rng, 4096, 262144);
    break;
  default: // shallow reduction: blocked-LAPACK-like updates, K << M, N
    m = logUniformIn(rng, kWideLo, kWideHi);
    n = logUniformIn(rng, kWideLo, kWideHi);
    k = logUniformIn(rng, 1, kThin);
    break;
  }
}

std::string formatNumber(double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g", x);
  return buf;
}

const char *const kLayouts[4] = {"nn", "nt", "tn", "tt"};

std::string matmulFunc(size_t index, const std::string &kernel,
                       const GemmConfig &c, const GemmTypes &types,
                       const char *layout) {
  std::string ty = std::string("memref<64x64x") + dtypeName(types.ab) + ">";
  std::string cTy = std::string("memref<64x64x") + dtypeName(types.c) + ">";
  bool transA = layout[0] == 't', transB = layout[1] == 't';
  std::string s;
  s += "// " + kernel + "\n";
  s += "func.func @kernel" + std::to_string(index) + "(%A: " + ty +
       ", %B: " + ty + ", %C: " + cTy + ") {\n";
  s += "  linalg.matmul indexing_maps = [";
  s += std::string("affine_map<(m, n, k) -> ") +
       (transA ? "(k, m)" : "(m, k)") + ">, ";
  s += std::string("affine_map<(m, n, k) -> ") +
       (transB ? "(n, k)" : "(k, n)") + ">, ";
  s += "affine_map<(m, n, k) -> (m, n)>]\n";
  s += "    ins(%A, %B : " + ty + ", " + ty + ") outs(%C : " + cTy + ")\n";
  // An f32 GEMM on the mma family multiplies in TF32, which it must opt in
  // to.
  s += std::string("    {") + (types.tf32 ? "isaac.tf32, " : "") +
       "isaac.config = #isaac.gemm<" + c.str() + ">}\n";
  s += "  return\n}\n";
  return s;
}

namespace fs = std::filesystem;

/// Writes `text` to `p`; false (with a message) if it cannot.
bool writeFile(const fs::path &p, const std::string &text) {
  FILE *f = std::fopen(p.string().c_str(), "w");
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f)
    ok = (std::fclose(f) == 0) && ok;
  if (!ok)
    std::fprintf(stderr, "isaac-tune: error: cannot write '%s': %s\n",
                 p.string().c_str(), std::strerror(errno));
  return ok;
}

/// Creates --out; returns an error or "".
std::string makeOutputDir(Options &o, fs::path &dir) {
  dir = o.values["out"];
  if (dir.empty())
    return "--out expects a directory";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec))
    return "cannot create output directory '" + dir.string() + "'" +
           (ec ? ": " + ec.message() : std::string());
  return "";
}

int runSampleConv(Options &o);

/// Restricts `box` by `spec`, `PARAM=V,V...`: PARAM (a parameter of the
/// box's family) takes only the values listed, each one the box holds.
/// Returns an error or "".
/// Splits `spec`, `PARAM=V,V...` given to --`option`, into PARAM (a
/// parameter of `box`'s family: its index in the box) and the V items.
/// Returns an error or "".
std::string splitParamSpec(const std::string &option, const ParamBox &box,
                           const std::string &spec, size_t &param,
                           std::vector<std::string> &items) {
  size_t eq = spec.find('=');
  std::optional<GemmParam> p = gemmParamByName(spec.substr(0, eq));
  auto at = p ? std::find(box.params.begin(), box.params.end(), *p)
              : box.params.end();
  if (eq == std::string::npos || at == box.params.end())
    return "--" + option +
           " expects PARAM=V,V... with PARAM a parameter of the " +
           std::string(gemmFamilyName(box.family)) + " family, got '" + spec +
           "'";
  param = at - box.params.begin();
  for (size_t b = eq + 1; b <= spec.size();) {
    size_t e = std::min(spec.find(',', b), spec.size());
    items.push_back(spec.substr(b, e - b));
    b = e + 1;
  }
  return "";
}

/// The integer `item` in `v`; false if it is not one.
bool parseItem(const std::string &item, long &v) {
  char *end = nullptr;
  v = std::strtol(item.c_str(), &end, 10);
  return !item.empty() && !*end;
}

std::string restrictBox(ParamBox &box, const std::string &spec) {
  size_t param = 0;
  std::vector<std::string> items;
  if (std::string error = splitParamSpec("values", box, spec, param, items);
      !error.empty())
    return error;
  std::vector<int> &values = box.values[param];
  std::vector<int> kept;
  for (const std::string &item : items) {
    long v = 0;
    if (!parseItem(item, v) ||
        std::find(values.begin(), values.end(), v) == values.end())
      return "--values: " + std::string(gemmParamInfo(box.params[param]).name) +
             " = '" + item + "' is not among the values the " +
             gemmFamilyName(box.family) + " family's box gives it";
    if (std::find(kept.begin(), kept.end(), v) == kept.end())
      kept.push_back(int(v));
  }
  std::sort(kept.begin(), kept.end());
  values = kept;
  return "";
}

/// Draws `kernels` distinct configurations from `sampler` (for `dtype` on
/// `chip`) into `chosen`, each with the kernel name `nameOf(config, index)`,
/// and counts the duplicate draws skipped. Each is taken as the compiler
/// emits it (withClusterSplitK), so the timings describe the kernels that
/// isaac-select-config's choices run as: a KG split it sums inside a
/// cluster is timed that way, not through the workspace. Draws `accept`
/// refuses (a conv kernel rule) count as duplicates. False (with a
/// message) when distinct configurations run out.
template <typename NameFn>
bool drawDistinct(
    CategoricalConfigSampler &sampler, DType dtype, const ChipLimits &chip,
    uint64_t kernels, std::vector<std::pair<std::string, GemmConfig>> &chosen,
    uint64_t &duplicates, NameFn nameOf,
    const std::function<bool(const GemmConfig &)> &accept = nullptr) {
  std::set<std::string> seen;
  uint64_t step = kernels >= 10 ? kernels / 10 : 1;
  while (chosen.size() < kernels) {
    GemmConfig c = withClusterSplitK(sampler.sample(), dtype, chip);
    if (!seen.insert(c.mangle()).second || (accept && !accept(c))) {
      // Near the size of the legal space (or with values the model never
      // proposes, --alpha 0) distinct configurations run out: give up
      // rather than loop for ever.
      if (++duplicates > 100 * kernels + 1000000) {
        std::fprintf(stderr,
                     "isaac-tune: error: only %zu distinct configurations "
                     "after %llu duplicate draws; ask for fewer --kernels\n",
                     chosen.size(), (unsigned long long)duplicates);
        return false;
      }
      continue;
    }
    chosen.push_back({nameOf(c, chosen.size()), c});
    if (chosen.size() % step == 0 || chosen.size() == kernels)
      std::fprintf(stderr, "isaac-tune: %zu/%llu kernels\n", chosen.size(),
                   (unsigned long long)kernels);
  }
  return true;
}

int runSample(int argc, char **argv) {
  Options o;
  if (!o.parse(argc, argv, 2,
               {"op", "dtype", "kernels", "shapes-per-kernel", "seed", "out",
                "chip", "alpha", "warmup", "skewed", "family", "exclude",
                "max-gflop", "values", "variants"}))
    return usageError(o.error);
  for (const char *req :
       {"dtype", "kernels", "shapes-per-kernel", "seed", "out"})
    if (!o.has(req))
      return usageError(std::string("sample needs --") + req);
  std::string op = o.has("op") ? o.values["op"] : "gemm";
  if (op == "conv" && (o.has("values") || o.has("variants")))
    return usageError("--values and --variants are for --op gemm");
  if (op == "conv")
    return runSampleConv(o);
  if (op != "gemm")
    return usageError("--op expects gemm or conv, got '" + op + "'");
  for (const char *convOnly : {"exclude", "max-gflop"})
    if (o.has(convOnly))
      return usageError(std::string("--") + convOnly + " is for --op conv");
  // The kernels' types token (docs/abi.md): f32, f64, f16, bf16, f16f32,
  // bf16f32 or tf32; the family is the one that compiles those types by
  // default (mma for 16-bit operands and TF32, simt for f32 and f64)
  // unless --family names another.
  std::optional<GemmTypes> types = GemmTypes::parseToken(o.values["dtype"]);
  if (!types)
    return usageError("--dtype expects f32, f64, f16, bf16, f16f32, bf16f32 "
                      "or tf32, got '" +
                      o.values["dtype"] + "'");
  DType dtype = types->ab;
  bool sixteenBit = dtype == DType::F16 || dtype == DType::BF16;
  GemmFamily family =
      sixteenBit || types->tf32 ? GemmFamily::Mma : GemmFamily::Simt;
  if (o.has("family")) {
    std::optional<GemmFamily> f = parseGemmFamily(o.values["family"]);
    if (!f)
      return usageError("--family expects simt, mma or wgmma, got '" +
                        o.values["family"] + "'");
    family = *f;
  }
  if (dtype == DType::F32 && (family == GemmFamily::Mma) != types->tf32)
    return usageError(types->tf32 ? "tf32 is the mma family's"
                                  : "f32 on the mma family is --dtype tf32 "
                                    "(exact f32 is the simt family's)");
  uint64_t kernels = 0, shapes = 0, seed = 0, warmup = 10000;
  double alpha = 100, skewed = 0;
  if (!o.getUInt("kernels", 1, 100000000, kernels) ||
      !o.getDouble("skewed", 0, 1, skewed) ||
      !o.getUInt("shapes-per-kernel", 1, 1000000, shapes) ||
      !o.getUInt("seed", 0, UINT64_MAX, seed) ||
      !o.getUInt("warmup", 0, 100000000, warmup) ||
      !o.getDouble("alpha", 0, 1e12, alpha))
    return usageError(o.error);
  std::optional<ChipLimits> chip;
  if (std::string error = checkSamplerOptions(o, alpha, warmup, chip);
      !error.empty())
    return usageError(error);
  const std::string &chipName = chip->chip;
  size_t legalCount = legalConfigs(dtype, *chip, family).size();
  if (legalCount == 0)
    return usageError(std::string("the ") + gemmFamilyName(family) +
                      " family has no " + types->token() + " kernels on " +
                      chip->chip);
  if (kernels > legalCount)
    return usageError("--kernels " + std::to_string(kernels) + " exceeds the " +
                      std::to_string(legalCount) + " legal " + types->token() +
                      " " + gemmFamilyName(family) + " configurations on " +
                      chip->chip);

  ParamBox box = gemmParamValues(family);
  if (o.has("values"))
    if (std::string error = restrictBox(box, o.values["values"]);
        !error.empty())
      return usageError(error);

  // --variants PARAM=V,V...: the values each kernel's variants give PARAM.
  std::optional<GemmParam> variantParam;
  std::vector<int> variantValues;
  if (o.has("variants")) {
    size_t param = 0;
    std::vector<std::string> items;
    if (std::string error =
            splitParamSpec("variants", box, o.values["variants"], param, items);
        !error.empty())
      return usageError(error);
    variantParam = box.params[param];
    for (const std::string &item : items) {
      long v = 0;
      if (!parseItem(item, v))
        return usageError("--variants: '" + item + "' is not an integer");
      variantValues.push_back(int(v));
    }
  }

  fs::path dir;
  if (std::string error = makeOutputDir(o, dir); !error.empty())
    return usageError(error);

  std::fprintf(stderr,
               "isaac-tune: %s on %s, seed %llu: warm-up (alpha %g, %llu "
               "accepted uniform samples)\n",
               types->token().c_str(), chipName.c_str(),
               (unsigned long long)seed, alpha, (unsigned long long)warmup);
  CategoricalConfigSampler sampler(dtype, *chip, seed, alpha, warmup, box);
  // Shapes come from their own stream so that the configurations do not
  // depend on --shapes-per-kernel.
  std::mt19937_64 shapeRng(seed ^ 0x9e3779b97f4a7c15ull);

  std::vector<std::pair<std::string, GemmConfig>> chosen; // name, config
  uint64_t duplicates = 0;
  if (!drawDistinct(sampler, dtype, *chip, kernels, chosen, duplicates,
                    [&](const GemmConfig &c, size_t index) {
                      const char *layout = kLayouts[index % 4];
                      GemmKernelName name;
                      name.types = *types;
                      name.layout.transA = layout[0] == 't';
                      name.layout.transB = layout[1] == 't';
                      name.config = c;
                      return name.str();
                    }))
    return 1;

  std::string mlir;
  mlir +=
      "// Generated by isaac-tune sample --dtype " + types->token() +
      " --family " + gemmFamilyName(family) + " --kernels " +
      std::to_string(kernels) + " --shapes-per-kernel " +
      std::to_string(shapes) + " --seed " + std::to_string(seed) + " --chip " +
      chipName + " --alpha " + formatNumber(alpha) + " --warmup " +
      std::to_string(warmup) +
      (skewed > 0 ? " --skewed " + formatNumber(skewed) : std::string()) +
      (o.has("values") ? " --values " + o.values["values"] : std::string()) +
      (o.has("variants") ? " --variants " + o.values["variants"]
                         : std::string()) +
      "\n";
  mlir += "// Compile with: isaac-opt kernels.mlir --isaac-pipeline=\"chip=" +
          chipName + " ptx-dir=ptx\"\n\n";
  std::string samples;
  uint64_t shapeProposals = 0, variants = 0;
  const double esz = dtypeBytes(dtype);
  size_t func = 0;
  for (size_t i = 0; i < chosen.size(); ++i) {
    // The kernel, then its legal --variants (same layout, same inputs).
    std::vector<std::string> names = {chosen[i].first};
    if (i)
      mlir += "\n";
    mlir += matmulFunc(func++, chosen[i].first, chosen[i].second, *types,
                       kLayouts[i % 4]);
    for (int v : variantValues) {
      GemmConfig c = chosen[i].second;
      c.set(*variantParam, v);
      if (c == chosen[i].second || !isLegal(c, dtype, *chip))
        continue;
      GemmKernelName name;
      name.types = *types;
      name.layout.transA = kLayouts[i % 4][0] == 't';
      name.layout.transB = kLayouts[i % 4][1] == 't';
      name.config = c;
      names.push_back(name.str());
      mlir +=
          "\n" + matmulFunc(func++, names.back(), c, *types, kLayouts[i % 4]);
      ++variants;
    }
    for (uint64_t r = 0; r < shapes;) {
      int64_t m, n, k;
      // With --skewed 0 no extra number is drawn: the inputs of a seed stay
      // those of earlier datasets.
      if (skewed > 0 && uniformUnit(shapeRng) < skewed) {
        skewedShape(shapeRng, m, n, k);
      } else {
        m = logUniformIn(shapeRng, 1, kMaxMN);
        n = logUniformIn(shapeRng, 1, kMaxMN);
        k = logUniformIn(shapeRng, 1, kMaxK);
      }
      ++shapeProposals;
      double flops = 2.0 * double(m) * double(n) * double(k);
      double bytes = (double(m) * double(k) + double(k) * double(n) +
                      double(m) * double(n)) *
                     esz;
      if (flops < kMinFlops || flops > kMaxFlops || bytes > kMaxOperandBytes)
        continue;
      for (const std::string &name : names)
        samples += name + " " + std::to_string(m) + " " + std::to_string(n) +
                   " " + std::to_string(k) + "\n";
      ++r;
    }
  }

  if (!writeFile(dir / "kernels.mlir", mlir) ||
      !writeFile(dir / "samples.txt", samples))
    return 1;

  const SamplerStats &w = sampler.warmupStats(), &s = sampler.stats();
  std::printf("kernels: %zu distinct %s configurations (%s), layouts "
              "nn/nt/tn/tt round-robin -> %s\n",
              chosen.size(), types->token().c_str(), chipName.c_str(),
              (dir / "kernels.mlir").string().c_str());
  std::printf("warm-up (uniform): %llu proposals, %llu accepted (%.3f%%)\n",
              (unsigned long long)w.proposals, (unsigned long long)w.accepted,
              100 * w.acceptanceRate());
  std::printf("categorical: %llu proposals, %llu accepted (%.3f%%), %llu "
              "duplicates skipped\n",
              (unsigned long long)s.proposals, (unsigned long long)s.accepted,
              100 * s.acceptanceRate(), (unsigned long long)duplicates);
  if (variantParam)
    std::printf("variants: %llu legal ones of the %zu kernels (%s)\n",
                (unsigned long long)variants, chosen.size(),
                o.values["variants"].c_str());
  std::printf("inputs: %llu lines, %llu proposals (%.1f%% kept) -> %s\n",
              (unsigned long long)((chosen.size() + variants) * shapes),
              (unsigned long long)shapeProposals,
              100.0 * double(chosen.size() * shapes) / double(shapeProposals),
              (dir / "samples.txt").string().c_str());
  return 0;
}

//===----------------------------------------------------------------------===//
// sample --op conv
//===----------------------------------------------------------------------===//

/// Bounds of the convolution inputs (drawConvInput's distribution,
/// docs/sampler.md, "Convolutions"):
/// at least a launch's worth of work, at most --max-gflop, and tensors
/// that one set of buffers on the GPU holds.
constexpr double kConvMinFlops = 1e6;
constexpr double kConvMaxBytes = 1073741824.0; // input + filters + output

/// A configured convolution for isaac-opt --isaac-pipeline: the kernel
/// does not depend on the shape (it reads every size at run time), so each
/// function has the same placeholder, a 3x3 filter (a 1x1 stride-1 one
/// would become a GEMM) on 8 channels, which every vec divides.
std::string convFunc(size_t index, const std::string &kernel,
                     const GemmConfig &c, const GemmTypes &types,
                     ConvLayout layout) {
  std::string t = dtypeName(types.ab), tc = dtypeName(types.c);
  bool hwcf = layout == ConvLayout::NhwcHwcf;
  std::string in = "memref<1x6x6x8x" + t + ">";
  std::string filter =
      std::string(hwcf ? "memref<3x3x8x8x" : "memref<8x3x3x8x") + t + ">";
  std::string out = "memref<1x4x4x8x" + tc + ">";
  std::string s;
  s += "// " + kernel + "\n";
  s += "func.func @kernel" + std::to_string(index) + "(%I: " + in +
       ", %F: " + filter + ", %O: " + out + ") {\n";
  s += std::string("  linalg.conv_2d_nhwc_") + (hwcf ? "hwcf" : "fhwc") +
       " {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : "
       "tensor<2xi64>,\n";
  s += "    isaac.config = #isaac.gemm<" + c.str() + ">}\n";
  s += "    ins(%I, %F : " + in + ", " + filter + ") outs(%O : " + out + ")\n";
  s += "  return\n}\n";
  return s;
}

int runSampleConv(Options &o) {
  if (o.has("skewed"))
    return usageError("--op conv takes no --skewed");
  std::optional<GemmTypes> types = GemmTypes::parseToken(o.values["dtype"]);
  if (!types || types->tf32)
    return usageError("--op conv --dtype expects f32, f64, f16, bf16, f16f32 "
                      "or bf16f32, got '" +
                      o.values["dtype"] + "'");
  uint64_t kernels = 0, shapes = 0, seed = 0, warmup = 10000;
  double alpha = 100, maxGflop = 100;
  if (!o.getUInt("kernels", 1, 100000000, kernels) ||
      !o.getUInt("shapes-per-kernel", 1, 1000000, shapes) ||
      !o.getUInt("seed", 0, UINT64_MAX, seed) ||
      !o.getUInt("warmup", 0, 100000000, warmup) ||
      !o.getDouble("alpha", 0, 1e12, alpha) ||
      !o.getDouble("max-gflop", 0.01, 1e6, maxGflop))
    return usageError(o.error);
  std::optional<ChipLimits> chip;
  if (std::string error = checkSamplerOptions(o, alpha, warmup, chip);
      !error.empty())
    return usageError(error);
  // By default the family searchBestConv searches for these types: simt
  // for f32, mma for 16-bit operands and, on chips with fast DMMA, f64;
  // --family another whose conv kernels compute them (wgmma on sm_90a).
  GemmFamily family = searchFamily(types->ab, false, *chip);
  if (o.has("family")) {
    std::optional<GemmFamily> f = parseGemmFamily(o.values["family"]);
    if (!f)
      return usageError("--family expects simt, mma or wgmma, got '" +
                        o.values["family"] + "'");
    if (!convFamilyComputes(*f, *types))
      return usageError(std::string("the ") + gemmFamilyName(*f) +
                        " family has no " + types->token() +
                        " convolution kernels");
    family = *f;
  }
  std::vector<GemmConfig> legal = legalConfigs(types->ab, *chip, family);
  size_t legalCount =
      std::count_if(legal.begin(), legal.end(), [](const GemmConfig &c) {
        return meetsConvKernelRules(c);
      });
  if (legalCount == 0)
    return usageError(std::string("the ") + gemmFamilyName(family) +
                      " family has no " + types->token() + " kernels on " +
                      chip->chip);
  if (kernels > legalCount)
    return usageError("--kernels " + std::to_string(kernels) + " exceeds the " +
                      std::to_string(legalCount) + " legal " + types->token() +
                      " " + gemmFamilyName(family) + " configurations on " +
                      chip->chip);

  // The inputs no sample may be: isaac-bench's suites (what isaac is
  // measured on) and the --exclude files (held-out evaluation inputs).
  std::set<std::string> excluded;
  std::vector<ConvSpec> specs = table5ConvShapes();
  for (const ConvSpec &spec : resnet50ConvShapes())
    specs.push_back(spec);
  std::string excludeList = o.has("exclude") ? o.values["exclude"] : "";
  for (size_t b = 0; b < excludeList.size();) {
    size_t e = excludeList.find(',', b);
    if (e == std::string::npos)
      e = excludeList.size();
    std::string error;
    if (!readConvShapesFile(excludeList.substr(b, e - b), specs, error))
      return usageError("--exclude: " + error);
    b = e + 1;
  }
  for (const ConvSpec &spec : specs)
    excluded.insert(convShapeText(spec.shape));

  fs::path dir;
  if (std::string error = makeOutputDir(o, dir); !error.empty())
    return usageError(error);

  std::fprintf(stderr,
               "isaac-tune: conv %s (%s family) on %s, seed %llu: warm-up "
               "(alpha %g, %llu accepted uniform samples)\n",
               types->token().c_str(), gemmFamilyName(family),
               chip->chip.c_str(), (unsigned long long)seed, alpha,
               (unsigned long long)warmup);
  // A simt convolution pipelines two stages (rule conv-stages): its box
  // holds the GEMM box's extra feature, stages, at 2.
  ParamBox box = gemmParamValues(family);
  if (family == GemmFamily::Simt)
    if (std::string error = restrictBox(box, "stages=2"); !error.empty())
      return usageError(error);
  CategoricalConfigSampler sampler(types->ab, *chip, seed, alpha, warmup, box);
  // Shapes come from their own stream, as for GEMMs.
  std::mt19937_64 shapeRng(seed ^ 0x9e3779b97f4a7c15ull);
  const ConvLayout kConvLayouts[2] = {ConvLayout::NhwcHwcf,
                                      ConvLayout::NhwcFhwc};
  std::vector<std::pair<std::string, GemmConfig>> chosen; // name, config
  uint64_t duplicates = 0;
  if (!drawDistinct(
          sampler, types->ab, *chip, kernels, chosen, duplicates,
          [&](const GemmConfig &c, size_t index) {
            ConvKernelName name;
            name.types = *types;
            name.layout = kConvLayouts[index % 2];
            name.config = c;
            return name.str();
          },
          meetsConvKernelRules))
    return 1;

  // The command, as provenance: the first line of both files (isaac-bench
  // --conv --collect copies the samples file's '#' lines into the dataset).
  std::string command =
      "isaac-tune sample --op conv --dtype " + types->token() + " --kernels " +
      std::to_string(kernels) + " --shapes-per-kernel " +
      std::to_string(shapes) + " --seed " + std::to_string(seed) + " --chip " +
      chip->chip + " --alpha " + formatNumber(alpha) + " --warmup " +
      std::to_string(warmup) + " --max-gflop " + formatNumber(maxGflop) +
      (excludeList.empty() ? std::string() : " --exclude " + excludeList) +
      " (family " + gemmFamilyName(family) + ")";
  std::string mlir = "// Generated by " + command + "\n";
  mlir += "// Compile with: isaac-opt kernels.mlir --isaac-pipeline=\"chip=" +
          chip->chip + " ptx-dir=ptx\"\n\n";
  std::string samples = "# sampled by: " + command + "\n";
  uint64_t proposals = 0, outOfBounds = 0, illegal = 0, hitExcluded = 0;
  double totalFlops = 0;
  const double esz = dtypeBytes(types->ab), escz = dtypeBytes(types->c);
  for (size_t i = 0; i < chosen.size(); ++i) {
    const auto &[name, config] = chosen[i];
    ConvLayout layout = kConvLayouts[i % 2];
    mlir += convFunc(i, name, config, *types, layout);
    if (i + 1 < chosen.size())
      mlir += "\n";
    uint64_t tries = 0;
    for (uint64_t r = 0; r < shapes;) {
      // Every kernel admits the inputs whose C its vec divides (C = 8 a
      // third of the time): a kernel that finds none is a sampler bug.
      if (++tries > 10000000) {
        std::fprintf(stderr,
                     "isaac-tune: error: no legal input for %s after %llu "
                     "draws\n",
                     name.c_str(), (unsigned long long)tries);
        return 1;
      }
      ConvShape x;
      ++proposals;
      if (!drawConvInput(shapeRng, x))
        continue;
      x.types = *types;
      x.layout = layout;
      double flops =
          2.0 * double(x.n * x.p * x.q) * double(x.k) * double(x.c * x.r * x.s);
      double bytes =
          double(x.n * x.h * x.w * x.c + x.k * x.r * x.s * x.c) * esz +
          double(x.n * x.p * x.q * x.k) * escz;
      if (!x.validate().empty() || flops < kConvMinFlops ||
          flops > maxGflop * 1e9 || bytes > kConvMaxBytes) {
        ++outOfBounds;
        continue;
      }
      if (!isConvLegal(config, x, *chip)) {
        ++illegal;
        continue;
      }
      std::string text = convShapeText(x);
      if (excluded.count(text)) {
        ++hitExcluded;
        continue;
      }
      samples += name + " " + text + "\n";
      totalFlops += flops;
      ++r;
    }
  }
  if (!writeFile(dir / "kernels.mlir", mlir) ||
      !writeFile(dir / "samples.txt", samples))
    return 1;

  const SamplerStats &w = sampler.warmupStats(), &s = sampler.stats();
  std::printf("kernels: %zu distinct conv %s %s configurations (%s), "
              "layouts nhwc_hwcf/nhwc_fhwc in turn -> %s\n",
              chosen.size(), types->token().c_str(), gemmFamilyName(family),
              chip->chip.c_str(), (dir / "kernels.mlir").string().c_str());
  std::printf("warm-up (uniform): %llu proposals, %llu accepted (%.3f%%)\n",
              (unsigned long long)w.proposals, (unsigned long long)w.accepted,
              100 * w.acceptanceRate());
  std::printf("categorical: %llu proposals, %llu accepted (%.3f%%), %llu "
              "duplicates skipped\n",
              (unsigned long long)s.proposals, (unsigned long long)s.accepted,
              100 * s.acceptanceRate(), (unsigned long long)duplicates);
  uint64_t lines = chosen.size() * shapes;
  std::printf("inputs: %llu lines, %llu proposals (%.1f%% kept; %llu out of "
              "bounds, %llu illegal for their kernel, %llu excluded), %.1f "
              "GFLOP in all -> %s\n",
              (unsigned long long)lines, (unsigned long long)proposals,
              100.0 * double(lines) / double(proposals),
              (unsigned long long)outOfBounds, (unsigned long long)illegal,
              (unsigned long long)hitExcluded, totalFlops / 1e9,
              (dir / "samples.txt").string().c_str());
  std::printf("excluded inputs: %zu (Table 5, ResNet-50%s)\n", excluded.size(),
              excludeList.empty() ? "" : ", --exclude");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usageError("missing subcommand");
  std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (cmd == "acceptance")
    return runAcceptance(argc, argv);
  if (cmd == "sample")
    return runSample(argc, argv);
  return usageError("unknown subcommand '" + cmd + "'");
}
