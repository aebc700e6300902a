//===- MLP.cpp - Learned performance model (ISAAC §5) ---------------------===//
//
// Loading (docs/model-format.md) and batched inference. See MLP.h.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/MLP.h"
#include "isaac/Model/Features.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

using namespace isaac;

//===----------------------------------------------------------------------===//
// Dense layers over blocks of kB configurations.
//
// Activations are stored feature-major: x[i * kB + b] is input i of
// configuration b, so every weight multiplies a contiguous vector of kB
// activations. A tile of R output rows x 16 configurations lives in
// registers while the input dimension is streamed.
//===----------------------------------------------------------------------===//

namespace {
constexpr int kB = 32;

#if defined(__GNUC__) || defined(__clang__)
#define ISAAC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ISAAC_ALWAYS_INLINE inline
#endif

typedef float v4f __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));

// Vectors pass by reference: no vector-typed arguments or results, whose
// ABI would depend on the target.
template <typename V> ISAAC_ALWAYS_INLINE void loadV(V &v, const float *p) {
  std::memcpy(&v, p, sizeof v);
}
template <typename V> ISAAC_ALWAYS_INLINE void storeV(float *p, const V &v) {
  std::memcpy(p, &v, sizeof v);
}

/// R output rows for all kB configurations, 2 vectors of V at a time.
template <typename V, int R>
ISAAC_ALWAYS_INLINE void denseRows(const float *w, int in, const float *bias,
                                   const float *x, float *y, bool relu) {
  constexpr int L = sizeof(V) / sizeof(float);
  for (int h = 0; h < kB; h += 2 * L) {
    V a0[R], a1[R];
    for (int r = 0; r < R; ++r) {
      a0[r] = V{} + bias[r];
      a1[r] = a0[r];
    }
    for (int i = 0; i < in; ++i) {
      V x0, x1;
      loadV(x0, x + i * kB + h);
      loadV(x1, x + i * kB + h + L);
      for (int r = 0; r < R; ++r) {
        float s = w[r * in + i];
        a0[r] += s * x0;
        a1[r] += s * x1;
      }
    }
    for (int r = 0; r < R; ++r) {
      if (relu) {
        a0[r] = a0[r] > 0 ? a0[r] : V{};
        a1[r] = a1[r] > 0 ? a1[r] : V{};
      }
      storeV(y + r * kB + h, a0[r]);
      storeV(y + r * kB + h + L, a1[r]);
    }
  }
}

template <typename V, int R>
ISAAC_ALWAYS_INLINE void denseImpl(const float *w, const float *b, int in,
                                   int out, const float *x, float *y,
                                   bool relu) {
  int o = 0;
  for (; o + R <= out; o += R)
    denseRows<V, R>(w + size_t(o) * in, in, b + o, x, y + size_t(o) * kB, relu);
  for (; o < out; ++o)
    denseRows<V, 1>(w + size_t(o) * in, in, b + o, x, y + size_t(o) * kB, relu);
}

using DenseFn = void (*)(const float *, const float *, int, int, const float *,
                         float *, bool);

void denseBaseline(const float *w, const float *b, int in, int out,
                   const float *x, float *y, bool relu) {
  denseImpl<v4f, 4>(w, b, in, out, x, y, relu);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ISAAC_MLP_MULTIVERSION 1
__attribute__((target("avx2,fma"))) void denseAvx2(const float *w,
                                                   const float *b, int in,
                                                   int out, const float *x,
                                                   float *y, bool relu) {
  denseImpl<v8f, 4>(w, b, in, out, x, y, relu);
}
__attribute__((target("avx512f,avx512vl,avx2,fma"))) void
denseAvx512(const float *w, const float *b, int in, int out, const float *x,
            float *y, bool relu) {
  denseImpl<v8f, 8>(w, b, in, out, x, y, relu);
}
#endif

/// The widest kernel the CPU runs. ISAAC_MLP_ISA=baseline|avx2|avx512
/// caps it (tests compare the variants).
DenseFn pickDense() {
  const char *cap = std::getenv("ISAAC_MLP_ISA");
  std::string want = cap ? cap : "";
#ifdef ISAAC_MLP_MULTIVERSION
  __builtin_cpu_init();
  bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                __builtin_cpu_supports("avx512vl");
  if (avx512 && (want.empty() || want == "avx512"))
    return denseAvx512;
  if (avx2 && want != "baseline")
    return denseAvx2;
#endif
  return denseBaseline;
}

DenseFn dense() {
  static const DenseFn fn = pickDense();
  return fn;
}
} // namespace

//===----------------------------------------------------------------------===//
// Inference
//===----------------------------------------------------------------------===//

size_t MLPModel::numParams() const {
  size_t n = 0;
  for (const Net &net : raw_)
    for (const Layer &l : net)
      n += l.w.size() + l.b.size();
  return n;
}

double MLPModel::seconds(const GemmShape &s, float log2Tflops) {
  double flops =
      2.0 * double(s.m) * double(s.n) * double(s.k) * double(s.batch);
  return flops / (std::exp2(double(log2Tflops)) * 1e12);
}

/// x: first.in x kB, feature-major. work: 2 * maxWidth_ * kB floats. Writes
/// kB outputs to y.
void MLPModel::forward(const Net &net, const Layer &first, const float *x,
                       float *y, float *work) const {
  DenseFn fn = dense();
  float *buf[2] = {work, work + size_t(maxWidth_) * kB};
  const float *cur = x;
  size_t last = net.size() - 1;
  for (size_t l = 0; l <= last; ++l) {
    const Layer &L = l == 0 ? first : net[l];
    float *dst = l == last ? y : buf[l % 2];
    fn(L.w.data(), L.b.data(), L.in, L.out, cur, dst, l != last);
    cur = dst;
  }
}

void MLPModel::forwardMean(const Net *const *nets, const Layer *firsts,
                           size_t count, const float *x, size_t cnt, float *y,
                           float *work) const {
  float out[kB];
  for (size_t i = 0; i < count; ++i) {
    forward(*nets[i], firsts ? firsts[i] : (*nets[i])[0], x, out, work);
    for (size_t b = 0; b < cnt; ++b)
      y[b] = i == 0 ? out[b] : y[b] + out[b];
  }
  if (count > 1) {
    const float scale = 1.0f / float(count);
    for (size_t b = 0; b < cnt; ++b)
      y[b] *= scale;
  }
}

std::vector<const MLPModel::Net *>
MLPModel::memberNets(size_t firstMember, size_t numMembers) const {
  size_t mBegin = std::min(firstMember, folded_.size() - 1);
  size_t mEnd = mBegin + std::min(numMembers, folded_.size() - mBegin);
  std::vector<const Net *> nets;
  for (size_t mi = mBegin; mi < mEnd; ++mi)
    nets.push_back(&folded_[mi]);
  return nets;
}

void MLPModel::predictFeatures(const float *x, size_t n, float *y) const {
  const int nf = numFeatures();
  std::vector<float> work(2 * size_t(maxWidth_) * kB);
  std::vector<float> block(size_t(nf) * kB);
  const std::vector<const Net *> nets = memberNets(0, SIZE_MAX);
  for (size_t base = 0; base < n; base += kB) {
    size_t cnt = std::min<size_t>(kB, n - base);
    for (size_t b = 0; b < kB; ++b) {
      const float *row = x + (base + std::min(b, cnt - 1)) * size_t(nf);
      for (int f = 0; f < nf; ++f)
        block[size_t(f) * kB + b] = row[f];
    }
    forwardMean(nets.data(), nullptr, nets.size(), block.data(), cnt, y + base,
                work.data());
  }
}

void MLPModel::predict(const GemmShape &shape, const GemmConfig *configs,
                       size_t n, float *y, size_t firstMember,
                       size_t numMembers) const {
  if (op_ != ModelOp::Gemm) { // a conv model predicts no GEMM
    std::fill(y, y + n, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  FeatureBuilder fb(shape, numSMs_);
  predictWith(fb.shapeFeatures(), fb, configs, n, y,
              memberNets(firstMember, numMembers));
}

void MLPModel::predictScreen(const GemmShape &shape, const GemmConfig *configs,
                             size_t n, float *y) const {
  if (op_ != ModelOp::Gemm || screenFolded_.empty()) {
    std::fill(y, y + n, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  FeatureBuilder fb(shape, numSMs_);
  predictWith(fb.shapeFeatures(), fb, configs, n, y, {&screenFolded_});
}

void MLPModel::predictConv(const ConvShape &shape, const GemmConfig *configs,
                           size_t n, float *y, size_t firstMember,
                           size_t numMembers) const {
  if (op_ != ModelOp::Conv) { // a GEMM model predicts no convolution
    std::fill(y, y + n, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  float sf[kNumConvShapeFeatures];
  computeConvShapeFeatures(shape, sf);
  FeatureBuilder fb(shape.gemmShape(), numSMs_);
  predictWith(sf, fb, configs, n, y, memberNets(firstMember, numMembers));
}

void MLPModel::predictWith(const float *sf, const FeatureBuilder &fb,
                           const GemmConfig *configs, size_t n, float *y,
                           const std::vector<const Net *> &nets) const {
  // First layer restricted to the configuration-dependent features, the
  // shape-only ones folded into its bias.
  constexpr int kC = kNumConfigFeatures;
  const int nf = numFeatures(), ns = numShapeFeatures();
  std::vector<Layer> firsts(nets.size());
  for (size_t ni = 0; ni < nets.size(); ++ni) {
    const Layer &f = (*nets[ni])[0];
    Layer &first = firsts[ni];
    first.in = kC;
    first.out = f.out;
    first.w.resize(size_t(f.out) * kC);
    first.b.resize(f.out);
    for (int o = 0; o < f.out; ++o) {
      const float *row = f.w.data() + size_t(o) * nf;
      double acc = f.b[o];
      for (int i = 0; i < ns; ++i)
        acc += double(row[i]) * sf[i];
      first.b[o] = float(acc);
      std::memcpy(first.w.data() + size_t(o) * kC, row + ns,
                  kC * sizeof(float));
    }
  }

  std::vector<float> work(2 * size_t(maxWidth_) * kB);
  std::vector<float> block(size_t(kC) * kB);
  float feats[kC];
  for (size_t base = 0; base < n; base += kB) {
    size_t cnt = std::min<size_t>(kB, n - base);
    for (size_t b = 0; b < kB; ++b) {
      fb.fillConfigPart(configs[base + std::min(b, cnt - 1)], feats);
      for (int i = 0; i < kC; ++i)
        block[size_t(i) * kB + b] = feats[i];
    }
    forwardMean(nets.data(), firsts.data(), nets.size(), block.data(), cnt,
                y + base, work.data());
  }
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

uint32_t isaac::mlpChecksum(const char *data, size_t n) {
  // Slicing by 8: eight table lookups per 8 bytes (the checksum of a model
  // was a fifth of its loading time a byte at a time).
  static const auto tables = [] {
    std::vector<std::array<uint32_t, 256>> t(8);
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
      for (int s = 1; s < 8; ++s)
        t[size_t(s)][i] =
            (t[size_t(s) - 1][i] >> 8) ^ t[0][t[size_t(s) - 1][i] & 0xFF];
    return t;
  }();
  const auto &t = tables;
  uint32_t c = 0xFFFFFFFFu;
  const unsigned char *p = reinterpret_cast<const unsigned char *>(data);
  for (; n >= 8; n -= 8, p += 8) {
    uint32_t lo = c ^ (uint32_t(p[0]) | uint32_t(p[1]) << 8 |
                       uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24);
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^
        t[4][lo >> 24] ^ t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
  }
  for (; n > 0; --n, ++p)
    c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

namespace {
/// A record: its line number and its text (a view into the file's text,
/// which outlives the parse). Its words are split on first use: the weight
/// rows, nine tenths of a model's bytes, are read by Reader::numbers
/// straight from the text.
struct Line {
  Line(int number, std::string_view text) : number(number), text(text) {}
  int number;
  std::string_view text;
  const std::vector<std::string_view> &tokens() const;

private:
  /// Empty until first split (a record has at least one word).
  mutable std::vector<std::string_view> words;
};

/// The characters istream's `>>` separates words at (the "C" locale).
constexpr std::array<bool, 256> kSpaces = [] {
  std::array<bool, 256> t{};
  for (char c : {' ', '\n', '\t', '\r', '\v', '\f'})
    t[static_cast<unsigned char>(c)] = true;
  return t;
}();
inline bool isSpace(char c) { return kSpaces[static_cast<unsigned char>(c)]; }

/// The next word of [p, e) as `istream >> std::string` reads it (empty at
/// the end), p moved past it.
std::string_view nextWord(const char *&p, const char *e) {
  while (p < e && isSpace(*p))
    ++p;
  const char *w = p;
  while (p < e && !isSpace(*p))
    ++p;
  return std::string_view(w, size_t(p - w));
}

/// Words of [b, e). (A model file has ~10^5 of them: a stream per line,
/// then a string per word, took most of the loading time.)
void splitWs(const char *b, const char *e, std::vector<std::string_view> &out) {
  out.clear();
  for (std::string_view w; !(w = nextWord(b, e)).empty();)
    out.push_back(w);
}

const std::vector<std::string_view> &Line::tokens() const {
  if (words.empty())
    splitWs(text.data(), text.data() + text.size(), words);
  return words;
}

/// Each character's hexadecimal digit value, or -1.
constexpr std::array<int8_t, 256> kHexDigits = [] {
  std::array<int8_t, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[size_t(c)] = c >= '0' && c <= '9'   ? int8_t(c - '0')
                   : c >= 'a' && c <= 'f' ? int8_t(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? int8_t(c - 'A' + 10)
                                          : int8_t(-1);
  return t;
}();

/// The value of a C99 hexadecimal float the trainer writes
/// (`-0x1.8p-3`), computed exactly; false for anything else (strtod reads
/// those). Every value it accepts is exactly representable, so it is
/// strtod's. (A model holds ~10^5 of them: this is most of its loading.)
bool parseHexFloat(std::string_view t, double &v) {
  const char *p = t.data(), *end = p + t.size();
  auto digit = [](char c) { return kHexDigits[static_cast<unsigned char>(c)]; };
  bool neg = p < end && *p == '-';
  if (p < end && (*p == '-' || *p == '+'))
    ++p;
  if (end - p < 2 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
    return false;
  p += 2;
  // Digits before and after the point; `digits` counts from the first
  // non-zero one (leading zeros carry no precision).
  uint64_t mant = 0;
  int digits = 0, frac = 0, any = 0;
  auto take = [&](int d) {
    mant = mant * 16 + uint64_t(d);
    digits += mant != 0;
  };
  for (int d; p < end && (d = digit(*p)) >= 0; ++p, ++any)
    take(d);
  if (p < end && *p == '.')
    for (int d; ++p < end && (d = digit(*p)) >= 0; ++frac, ++any)
      take(d);
  if (digits > 13) // past 52 bits: leave it to strtod
    return false;
  if (!any || p == end || (*p != 'p' && *p != 'P'))
    return false;
  ++p;
  bool eneg = p < end && *p == '-';
  if (p < end && (*p == '-' || *p == '+'))
    ++p;
  if (p == end || *p < '0' || *p > '9')
    return false;
  long e = 0;
  for (; p < end && *p >= '0' && *p <= '9'; ++p)
    if ((e = e * 10 + (*p - '0')) > 100000)
      return false;
  if (p != end)
    return false;
  long exp2 = (eneg ? -e : e) - 4L * frac;
  if (mant == 0) {
    v = neg ? -0.0 : 0.0;
    return true;
  }
  // mant < 2^52 is exact in a double; so is the scaled value unless it
  // leaves the normal range, where strtod's rounding decides.
  if (exp2 < -1000 || exp2 > 1000)
    return false;
  // 2^exp2 is a normal double: the product is ldexp's, exact (or infinite,
  // which the caller refuses).
  uint64_t bits = uint64_t(exp2 + 1023) << 52;
  double scale;
  std::memcpy(&scale, &bits, sizeof scale);
  v = double(mant) * scale;
  if (neg)
    v = -v;
  return true;
}

bool parseNumber(std::string_view t, double &v) {
  if (t.empty())
    return false;
  if (!parseHexFloat(t, v)) {
    const std::string s(t); // strtod reads up to a NUL
    char *end = nullptr;
    v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
      return false;
  }
  return std::isfinite(v);
}

bool parseInt(std::string_view t, long &v) {
  if (t.empty())
    return false;
  const std::string s(t);
  char *end = nullptr;
  v = std::strtol(s.c_str(), &end, 10);
  return end == s.c_str() + s.size();
}

/// "1000" or "0.000977": a bound as messages print it.
std::string boundStr(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// Line-by-line reader of the model body with error reporting.
class Reader {
public:
  Reader(std::vector<Line> lines, std::string name)
      : lines(std::move(lines)), name(std::move(name)) {}

  bool atEnd() const { return pos >= lines.size(); }
  /// Whether the next line's first token is `key`.
  bool nextIs(const char *key) const {
    return !atEnd() && lines[pos].tokens()[0] == key;
  }
  /// Next line as exactly `key <index>` (`member 2`, `layer 0`).
  const Line *expectIndexed(const char *key, size_t index, std::string &error) {
    const Line *l = expect(key, 1, error);
    if (l && l->tokens()[1] != std::to_string(index)) {
      error =
          where(*l) + "expected '" + key + " " + std::to_string(index) + "'";
      return nullptr;
    }
    return l;
  }
  /// Next line whose first token is `key`; `nargs` < 0: any count.
  const Line *expect(const char *key, long nargs, std::string &error) {
    if (atEnd()) {
      error = name + ": truncated: expected '" + key + "'";
      return nullptr;
    }
    const Line &l = lines[pos];
    if (l.tokens()[0] != key) {
      error = where(l) + "expected '" + key + "', got '" +
              std::string(l.tokens()[0]) + "'";
      return nullptr;
    }
    if (nargs >= 0 && long(l.tokens().size()) - 1 != nargs) {
      error = where(l) + "'" + key + "' takes " + std::to_string(nargs) +
              " value(s), got " + std::to_string(l.tokens().size() - 1);
      return nullptr;
    }
    ++pos;
    return &l;
  }
  /// Next line as exactly `n` numbers.
  bool numbers(size_t n, std::vector<double> &out, size_t first, const Line &l,
               std::string &error) const {
    out.resize(n);
    // A weight row, read from its text without splitting it first; any
    // fault is reported by the general path below.
    if (first == 0 && numbersFast(n, out, l))
      return true;
    const std::vector<std::string_view> &t = l.tokens();
    if (t.size() - first != n) {
      error = where(l) + "expected " + std::to_string(n) + " numbers, got " +
              std::to_string(t.size() - first);
      return false;
    }
    for (size_t i = 0; i < n; ++i)
      if (!parseNumber(t[first + i], out[i])) {
        error = where(l) + "'" + std::string(t[first + i]) +
                "' is not a finite number";
        return false;
      }
    return true;
  }
  /// Whether `l` is exactly `n` finite numbers, into `out` (sized `n`).
  static bool numbersFast(size_t n, std::vector<double> &out, const Line &l) {
    const char *p = l.text.data(), *end = p + l.text.size();
    size_t i = 0;
    for (std::string_view w; !(w = nextWord(p, end)).empty(); ++i)
      if (i == n || !parseNumber(w, out[i]))
        return false;
    return i == n;
  }
  /// Checks that numbers()'s values, read from `l` from token `first`, lie
  /// in [lo, hi]; `what` names them in the message.
  bool within(const std::vector<double> &v, double lo, double hi, size_t first,
              const Line &l, const std::string &what,
              std::string &error) const {
    for (size_t i = 0; i < v.size(); ++i)
      if (!(v[i] >= lo && v[i] <= hi)) {
        error = where(l) + what + " '" + std::string(l.tokens()[first + i]) +
                "' is outside [" + boundStr(lo) + ", " + boundStr(hi) +
                "] (docs/model-format.md, \"Bounds\")";
        return false;
      }
    return true;
  }
  const Line *next(std::string &error, const char *what) {
    if (atEnd()) {
      error = name + ": truncated: expected " + what;
      return nullptr;
    }
    return &lines[pos++];
  }
  std::string where(const Line &l) const {
    return name + ":" + std::to_string(l.number) + ": ";
  }

private:
  std::vector<Line> lines;
  std::string name;
  size_t pos = 0;
};
} // namespace

/// The bytes of `path`, or false with `error` set.
static bool readFile(const std::string &path, std::string &text,
                     std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open file";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = path + ": read error";
    return false;
  }
  text = ss.str();
  return true;
}

std::string isaac::modelFileName(ModelOp op, DType dtype, GemmFamily family) {
  std::string name = std::string(modelOpName(op)) + "-" + dtypeName(dtype);
  if ((dtype == DType::F32 || dtype == DType::F64) &&
      family != GemmFamily::Simt)
    name += std::string("-") + gemmFamilyName(family);
  return name + ".mlp";
}

std::unique_ptr<MLPModel> MLPModel::load(const std::string &path,
                                         std::string &error) {
  std::string text;
  if (!readFile(path, text, error))
    return nullptr;
  return parse(text, path, error);
}

std::shared_ptr<const MLPModel> MLPModel::loadShared(const std::string &path,
                                                     std::string &error) {
  // Keyed by the path, checked against the bytes: reading a file is cheap
  // next to parsing it, and a file replaced while the process runs (a
  // plugin in a long-lived mlir-opt) is parsed anew.
  struct Entry {
    std::string text;
    std::shared_ptr<const MLPModel> model;
  };
  static std::mutex mutex;
  // Never destroyed: the models and their search caches (lists of a few
  // 10^5 configurations) would be freed at exit for nothing.
  static auto &cache = *new std::map<std::string, Entry>();
  std::string text;
  if (!readFile(path, text, error))
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(path);
  if (it != cache.end() && it->second.text == text)
    return it->second.model;
  std::shared_ptr<const MLPModel> model = parse(text, path, error);
  if (model)
    cache[path] = {std::move(text), model};
  return model;
}

std::unique_ptr<MLPModel> MLPModel::parse(const std::string &text,
                                          const std::string &name,
                                          std::string &error) {
  // Magic and version, before anything else.
  size_t eol = text.find('\n');
  std::vector<std::string_view> head;
  splitWs(text.data(),
          text.data() + (eol == std::string::npos ? text.size() : eol), head);
  if (head.empty() || head[0] != "isaac-mlp") {
    error = name +
            ": not an isaac MLP model (the first line must be "
            "'isaac-mlp " +
            std::to_string(kMLPFormatVersion) + "')";
    return nullptr;
  }
  long version = 0;
  if (head.size() != 2 || !parseInt(head[1], version)) {
    error = name + ":1: malformed header, expected 'isaac-mlp <version>'";
    return nullptr;
  }
  if (version < kMLPOldestFormatVersion || version > kMLPFormatVersion) {
    error = name + ": unsupported model format version " +
            std::string(head[1]) + " (this build reads versions " +
            std::to_string(kMLPOldestFormatVersion) + " to " +
            std::to_string(kMLPFormatVersion) + ")";
    return nullptr;
  }

  // Split into lines; the last non-blank one must be `end <crc32>` over
  // every byte before it.
  std::vector<std::pair<size_t, size_t>> spans; // [begin, end) of each line
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos)
      e = text.size();
    spans.push_back({b, e});
    b = e + 1;
  }
  auto wordsOf = [&](int i, std::vector<std::string_view> &out) {
    splitWs(text.data() + spans[i].first, text.data() + spans[i].second, out);
  };
  int endIdx = int(spans.size()) - 1;
  std::vector<std::string_view> endTok;
  while (endIdx >= 0 && (wordsOf(endIdx, endTok), endTok.empty()))
    --endIdx;
  if (endTok.empty() || endTok[0] != "end") {
    error = name + ": truncated or corrupt: the file does not end with an "
                   "'end <checksum>' line";
    return nullptr;
  }
  if (endTok.size() != 2 || endTok[1].size() != 8) {
    error = name + ":" + std::to_string(endIdx + 1) +
            ": malformed 'end' line, expected 'end <crc32 as 8 hex digits>'";
    return nullptr;
  }
  uint32_t want =
      uint32_t(std::strtoul(std::string(endTok[1]).c_str(), nullptr, 16));
  uint32_t got = mlpChecksum(text.data(), spans[endIdx].first);
  if (want != got) {
    char buf[96];
    std::snprintf(buf, sizeof buf,
                  ": corrupt: checksum mismatch (file says %08x, content "
                  "hashes to %08x)",
                  want, got);
    error = name + buf;
    return nullptr;
  }

  // Records: the lines between the header and `end` that are neither blank
  // nor comments.
  std::vector<Line> lines;
  lines.reserve(size_t(std::max(endIdx, 0)));
  for (int i = 1; i < endIdx; ++i) {
    const char *p = text.data() + spans[i].first,
               *e = text.data() + spans[i].second;
    std::string_view first = nextWord(p, e);
    if (first.empty() || first[0] == '#')
      continue;
    lines.emplace_back(
        i + 1, std::string_view(first.data(), size_t(e - first.data())));
  }
  Reader r(std::move(lines), name);
  std::unique_ptr<MLPModel> m(new MLPModel());

  const Line *l = r.expect("dtype", 1, error);
  if (!l)
    return nullptr;
  {
    bool known = false;
    for (DType t : {DType::F32, DType::F64, DType::F16, DType::BF16})
      if (l->tokens()[1] == dtypeName(t)) {
        m->dtype_ = t;
        known = true;
      }
    if (!known) {
      error =
          r.where(*l) + "unknown dtype '" + std::string(l->tokens()[1]) + "'";
      return nullptr;
    }
  }
  if (!(l = r.expect("chip", 1, error)))
    return nullptr;
  m->chip_ = l->tokens()[1];
  if (!(l = r.expect("num-sms", 1, error)))
    return nullptr;
  long sms = 0;
  if (!parseInt(l->tokens()[1], sms) || sms < 1 || sms > 100000) {
    error = r.where(*l) + "bad multiprocessor count '" +
            std::string(l->tokens()[1]) + "'";
    return nullptr;
  }
  m->numSMs_ = int(sms);
  if (!(l = r.expect("target", 1, error)))
    return nullptr;
  if (l->tokens()[1] != "log2-tflops") {
    error = r.where(*l) + "unknown target '" + std::string(l->tokens()[1]) +
            "' (this build predicts log2-tflops)";
    return nullptr;
  }
  if (!(l = r.expect("data", -1, error)))
    return nullptr;
  if (l->tokens().size() < 2 ||
      (l->tokens()[1] != "synthetic" && l->tokens()[1] != "measured")) {
    error = r.where(*l) + "'data' must start with 'synthetic' or 'measured'";
    return nullptr;
  }
  m->synthetic_ = l->tokens()[1] == "synthetic";
  for (size_t i = 1; i < l->tokens().size(); ++i)
    m->data_ += (i > 1 ? " " : "") + std::string(l->tokens()[i]);

  // An optional `family <name>`: the kernel family the model ranks. The
  // features name the family's parameters, which the mma and wgmma
  // families share, so a model of either of those says which it is; a
  // file without the record ranks the first family its features fit
  // (simt, or mma).
  std::optional<GemmFamily> declaredFamily;
  if (r.nextIs("family")) {
    if (!(l = r.expect("family", 1, error)))
      return nullptr;
    declaredFamily = parseGemmFamily(l->tokens()[1]);
    if (!declaredFamily) {
      error = r.where(*l) + "unknown kernel family '" +
              std::string(l->tokens()[1]) + "' (simt, mma or wgmma)";
      return nullptr;
    }
  }

  // Version 2: the support, one record per tuning parameter of the
  // features' family (featureParams: simt's legacy vector, or mma's), in
  // that order. The family is the one whose order the names follow; the
  // features record below must be of the same family.
  std::vector<GemmFamily> supportFamilies;
  for (int f = 0; f < kNumGemmFamilies; ++f)
    supportFamilies.push_back(static_cast<GemmFamily>(f));
  // The values of the support record `l`: increasing integers in
  // [lo, hi] (`what` says so in the error).
  auto readValues = [&](long lo, long hi, const std::string &subject,
                        const std::string &what, std::vector<int> &values) {
    for (size_t i = 2; i < l->tokens().size(); ++i) {
      long v = 0;
      if (!parseInt(l->tokens()[i], v) || v < lo || v > hi ||
          (!values.empty() && v <= values.back())) {
        error = r.where(*l) + subject + " values must be " + what + ", got '" +
                std::string(l->tokens()[i]) + "'";
        return false;
      }
      values.push_back(int(v));
    }
    return true;
  };
  if (version >= 2) {
    for (size_t pi = 0; pi < 9; ++pi) {
      if (!(l = r.expect("support", -1, error)))
        return nullptr;
      std::vector<GemmFamily> fits;
      for (GemmFamily f : supportFamilies)
        if (l->tokens().size() >= 3 &&
            l->tokens()[1] == gemmParamInfo(featureParams(f)[pi]).name)
          fits.push_back(f);
      if (fits.empty()) {
        const std::array<GemmParam, 9> &want =
            featureParams(supportFamilies.front());
        std::string order;
        for (GemmParam q : want)
          order +=
              std::string(order.empty() ? "" : " ") + gemmParamInfo(q).name;
        error = r.where(*l) + "expected 'support " +
                gemmParamInfo(want[pi]).name +
                " <values>' (the parameters in the order " + order +
                ", each with at least one value)";
        return nullptr;
      }
      supportFamilies = fits;
      std::vector<int> values;
      if (!readValues(1, 1 << 20, "support", "increasing positive integers",
                      values))
        return nullptr;
      m->support_.push_back(std::move(values));
    }
    // Then, optionally, the extra feature's (simt's stages, read through
    // log2_stage): `support stages V...`.
    if (r.nextIs("support")) {
      if (!(l = r.expect("support", -1, error)))
        return nullptr;
      std::vector<GemmFamily> fits;
      for (GemmFamily f : supportFamilies)
        if (l->tokens().size() >= 3 && l->tokens()[1] == "stages" &&
            gemmParamExtraFeature(f, GemmParam::stages))
          fits.push_back(f);
      if (fits.empty()) {
        error = r.where(*l) +
                "after the nine support records only 'support stages "
                "<values>' may follow, and only in a model of the simt "
                "family (whose features read stages through log2_stage)";
        return nullptr;
      }
      supportFamilies = fits;
      const GemmParamInfo &info = gemmParamInfo(GemmParam::stages);
      std::vector<int> values;
      if (!readValues(info.lo, info.hi, "stages support",
                      "increasing integers in [" + std::to_string(info.lo) +
                          ", " + std::to_string(info.hi) + "]",
                      values))
        return nullptr;
      // The search's space holds the default; the other depths are ranked
      // as its configurations' variants (MLPSearch.cpp).
      if (!std::binary_search(values.begin(), values.end(),
                              info.defaultValue)) {
        error = r.where(*l) + "the stages support must include " +
                std::to_string(info.defaultValue) +
                " (the search ranks the other depths as variants of "
                "two-stage configurations)";
        return nullptr;
      }
      m->stagesSupport_ = std::move(values);
    }
  }

  // The features: a family's GEMM features (featureNames(family)) or its
  // conv features; the names of features 5..13 say which family.
  if (!(l = r.expect("features", -1, error)))
    return nullptr;
  {
    auto join = [](const char *const *names, int n) {
      std::string out;
      for (int i = 0; i < n; ++i)
        out += std::string(i ? " " : "") + names[i];
      return out;
    };
    std::string have;
    for (size_t i = 2; i < l->tokens().size(); ++i)
      have += std::string(i > 2 ? " " : "") + std::string(l->tokens()[i]);
    const std::string count(l->tokens().size() >= 2 ? l->tokens()[1] : "");
    bool found = false;
    for (int f = 0; f < kNumGemmFamilies && !found; ++f) {
      GemmFamily family = static_cast<GemmFamily>(f);
      if (declaredFamily && family != *declaredFamily)
        continue;
      if (count == std::to_string(kNumFeatures) &&
          have == join(featureNames(family), kNumFeatures)) {
        m->op_ = ModelOp::Gemm;
        m->family_ = family;
        found = true;
      }
      if (count == std::to_string(kNumConvFeatures) &&
          have == join(convFeatureNames(family), kNumConvFeatures)) {
        m->op_ = ModelOp::Conv;
        m->family_ = family;
        found = true;
      }
    }
    if (!found && declaredFamily) {
      error = r.where(*l) + "the features are not those of the " +
              gemmFamilyName(*declaredFamily) +
              " family the 'family' record names";
      return nullptr;
    }
    if (!found) {
      // Name the definition the file looks closest to: conv's if it
      // starts like one.
      bool conv = l->tokens().size() > 3 && l->tokens()[3] == "log2_p";
      error = r.where(*l) + "the model's features differ from this build's (";
      if (conv) {
        for (int f = 0; f < kNumGemmFamilies; ++f)
          error += std::string(f ? "; or " : "") +
                   std::to_string(kNumConvFeatures) + ": " +
                   join(convFeatureNames(static_cast<GemmFamily>(f)),
                        kNumConvFeatures);
      } else {
        for (int f = 0; f < kNumGemmFamilies; ++f)
          error += std::string(f ? "; or " : "") +
                   std::to_string(kNumFeatures) + ": " +
                   join(featureNames(static_cast<GemmFamily>(f)), kNumFeatures);
      }
      error += "); retrain it with tools/isaac-tune/train.py";
      return nullptr;
    }
    if (!m->support_.empty() &&
        std::find(supportFamilies.begin(), supportFamilies.end(), m->family_) ==
            supportFamilies.end()) {
      error = r.where(*l) + "the features are of the " +
              gemmFamilyName(m->family_) +
              " family, the support records of another";
      return nullptr;
    }
  }

  if (!(l = r.expect("layers", -1, error)))
    return nullptr;
  if (l->tokens().size() < 3 || l->tokens().size() > 66) {
    error = r.where(*l) + "'layers' needs 2 to 65 sizes";
    return nullptr;
  }
  const int nf = m->op_ == ModelOp::Conv ? kNumConvFeatures : kNumFeatures;
  // Layer widths from token `from` of `line` (the `layers` record's, or the
  // screen's), from the features to one output; `whose` names them in a
  // message ("the " or "the screen's ").
  auto readWidths = [&](const Line &line, size_t from, std::vector<int> &out,
                        const char *whose) {
    for (size_t i = from; i < line.tokens().size(); ++i) {
      long w = 0;
      if (!parseInt(line.tokens()[i], w) || w < 1 || w > 16384) {
        error = r.where(line) + "bad layer size '" +
                std::string(line.tokens()[i]) + "'";
        return false;
      }
      out.push_back(int(w));
    }
    if (out.front() != nf || out.back() != 1) {
      error = r.where(line) + whose + "first layer size must be " +
              std::to_string(nf) + " (features) and the last 1";
      return false;
    }
    // Every parameter takes at least two characters of text: refuse sizes
    // the file cannot hold before allocating anything for them.
    size_t params = 0;
    for (size_t i = 0; i + 1 < out.size(); ++i)
      params += size_t(out[i] + 1) * size_t(out[i + 1]);
    if (params > text.size() / 2) {
      error = r.where(line) + "layer sizes need " + std::to_string(params) +
              " parameters, more than the file holds";
      return false;
    }
    return true;
  };
  if (!readWidths(*l, 1, m->sizes_, "the "))
    return nullptr;

  // Standardization: means and standard deviations of log2 sizes and of
  // log2 TFLOPS, within the bounds of docs/model-format.md.
  std::vector<double> v;
  if (!(l = r.expect("input-mean", nf, error)) ||
      !r.numbers(size_t(nf), v, 1, *l, error) ||
      !r.within(v, -kMLPMaxAbsMean, kMLPMaxAbsMean, 1, *l, "input-mean", error))
    return nullptr;
  m->inMean_.assign(v.begin(), v.end());
  if (!(l = r.expect("input-std", nf, error)) ||
      !r.numbers(size_t(nf), v, 1, *l, error))
    return nullptr;
  for (double s : v)
    if (!(s > 0)) {
      error = r.where(*l) + "standard deviations must be positive";
      return nullptr;
    }
  if (!r.within(v, kMLPMinStd, kMLPMaxStd, 1, *l, "input-std", error))
    return nullptr;
  m->inStd_.assign(v.begin(), v.end());
  if (!(l = r.expect("output-mean", 1, error)) ||
      !r.numbers(1, v, 1, *l, error) ||
      !r.within(v, -kMLPMaxAbsMean, kMLPMaxAbsMean, 1, *l, "output-mean",
                error))
    return nullptr;
  m->outMean_ = float(v[0]);
  if (!(l = r.expect("output-std", 1, error)) || !r.numbers(1, v, 1, *l, error))
    return nullptr;
  if (!(v[0] > 0)) {
    error = r.where(*l) + "output-std must be positive";
    return nullptr;
  }
  if (!r.within(v, kMLPMinStd, kMLPMaxStd, 1, *l, "output-std", error))
    return nullptr;
  m->outStd_ = float(v[0]);

  // Version 2: `members N`, then `member i` before each network's layers.
  long members = 1;
  if (version >= 2) {
    if (!(l = r.expect("members", 1, error)))
      return nullptr;
    if (!parseInt(l->tokens()[1], members) || members < 1 || members > 64) {
      error = r.where(*l) + "'members' must be 1 to 64, got '" +
              std::string(l->tokens()[1]) + "'";
      return nullptr;
    }
  }
  // One network of widths `sizes`: `layer i` records, each followed by a
  // row per neuron (its weights, then its bias). `line` gets the number of
  // the first `layer` record.
  auto readNet = [&](const std::vector<int> &sizes, Net &net, int *line) {
    for (size_t li = 0; li + 1 < sizes.size(); ++li) {
      const Line *layer = r.expectIndexed("layer", li, error);
      if (!layer)
        return false;
      if (li == 0 && line)
        *line = layer->number;
      Layer L;
      L.in = sizes[li];
      L.out = sizes[li + 1];
      L.w.resize(size_t(L.in) * L.out);
      L.b.resize(L.out);
      for (int o = 0; o < L.out; ++o) {
        const Line *row = r.next(error, "a weight row");
        if (!row)
          return false;
        if (!r.numbers(size_t(L.in) + 1, v, 0, *row, error))
          return false;
        for (int i = 0; i <= L.in; ++i)
          if (!(std::fabs(v[i]) <= kMLPMaxAbsWeight)) {
            error = r.where(*row) + (i < L.in ? "weight" : "bias") + " '" +
                    std::string(row->tokens()[i]) + "' of layer " +
                    std::to_string(li) + ", neuron " + std::to_string(o) +
                    " is outside [-" + boundStr(kMLPMaxAbsWeight) + ", " +
                    boundStr(kMLPMaxAbsWeight) +
                    "] (docs/model-format.md, \"Bounds\")";
            return false;
          }
        for (int i = 0; i < L.in; ++i)
          L.w[size_t(o) * L.in + i] = float(v[i]);
        L.b[o] = float(v[L.in]);
      }
      net.push_back(std::move(L));
    }
    return true;
  };
  for (long mi = 0; mi < members; ++mi) {
    if (version >= 2 && !(l = r.expectIndexed("member", size_t(mi), error)))
      return nullptr;
    Net net;
    int layer0 = 0;
    if (!readNet(m->sizes_, net, &layer0))
      return nullptr;
    m->memberLine_.push_back(version >= 2 ? l->number : layer0);
    m->raw_.push_back(std::move(net));
  }
  // The screen (optional): `screen KEEP WIDTHS...`, then its layers.
  Net screen;
  if (version >= 2 && r.nextIs("screen")) {
    l = r.expect("screen", -1, error);
    m->screenLine_ = l->number;
    long keep = 0;
    if (l->tokens().size() < 5 || l->tokens().size() > 67 ||
        !parseInt(l->tokens()[1], keep) || keep < 1 || keep > (1 << 24)) {
      error = r.where(*l) + "'screen' needs the configurations it keeps (1 "
                            "to 16777216) and 3 to 65 layer sizes";
      return nullptr;
    }
    if (m->op_ != ModelOp::Gemm || members < 2) {
      error = r.where(*l) + "a screen serves the pre-screen of a GEMM model's "
                            "ensemble (2 members or more)";
      return nullptr;
    }
    m->screenKeep_ = size_t(keep);
    if (!readWidths(*l, 2, m->screenSizes_, "the screen's "))
      return nullptr;
    if (!readNet(m->screenSizes_, screen, nullptr))
      return nullptr;
  }
  if (!r.atEnd()) {
    const Line *extra = r.next(error, "");
    error = r.where(*extra) + "unexpected '" + std::string(extra->tokens()[0]) +
            "' after the last layer";
    return nullptr;
  }

  // Fold the standardization into each network's first and last layers.
  auto fold = [&](Net &net) {
    Layer &f = net.front();
    for (int o = 0; o < f.out; ++o) {
      double b = f.b[o];
      for (int i = 0; i < f.in; ++i) {
        double w = double(f.w[size_t(o) * f.in + i]) / m->inStd_[i];
        b -= w * m->inMean_[i];
        f.w[size_t(o) * f.in + i] = float(w);
      }
      f.b[o] = float(b);
    }
    Layer &o = net.back();
    for (float &w : o.w)
      w *= m->outStd_;
    o.b[0] = o.b[0] * m->outStd_ + m->outMean_;
  };
  m->folded_ = m->raw_;
  for (Net &net : m->folded_)
    fold(net);
  if (!screen.empty()) {
    m->screenFolded_ = std::move(screen);
    fold(m->screenFolded_);
  }
  for (int s : m->sizes_)
    m->maxWidth_ = std::max(m->maxWidth_, s);
  for (int s : m->screenSizes_)
    m->maxWidth_ = std::max(m->maxWidth_, s);

  // inSupport's tables (the parameters' ranges end at 1024; a file may
  // name larger values, which then take binary searches).
  bool small = true;
  for (const std::vector<int> &vals : m->support_)
    small &= vals.empty() || vals.back() <= 4096;
  if (small)
    for (const std::vector<int> &vals : m->support_) {
      std::vector<uint8_t> has(vals.empty() ? 0 : size_t(vals.back()) + 1, 0);
      for (int v : vals)
        has[size_t(v)] = 1;
      m->supportHas_.push_back(std::move(has));
    }

  // Numbers within bounds can still add up to nonsense (or overflow):
  // every member must predict finite, bounded values on the probe set.
  std::string probe;
  int bad = m->checkProbes(probe);
  if (bad >= 0) {
    int line = size_t(bad) < m->memberLine_.size() ? m->memberLine_[size_t(bad)]
                                                   : m->screenLine_;
    error = name + ":" + std::to_string(line) + ": " + probe;
    return nullptr;
  }
  return m;
}

/// Configurations of `family` that probe the ends of the features' range:
/// every feature parameter at 1, at its range's top, and three typical
/// vectors (the simt GEMM probes' legacy vectors).
static std::vector<GemmConfig> familyProbeConfigs(GemmFamily family) {
  std::vector<GemmConfig> configs;
  const std::array<GemmParam, 9> &params = featureParams(family);
  const int typical[3][9] = {{64, 64, 8, 8, 8, 1, 1, 1, 4},
                             {128, 16, 4, 2, 32, 2, 2, 16, 2},
                             {16, 128, 2, 8, 16, 1, 4, 256, 1}};
  for (int v = 0; v < 5; ++v) {
    GemmConfig c;
    c.family = family;
    for (int i = 0; i < 9; ++i) {
      const GemmParamInfo &info = gemmParamInfo(params[i]);
      c.set(params[i], v == 0   ? 1
                       : v == 1 ? info.hi
                                : std::max(info.lo, typical[v - 2][i]));
    }
    configs.push_back(c);
  }
  return configs;
}

const std::vector<std::pair<GemmShape, GemmConfig>> &
MLPModel::probeSet(GemmFamily family) {
  // Inputs across the range the features span: tiny, skinny, deep, large
  // and batched GEMMs, the layouts in turn, each with the smallest, the
  // largest and a few typical configurations (legal or not: the network is
  // only evaluated, and a model must stay finite between its training
  // points). simt's configurations are those of the first models (vec's
  // top was 4 then); the other families' come from familyProbeConfigs.
  static const auto probes = [] {
    std::array<std::vector<std::pair<GemmShape, GemmConfig>>, kNumGemmFamilies>
        out;
    const int64_t shapes[][4] = {{1, 1, 1, 1},          {2560, 16, 2560, 1},
                                 {8192, 8192, 8192, 1}, {32, 32, 65536, 1},
                                 {65536, 65536, 1, 1},  {512, 512, 512, 64}};
    for (int f = 0; f < kNumGemmFamilies; ++f) {
      std::vector<GemmConfig> configs =
          GemmFamily(f) == GemmFamily::Simt
              ? std::vector<GemmConfig>{GemmConfig::fromValues(
                                            {1, 1, 1, 1, 1, 1, 1, 1, 1}),
                                        GemmConfig::fromValues({256, 256, 16,
                                                                16, 64, 16, 32,
                                                                1024, 4}),
                                        GemmConfig::fromValues(
                                            {64, 64, 8, 8, 8, 1, 1, 1, 4}),
                                        GemmConfig::fromValues(
                                            {128, 16, 4, 2, 32, 2, 2, 16, 2}),
                                        GemmConfig::fromValues(
                                            {16, 128, 2, 8, 16, 1, 4, 256, 1})}
              : familyProbeConfigs(GemmFamily(f));
      int layout = 0;
      for (const auto &sh : shapes) {
        GemmShape s;
        s.m = sh[0];
        s.n = sh[1];
        s.k = sh[2];
        s.batch = sh[3];
        s.layout.transA = layout & 2;
        s.layout.transB = layout & 1;
        layout = (layout + 1) % 4;
        for (const GemmConfig &c : configs)
          out[f].push_back({s, c});
      }
    }
    return out;
  }();
  return probes[static_cast<int>(family)];
}

const std::vector<std::pair<ConvShape, GemmConfig>> &
MLPModel::convProbeSet(GemmFamily family) {
  // Convolutions across the range the features span: tiny, wide, deep,
  // strided and dilated, non-square, both filter layouts; with the
  // smallest, the largest and typical configurations of the family (legal
  // or not, as for GEMMs).
  static const auto probes = [] {
    std::array<std::vector<std::pair<ConvShape, GemmConfig>>, kNumGemmFamilies>
        out;
    // N H W C K R S stride dilation P Q
    const int64_t shapes[][11] = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                                  {64, 224, 224, 3, 64, 7, 7, 2, 1, 112, 112},
                                  {32, 7, 7, 2048, 2048, 3, 3, 1, 1, 7, 7},
                                  {1, 512, 512, 1, 1, 1, 7, 1, 2, 512, 500},
                                  {8, 56, 56, 256, 1024, 1, 1, 2, 1, 28, 28},
                                  {1, 33, 33, 4096, 4096, 3, 3, 1, 16, 33, 33}};
    for (int f = 0; f < kNumGemmFamilies; ++f) {
      std::vector<GemmConfig> configs =
          familyProbeConfigs(static_cast<GemmFamily>(f));
      int layout = 0;
      for (const auto &sh : shapes) {
        ConvShape x;
        x.n = sh[0];
        x.h = sh[1];
        x.w = sh[2];
        x.c = sh[3];
        x.k = sh[4];
        x.r = sh[5];
        x.s = sh[6];
        x.strideH = x.strideW = sh[7];
        x.dilationH = x.dilationW = sh[8];
        x.p = sh[9];
        x.q = sh[10];
        x.layout = layout++ % 2 ? ConvLayout::NhwcFhwc : ConvLayout::NhwcHwcf;
        for (const GemmConfig &c : configs)
          out[f].push_back({x, c});
      }
    }
    return out;
  }();
  return probes[static_cast<int>(family)];
}

int MLPModel::checkProbes(std::string &message) const {
  if (op_ == ModelOp::Conv) {
    const auto &probes = convProbeSet(family_);
    for (size_t mi = 0; mi < folded_.size(); ++mi)
      for (const auto &[x, c] : probes) {
        float y = 0;
        predictConv(x, &c, 1, &y, mi, 1);
        if (std::isfinite(y) && std::fabs(y) <= kMLPMaxAbsPrediction)
          continue;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", double(y));
        message = "member " + std::to_string(mi) + " predicts " + buf +
                  " (log2 TFLOPS) on the probe " + x.str() + " #isaac.gemm<" +
                  c.str() +
                  ">; a usable model predicts finite values within [-" +
                  boundStr(kMLPMaxAbsPrediction) + ", " +
                  boundStr(kMLPMaxAbsPrediction) + "]";
        return int(mi);
      }
    return -1;
  }
  // One predict() per member and probe shape (the probes come five
  // configurations to a shape).
  // The screen, where there is one, is checked last (index numMembers()).
  const auto &probes = probeSet(family_);
  const size_t nets = folded_.size() + (screenFolded_.empty() ? 0 : 1);
  for (size_t mi = 0; mi < nets; ++mi)
    for (size_t b = 0; b < probes.size();) {
      size_t e = b;
      std::vector<GemmConfig> configs;
      auto sameShape = [](const GemmShape &x, const GemmShape &y) {
        return x.m == y.m && x.n == y.n && x.k == y.k && x.batch == y.batch &&
               x.layout.transA == y.layout.transA &&
               x.layout.transB == y.layout.transB;
      };
      while (e < probes.size() && sameShape(probes[e].first, probes[b].first))
        configs.push_back(probes[e++].second);
      GemmShape s = probes[b].first;
      s.dtype = dtype_;
      s.cType = dtype_;
      std::vector<float> y(configs.size());
      if (mi < folded_.size())
        predict(s, configs.data(), configs.size(), y.data(), mi, 1);
      else
        predictScreen(s, configs.data(), configs.size(), y.data());
      for (size_t i = 0; i < y.size(); ++i) {
        if (std::isfinite(y[i]) && std::fabs(y[i]) <= kMLPMaxAbsPrediction)
          continue;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", double(y[i]));
        message = (mi < folded_.size() ? "member " + std::to_string(mi)
                                       : std::string("the screen")) +
                  " predicts " + buf + " (log2 TFLOPS) on the probe " +
                  std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                  std::to_string(s.k) + " " + s.layout.str() + " batch " +
                  std::to_string(s.batch) + " #isaac.gemm<" + configs[i].str() +
                  ">; a usable model predicts finite values within [-" +
                  boundStr(kMLPMaxAbsPrediction) + ", " +
                  boundStr(kMLPMaxAbsPrediction) + "]";
        return int(mi);
      }
      b = e;
    }
  return -1;
}

//===----------------------------------------------------------------------===//
// Support
//===----------------------------------------------------------------------===//

bool MLPModel::inSupport(const GemmConfig &c) const {
  if (c.family != family_)
    return false;
  // stages, where the family reads it as an extra feature: the default
  // alone unless the file says more (even a version-1 file's).
  if (gemmParamExtraFeature(family_, GemmParam::stages) &&
      !std::binary_search(stagesSupport_.begin(), stagesSupport_.end(),
                          c.stages))
    return false;
  if (support_.empty())
    return true;
  const std::array<int, 9> params = featureValues(c);
  if (supportHas_.empty()) { // values too large for tables
    for (int i = 0; i < 9; ++i)
      if (!std::binary_search(support_[i].begin(), support_[i].end(),
                              params[i]))
        return false;
    return true;
  }
  for (int i = 0; i < 9; ++i) {
    const std::vector<uint8_t> &has = supportHas_[size_t(i)];
    if (params[i] < 0 || size_t(params[i]) >= has.size() ||
        !has[size_t(params[i])])
      return false;
  }
  return true;
}

std::string MLPModel::supportString() const {
  if (support_.empty())
    return "all";
  const std::array<GemmParam, 9> &params = featureParams(family_);
  std::string s;
  for (size_t i = 0; i < params.size(); ++i) {
    s += (i ? "; " : "") + std::string(gemmParamInfo(params[i]).name);
    for (int v : support_[i])
      s += " " + std::to_string(v);
  }
  // stages only where the model ranks more than the default.
  if (gemmParamExtraFeature(family_, GemmParam::stages) &&
      stagesSupport_.size() > 1) {
    s += "; stages";
    for (int v : stagesSupport_)
      s += " " + std::to_string(v);
  }
  return s;
}
