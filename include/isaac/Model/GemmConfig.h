//===- GemmConfig.h - ISAAC GEMM tuning vector and input ------*- C++ -*-===//
//
// MLIR-free description of a GEMM problem (ISAAC's input vector x_i) and of a
// kernel configuration (the tuning vector x_k, ISAAC SC17 §3.2, Fig. 3). The
// verifier, the kernel generator, the sampler, the search and the runtime
// all read these structs, so they carry no MLIR types. The parameters of a
// configuration are the rows of isaac/Model/GemmParams.def.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_GEMMCONFIG_H
#define ISAAC_MODEL_GEMMCONFIG_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isaac {

/// Element types. GEMM operands and accumulation are F32 or F64 today; F16
/// and BF16 appear as the inputs and outputs of fused epilogues. The values
/// are the runtime's isaacDtype (docs/abi.md).
enum class DType { F32 = 0, F64 = 1, F16 = 2, BF16 = 3 };

/// ceil(a / b) for a >= 0 and b > 0: tiles, slices and waves.
constexpr int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The largest power of two up to kMaxOperandAlign that divides `bytes`
/// (kMaxOperandAlign for 0).
constexpr int kMaxOperandAlign = 128;
constexpr int byteAlignment(int64_t bytes) {
  int a = 1;
  while (a < kMaxOperandAlign && bytes % (2 * a) == 0)
    a *= 2;
  return a;
}

/// Size of one element in bytes.
inline int dtypeBytes(DType t) {
  switch (t) {
  case DType::F32:
    return 4;
  case DType::F64:
    return 8;
  case DType::F16:
  case DType::BF16:
    return 2;
  }
  return 0;
}
inline const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  }
  return "?";
}

/// Kernel families (GEMM_FAMILY rows of isaac/Model/GemmParams.def): which
/// generator builds the kernel, and so which parameters a configuration
/// has.
enum class GemmFamily {
#define GEMM_FAMILY(Name, Token, Doc) Name,
#include "isaac/Model/GemmParams.def"
};
constexpr int kNumGemmFamilies = 0
#define GEMM_FAMILY(Name, Token, Doc) +1
#include "isaac/Model/GemmParams.def"
    ;
/// "simt", "mma".
const char *gemmFamilyName(GemmFamily f);
/// The family written `token`, or nullopt.
std::optional<GemmFamily> parseGemmFamily(std::string_view token);

/// The tuning parameters (GEMM_PARAM rows of GemmParams.def), in table
/// order.
enum class GemmParam {
#define GEMM_PARAM(Name, Mangle, Lo, Hi, Default, Pow2, Families, Doc) Name,
#include "isaac/Model/GemmParams.def"
};
constexpr int kNumGemmParams = 0
#define GEMM_PARAM(Name, Mangle, Lo, Hi, Default, Pow2, Families, Doc) +1
#include "isaac/Model/GemmParams.def"
    ;

/// One row of GemmParams.def.
struct GemmParamInfo {
  GemmParam param;
  const char *name;   ///< field and attribute key
  const char *mangle; ///< prefix in kernel names
  int lo, hi;         ///< the range rule's bounds, inclusive
  int defaultValue;
  bool pow2;         ///< the power-of-two rule applies
  unsigned families; ///< bit (1 << GemmFamily) per family using it
  const char *doc;
  bool usedBy(GemmFamily f) const {
    return (families >> static_cast<unsigned>(f)) & 1u;
  }
};

#define GEMM_FAMILY_BIT(F) (1u << static_cast<unsigned>(::isaac::GemmFamily::F))
inline constexpr GemmParamInfo kGemmParams[kNumGemmParams] = {
#define GEMM_PARAM(Name, Mangle, Lo, Hi, Default, Pow2, Families, Doc)         \
  {GemmParam::Name, #Name, Mangle, Lo, Hi, Default, Pow2, Families, Doc},
#include "isaac/Model/GemmParams.def"
};
#undef GEMM_FAMILY_BIT

inline const GemmParamInfo &gemmParamInfo(GemmParam p) {
  return kGemmParams[static_cast<int>(p)];
}
/// The parameter whose attribute key is `name`, or nullopt.
std::optional<GemmParam> gemmParamByName(std::string_view name);
/// The parameters `f` uses, in table order.
const std::vector<GemmParam> &gemmFamilyParams(GemmFamily f);
/// The nine tuning parameters the learned models' features 5..13 read for
/// `family` (GEMM_FEATURE_VECTOR; include/isaac/Model/Features.h).
const std::array<GemmParam, 9> &featureParams(GemmFamily family);
/// Whether family `f` uses `p` outside featureParams(f): simt's stages,
/// mma's kc, wgmma's cm and kc. Such a parameter is written in attributes and
/// kernel names only when it differs from its default, which is what the
/// family's kernels did before it existed, so their names and datasets stay
/// valid; the sampler and the search hold it at its default (a model could not
/// tell its values apart), unless it is an extra feature.
bool gemmParamOptional(GemmFamily f, GemmParam p);
/// Whether `p` is an extra feature of `f` (GEMM_EXTRA_FEATURE: simt's
/// stages): optional, yet read by the family's models through a derived
/// feature, so sampled over its whole range and searched where a model's
/// support has it.
bool gemmParamExtraFeature(GemmFamily f, GemmParam p);
/// Whether `p` may be left out of an #isaac.gemm attribute (it then holds
/// its default): optional for some family.
bool gemmParamOptional(GemmParam p);

/// The parameters of the legacy nine-value tuning vector (GEMM_LEGACY_VECTOR
/// of GemmParams.def, ISAAC's; the feature vector of the shipped models and
/// the support records of model files are written in it, so it is frozen).
inline constexpr GemmParam kLegacyParams[9] = {
#define GEMM_LEGACY_VECTOR(P0, P1, P2, P3, P4, P5, P6, P7, P8)                 \
  GemmParam::P0, GemmParam::P1, GemmParam::P2, GemmParam::P3, GemmParam::P4,   \
      GemmParam::P5, GemmParam::P6, GemmParam::P7, GemmParam::P8
#include "isaac/Model/GemmParams.def"
};

/// A kernel configuration: the family and one value per parameter of the
/// table. A parameter the family does not use holds its default.
struct GemmConfig {
  GemmFamily family = GemmFamily::Simt;
#define GEMM_PARAM(Name, Mangle, Lo, Hi, Default, Pow2, Families, Doc)         \
  int Name = Default;
#include "isaac/Model/GemmParams.def"

  /// Not an aggregate: the fields follow the table, so positional
  /// initialization would silently shift when a parameter is added. Use
  /// the defaults and assign, or fromValues().
  GemmConfig() {}

  /// The value of parameter `p` (table order, any family).
  int get(GemmParam p) const;
  void set(GemmParam p, int value);

  /// Threads along M and N in one KL group (simt).
  int threadsM() const { return ml / ms; }
  int threadsN() const { return nl / ns; }
  /// Threads per block: (ml/ms)·(nl/ns)·kl (simt), one warp per WM×WN tile
  /// of each of the KL groups, 32·(ml/wm)·(nl/wn)·kl (mma); one warpgroup
  /// per WM×WN tile, 128·(ml/wm)·(nl/wn)·kl (wgmma), twice for ping-pong
  /// (pt = 2: one set per tile in flight), plus the producer warpgroup
  /// when ws = 1.
  int threads() const {
    if (family == GemmFamily::Mma)
      return 32 * (ml / wm) * (nl / wn) * kl;
    if (family == GemmFamily::Wgmma)
      return 128 * ((ml / wm) * (nl / wn) * kl * tilesInFlight() + ws);
    return threadsM() * threadsN() * kl;
  }
  /// Output tiles a block computes at once: 2 for wgmma ping-pong (pt =
  /// 2), whose two sets of computing warpgroups take alternate tiles.
  int tilesInFlight() const {
    return family == GemmFamily::Wgmma && pt == 2 ? 2 : 1;
  }
  /// The threads that compute C: all but a wgmma block's producer
  /// warpgroup (ws = 1).
  int computeThreads() const {
    return family == GemmFamily::Wgmma ? threads() - 128 * ws : threads();
  }
  /// K-depth each thread reduces per staged tile (simt).
  int depthPerThread() const { return u / kl; }
  /// The K-depth of one of the KG slices of a reduction of depth `k`:
  /// Kc = ceil(ceil(k / KG) / U) * U, a whole number of staged tiles, so
  /// that a slice's tiles never reach into the next slice (the last one
  /// ends at k). Every family's kernels split K so (their builders emit
  /// this formula); the analytic model and the runtime read it here.
  int64_t sliceDepth(int64_t k) const { return ceilDiv(ceilDiv(k, kg), u) * u; }
  /// Whether the kg slices of a tile meet in global memory: through the
  /// split-K helper kernels (prescale or reducer) and workspace, or the
  /// tile counters (docs/abi.md). Not with kc, whose slices are one
  /// thread-block cluster that sums them inside the launch.
  bool splitsAcrossGrid() const { return kg > 1 && !kc; }

  /// The legacy nine-value vector (kLegacyParams order): the order of the
  /// features 5..13 and of the model's support records.
  std::array<int, 9> values() const {
    std::array<int, 9> v;
    for (int i = 0; i < 9; ++i)
      v[i] = get(kLegacyParams[i]);
    return v;
  }
  /// The simt configuration whose values() are `v`.
  static GemmConfig fromValues(const std::array<int, 9> &v) {
    GemmConfig c;
    for (int i = 0; i < 9; ++i)
      c.set(kLegacyParams[i], v[i]);
    return c;
  }

  bool operator==(const GemmConfig &o) const;
  bool operator!=(const GemmConfig &o) const { return !(*this == o); }

  /// Whether `p` appears in this configuration's attribute text and kernel
  /// name: a parameter of its family, and for simt, stages only when it is
  /// not 2 (so that today's simt names and attributes are unchanged).
  bool isWritten(GemmParam p) const;

  /// `ml = 64, nl = 64, ...` as written inside #isaac.gemm<...>: for mma
  /// `family = mma, ` first, then the written parameters in table order.
  std::string str() const;
  /// Suffix used in kernel names: ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4
  /// (simt), `_st<S>` appended for simt with stages != 2;
  /// mma_ml128_nl128_wm64_wn32_u32_kl1_kg1_v8_st4 (mma: the family token
  /// first, every parameter).
  std::string mangle() const;
  /// The configuration whose mangle() is `name` exactly, or nullopt with
  /// the reason in `error`. Values are not checked for legality.
  static std::optional<GemmConfig> parseMangled(std::string_view name,
                                                std::string *error = nullptr);
  /// The configuration of `text`, the inside of #isaac.gemm<...> as str()
  /// writes it (keys in any order, `family = F` first if at all, optional
  /// keys may be left out), or the whole `#isaac.gemm<...>`; nullopt with
  /// the reason in `error`. Values are not checked for legality. For tools
  /// without MLIR (the tuning cache, isaac-bench, isaac-tune); the
  /// attribute parser has the same rules.
  static std::optional<GemmConfig> parseText(std::string_view text,
                                             std::string *error = nullptr);
};

namespace detail {
inline constexpr int GemmConfig::*kGemmFields[kNumGemmParams] = {
#define GEMM_PARAM(Name, Mangle, Lo, Hi, Default, Pow2, Families, Doc)         \
  &GemmConfig::Name,
#include "isaac/Model/GemmParams.def"
};
} // namespace detail

inline int GemmConfig::get(GemmParam p) const {
  return this->*detail::kGemmFields[static_cast<int>(p)];
}
inline void GemmConfig::set(GemmParam p, int value) {
  this->*detail::kGemmFields[static_cast<int>(p)] = value;
}

/// The element types of a GEMM: A and B (`ab`), C (`c`), and whether f32
/// operands multiply in TF32. Written in kernel names as one token (the
/// GEMM_TYPES rows of GemmParams.def):
///   f32, f64          A, B, C of that type;
///   f16, bf16         A, B, C 16-bit, accumulation in f32;
///   f16f32, bf16f32   A, B 16-bit, C f32;
///   tf32              A, B, C f32, multiplies in TF32.
struct GemmTypes {
  DType ab = DType::F32;
  DType c = DType::F32;
  bool tf32 = false;

  /// The accumulator's type: F64 for f64, else F32.
  DType accumulator() const {
    return ab == DType::F64 ? DType::F64 : DType::F32;
  }
  /// Whether the combination has a token (one of the seven above).
  bool isValid() const;
  /// The token; "invalid" for a combination without one.
  std::string token() const;
  /// The types a token names, or nullopt.
  static std::optional<GemmTypes> parseToken(std::string_view token);
  bool operator==(const GemmTypes &o) const {
    return ab == o.ab && c == o.c && tf32 == o.tf32;
  }
};

/// Operand storage: `transA` means A is stored K×M (row-major), `transB`
/// means B is stored N×K. See docs/abi.md.
struct GemmLayout {
  bool transA = false;
  bool transB = false;
  /// "nn", "nt", "tn" or "tt".
  std::string str() const {
    return std::string(transA ? "t" : "n") + (transB ? "t" : "n");
  }
};

/// A kernel name: isaac_gemm_<types>_<layout>_<config>[_ep<ID>] (docs/abi.md).
/// Splits a trailing `_ep<ID>` (exactly 16 lower-case hex digits: upper
/// case would make two spellings of one kernel name) off `rest` into `id`.
/// False, with what was expected in `error`, for a malformed suffix; true
/// with `id` empty when there is none. Kernel names of every op end so.
bool splitEpilogueSuffix(std::string_view &rest, std::string &id,
                         std::string &error);

struct GemmKernelName {
  GemmTypes types;
  GemmLayout layout;
  GemmConfig config;
  std::string epilogue; ///< 16 lower-case hex digits, or empty

  std::string str() const;
  /// The parts of `name`, or nullopt with what was expected in `error`.
  static std::optional<GemmKernelName> parse(std::string_view name,
                                             std::string *error = nullptr);
};

/// ISAAC's input vector x_i.
struct GemmShape {
  int64_t m = 1, n = 1, k = 1, batch = 1;
  DType dtype = DType::F32; ///< A and B
  DType cType = DType::F32; ///< C (set it with dtype: same unless stated)
  GemmLayout layout;
  /// f32 operands may multiply in TF32 (opted in): the search ranks the
  /// mma family's space (TF32 tensor cores) instead of simt's.
  bool tf32 = false;
  /// The bytes (a power of two up to kMaxOperandAlign) that every stride of
  /// A and B but the innermost (leading dimension, batch stride) and their
  /// offsets are multiples of; 1 where one is dynamic. The selection reads
  /// it from the operands' types; not a feature of the models.
  int operandAlign = kMaxOperandAlign;
  /// Whether the runtime's tensor maps address A and B: rows on 16 bytes
  /// (wgmma's TMA loop; docs/abi.md, "Tensor maps").
  bool tmaAligned() const { return operandAlign >= 16; }
  /// Whether each 128-byte row of a TMA box is whole L2 lines. Rows off 128
  /// bytes cost the wgmma kernels up to 1.4x the L2 sectors of 128 x 128
  /// tiles (docs/perf.md, "Persistent tiles and ping-pong").
  bool rowsOnLines() const { return operandAlign >= kMaxOperandAlign; }
  /// Whether every row starts on a 32-byte L2 sector. Rows on 16 bytes
  /// only start every other row mid-sector: a TMA box row of 128 bytes then
  /// takes two line requests (docs/perf.md, "Rows off sectors").
  bool rowsOnSectors() const { return operandAlign >= 32; }
};

} // namespace isaac

#endif // ISAAC_MODEL_GEMMCONFIG_H
