//===- KernelInfo.cpp - Parse kernel names and isaac.kernel lines ---------===//
//
// The runtime cannot see the compiler's attributes, so everything it needs to
// launch a kernel (dtype, layout, tile sizes, block size) comes from the entry
// name and from the `// isaac.kernel` comment line of the PTX file. Both are
// parsed strictly: a kernel launched with a wrong block size or grid would
// silently compute garbage.
//
//===----------------------------------------------------------------------===//

#include "KernelInfo.h"
#include "Error.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace isaac::runtime {

/// Tile parameters above this are certainly not a real kernel; bounding them
/// keeps the arithmetic on them free of overflow.
constexpr int64_t kMaxParameter = 1 << 20;
/// The ABI allows at most 48 KiB of static shared memory.
constexpr int64_t kMaxStaticSmem = 48 * 1024;
constexpr int64_t kMaxThreadsPerBlock = 1024;

const char *dtypeName(int32_t dtype) {
  return dtype == ISAAC_F32 ? "f32" : dtype == ISAAC_F64 ? "f64" : "?";
}

size_t dtypeSize(int32_t dtype) {
  return dtype == ISAAC_F32 ? 4 : dtype == ISAAC_F64 ? 8 : 0;
}

const char *layoutName(const isaacKernelInfo &info) {
  static const char *const names[2][2] = {{"nn", "nt"}, {"tn", "tt"}};
  return names[info.transA != 0][info.transB != 0];
}

isaacStatus checkKernelInfo(const isaacKernelInfo &info, isaacStatus status) {
  const char *name = info.name[0] ? info.name : "<unnamed kernel>";
  if (info.dtype != ISAAC_F32 && info.dtype != ISAAC_F64)
    return setError(status,
                    "kernel %s: dtype %d is neither 0 (f32) nor 1 "
                    "(f64)",
                    name, info.dtype);
  const struct {
    const char *key;
    int32_t value;
  } params[] = {{"ml", info.ml}, {"nl", info.nl}, {"ms", info.ms},
                {"ns", info.ns}, {"u", info.u},   {"ks", info.ks},
                {"kl", info.kl}, {"kg", info.kg}, {"vec", info.vec}};
  for (const auto &param : params)
    if (param.value < 1 || param.value > kMaxParameter)
      return setError(status, "kernel %s: %s=%d is out of range [1, %lld]",
                      name, param.key, param.value,
                      static_cast<long long>(kMaxParameter));
  if (info.ml % info.ms || info.nl % info.ns)
    return setError(status,
                    "kernel %s: ms=%d must divide ml=%d and ns=%d must "
                    "divide nl=%d",
                    name, info.ms, info.ml, info.ns, info.nl);
  int64_t threads =
      static_cast<int64_t>(info.ml / info.ms) * (info.nl / info.ns) * info.kl;
  if (threads > kMaxThreadsPerBlock)
    return setError(status,
                    "kernel %s: (ml/ms)*(nl/ns)*kl = %lld threads exceed "
                    "the %lld threads of a block",
                    name, static_cast<long long>(threads),
                    static_cast<long long>(kMaxThreadsPerBlock));
  if (info.threads != threads)
    return setError(status,
                    "kernel %s: threads=%d but (ml/ms)*(nl/ns)*kl = %lld", name,
                    info.threads, static_cast<long long>(threads));
  if (info.smem < 0 || info.smem > kMaxStaticSmem)
    return setError(status, "kernel %s: smem=%d is out of range [0, %lld]",
                    name, info.smem, static_cast<long long>(kMaxStaticSmem));
  return ISAAC_SUCCESS;
}

namespace {

/// Parses a decimal in [0, kMaxParameter] without sign or spaces at `text`,
/// advancing it past the digits.
bool parseNumber(const char *&text, int32_t &value) {
  int64_t result = 0;
  const char *start = text;
  while (*text >= '0' && *text <= '9') {
    result = result * 10 + (*text - '0');
    if (result > kMaxParameter)
      return false;
    ++text;
  }
  if (text == start)
    return false;
  value = static_cast<int32_t>(result);
  return true;
}

bool consume(const char *&text, const char *prefix) {
  size_t length = std::strlen(prefix);
  if (std::strncmp(text, prefix, length) != 0)
    return false;
  text += length;
  return true;
}

bool parseDtype(const char *&text, int32_t &dtype) {
  if (consume(text, "f32"))
    dtype = ISAAC_F32;
  else if (consume(text, "f64"))
    dtype = ISAAC_F64;
  else
    return false;
  return true;
}

bool parseLayout(const char *&text, int32_t &transA, int32_t &transB) {
  auto isLayoutChar = [](char c) { return c == 'n' || c == 't'; };
  if (!isLayoutChar(text[0]) || !isLayoutChar(text[1]))
    return false;
  transA = text[0] == 't';
  transB = text[1] == 't';
  text += 2;
  return true;
}

/// Parses
/// `isaac_gemm_<dtype>_<layout>_ml.._nl.._ms.._ns.._u.._ks.._kl.._kg.._v..`
/// into `out`; on failure, `why` says what was expected.
bool parseName(const char *name, isaacKernelInfo &out, const char *&why) {
  const char *text = name;
  why = "the prefix isaac_gemm_";
  if (!consume(text, "isaac_gemm_"))
    return false;
  why = "dtype f32 or f64 after isaac_gemm_";
  if (!parseDtype(text, out.dtype))
    return false;
  why = "_<layout> (nn, nt, tn or tt) after the dtype";
  if (!consume(text, "_") || !parseLayout(text, out.transA, out.transB))
    return false;
  const struct {
    const char *prefix;
    int32_t *field;
    const char *what;
  } fields[] = {
      {"_ml", &out.ml, "_ml<N> after the layout"},
      {"_nl", &out.nl, "_nl<N> after ml"},
      {"_ms", &out.ms, "_ms<N> after nl"},
      {"_ns", &out.ns, "_ns<N> after ms"},
      {"_u", &out.u, "_u<N> after ns"},
      {"_ks", &out.ks, "_ks<N> after u"},
      {"_kl", &out.kl, "_kl<N> after ks"},
      {"_kg", &out.kg, "_kg<N> after kl"},
      {"_v", &out.vec, "_v<N> after kg"},
  };
  for (const auto &field : fields) {
    why = field.what;
    if (!consume(text, field.prefix) || !parseNumber(text, *field.field))
      return false;
  }
  why = "the end of the name after _v<N>";
  return *text == '\0';
}

/// Computes the block size the ABI derives from the tile parameters, or 0
/// when they are inconsistent (checkKernelInfo reports that).
int32_t blockSize(const isaacKernelInfo &info) {
  if (info.ms < 1 || info.ns < 1)
    return 0;
  int64_t threads =
      static_cast<int64_t>(info.ml / info.ms) * (info.nl / info.ns) * info.kl;
  return threads <= kMaxThreadsPerBlock ? static_cast<int32_t>(threads) : 0;
}

isaacStatus parseKernelName(const char *name, isaacKernelInfo &out) {
  if (!name)
    return setError(ISAAC_ERROR_INVALID_VALUE, "kernel name is NULL");
  size_t length = std::strlen(name);
  if (length >= ISAAC_KERNEL_NAME_MAX)
    return setError(ISAAC_ERROR_PARSE,
                    "kernel name '%.40s...' is %zu characters long; the "
                    "limit is %d",
                    name, length, ISAAC_KERNEL_NAME_MAX - 1);
  isaacKernelInfo info = {};
  const char *why = nullptr;
  if (!parseName(name, info, why))
    return setError(ISAAC_ERROR_PARSE,
                    "kernel name '%s' does not follow isaac_gemm_<f32|f64>_"
                    "<nn|nt|tn|tt>_ml<N>_nl<N>_ms<N>_ns<N>_u<N>_ks<N>_kl<N>_"
                    "kg<N>_v<N>: expected %s",
                    name, why);
  std::memcpy(info.name, name, length + 1);
  info.threads = blockSize(info);
  if (isaacStatus status = checkKernelInfo(info, ISAAC_ERROR_PARSE))
    return status;
  out = info;
  return ISAAC_SUCCESS;
}

/// Finds the text after `// isaac.kernel` on a line of its own, and its end.
bool findKernelLine(const char *text, const char *&begin, const char *&end) {
  static const char kMarker[] = "// isaac.kernel";
  const size_t markerLength = sizeof(kMarker) - 1;
  for (const char *line = text; *line;) {
    const char *lineEnd = std::strchr(line, '\n');
    if (!lineEnd)
      lineEnd = line + std::strlen(line);
    const char *p = line;
    while (p < lineEnd && (*p == ' ' || *p == '\t'))
      ++p;
    if (static_cast<size_t>(lineEnd - p) >= markerLength &&
        std::strncmp(p, kMarker, markerLength) == 0 &&
        (p + markerLength == lineEnd || p[markerLength] == ' ' ||
         p[markerLength] == '\t' || p[markerLength] == '\r')) {
      begin = p + markerLength;
      end = lineEnd;
      return true;
    }
    line = *lineEnd ? lineEnd + 1 : lineEnd;
  }
  return false;
}

isaacStatus parseKernelLine(const char *ptx, isaacKernelInfo &out) {
  if (!ptx)
    return setError(ISAAC_ERROR_INVALID_VALUE, "PTX text is NULL");
  const char *begin = nullptr;
  const char *end = nullptr;
  if (!findKernelLine(ptx, begin, end))
    return setError(ISAAC_ERROR_PARSE,
                    "no '// isaac.kernel key=value ...' line in the PTX text");

  struct Key {
    const char *name;
    std::string value;
    bool seen;
  } keys[] = {
      {"name", {}, false},    {"dtype", {}, false}, {"layout", {}, false},
      {"ml", {}, false},      {"nl", {}, false},    {"ms", {}, false},
      {"ns", {}, false},      {"u", {}, false},     {"ks", {}, false},
      {"kl", {}, false},      {"kg", {}, false},    {"vec", {}, false},
      {"threads", {}, false}, {"smem", {}, false},  {"chip", {}, false}};
  const std::string line(begin, end);
  size_t pos = 0;
  while (true) {
    pos = line.find_first_not_of(" \t\r", pos);
    if (pos == std::string::npos)
      break;
    size_t tokenEnd = line.find_first_of(" \t\r", pos);
    if (tokenEnd == std::string::npos)
      tokenEnd = line.size();
    std::string token = line.substr(pos, tokenEnd - pos);
    pos = tokenEnd;
    size_t eq = token.find('=');
    if (eq == std::string::npos || eq == 0)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: '%s' is not a key=value pair",
                      token.c_str());
    std::string key = token.substr(0, eq);
    for (Key &k : keys) {
      if (key != k.name)
        continue;
      if (k.seen)
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.kernel line: key '%s' appears twice",
                        key.c_str());
      k.seen = true;
      k.value = token.substr(eq + 1);
    }
    // Unknown keys are skipped so that the compiler may add some later.
  }
  for (const Key &k : keys)
    if (!k.seen && std::strcmp(k.name, "chip") != 0)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: required key '%s' is missing",
                      k.name);

  isaacKernelInfo info = {};
  if (isaacStatus status = parseKernelName(keys[0].value.c_str(), info))
    return addErrorContext(status, "isaac.kernel line");

  // Every key must agree with the name: a disagreement means the PTX and
  // its description were produced by different compilers or edited by hand.
  int32_t dtype = -1;
  const char *text = keys[1].value.c_str();
  if (!parseDtype(text, dtype) || *text)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: dtype '%s' is neither f32 nor f64",
                    keys[1].value.c_str());
  if (dtype != info.dtype)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: dtype=%s disagrees with name %s",
                    keys[1].value.c_str(), info.name);
  int32_t transA = 0, transB = 0;
  text = keys[2].value.c_str();
  if (!parseLayout(text, transA, transB) || *text)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: layout '%s' is not nn, nt, tn or tt",
                    keys[2].value.c_str());
  if (transA != info.transA || transB != info.transB)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: layout=%s disagrees with name %s",
                    keys[2].value.c_str(), info.name);
  const int32_t fromName[] = {info.ml,  info.nl,     info.ms, info.ns,
                              info.u,   info.ks,     info.kl, info.kg,
                              info.vec, info.threads};
  for (size_t i = 3; i <= 13; ++i) {
    int32_t value = 0;
    text = keys[i].value.c_str();
    if (!parseNumber(text, value) || *text)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: %s='%s' is not a number in [0, "
                      "%lld]",
                      keys[i].name, keys[i].value.c_str(),
                      static_cast<long long>(kMaxParameter));
    if (i == 13) {
      info.smem = value;
    } else if (value != fromName[i - 3]) {
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: %s=%d disagrees with name %s "
                      "(which implies %d)",
                      keys[i].name, value, info.name, fromName[i - 3]);
    }
  }
  const std::string &chip = keys[14].value;
  if (chip.size() >= ISAAC_CHIP_NAME_MAX)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: chip '%s' is longer than %d "
                    "characters",
                    chip.c_str(), ISAAC_CHIP_NAME_MAX - 1);
  std::memcpy(info.chip, chip.c_str(), chip.size() + 1);
  if (isaacStatus status = checkKernelInfo(info, ISAAC_ERROR_PARSE))
    return addErrorContext(status, "isaac.kernel line");
  out = info;
  return ISAAC_SUCCESS;
}

} // namespace
} // namespace isaac::runtime

using namespace isaac::runtime;

extern "C" isaacStatus isaacParseKernelName(const char *name,
                                            isaacKernelInfo *out) {
  if (!out)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "isaacParseKernelName: output pointer is NULL");
  return parseKernelName(name, *out);
}

extern "C" isaacStatus isaacParseKernelInfo(const char *ptxText,
                                            isaacKernelInfo *out) {
  if (!out)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "isaacParseKernelInfo: output pointer is NULL");
  return parseKernelLine(ptxText, *out);
}
