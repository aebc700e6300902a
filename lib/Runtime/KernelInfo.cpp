//===- KernelInfo.cpp - Parse kernel names and isaac.kernel lines ---------===//
//
// The runtime cannot see the compiler's attributes, so everything it needs to
// launch a kernel (dtype, layout, tile sizes, block size) comes from the entry
// name and from the `// isaac.kernel` comment line of the PTX file (plus, for
// a fused epilogue, the `// isaac.epilogue` line that gives the types of its
// output and inputs). All are parsed strictly: a kernel launched with a wrong
// block size, grid or parameter list would silently compute garbage.
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
  switch (dtype) {
  case ISAAC_F32:
    return "f32";
  case ISAAC_F64:
    return "f64";
  case ISAAC_F16:
    return "f16";
  case ISAAC_BF16:
    return "bf16";
  }
  return "?";
}

size_t dtypeSize(int32_t dtype) {
  switch (dtype) {
  case ISAAC_F32:
    return 4;
  case ISAAC_F64:
    return 8;
  case ISAAC_F16:
  case ISAAC_BF16:
    return 2;
  }
  return 0;
}

const char *layoutName(const isaacKernelInfo &info) {
  static const char *const names[2][2] = {{"nn", "nt"}, {"tn", "tt"}};
  return names[info.transA != 0][info.transB != 0];
}

namespace {

bool isDtype(int32_t dtype) { return dtypeSize(dtype) != 0; }

/// Whether `text` starts with an epilogue ID: exactly 16 lower-case hex
/// digits (upper case would make two spellings of one kernel name).
bool isEpilogueId(const char *text) {
  for (int i = 0; i < ISAAC_EPILOGUE_ID_LENGTH; ++i)
    if (!((text[i] >= '0' && text[i] <= '9') ||
          (text[i] >= 'a' && text[i] <= 'f')))
      return false;
  return true;
}

/// The epilogue ID that ends `name` (`..._ep<ID>`), or null.
const char *nameEpilogue(const char *name) {
  size_t length = std::strlen(name);
  constexpr size_t kSuffix = 3 + ISAAC_EPILOGUE_ID_LENGTH;
  if (length < kSuffix)
    return nullptr;
  const char *suffix = name + length - kSuffix;
  if (std::strncmp(suffix, "_ep", 3) != 0 || !isEpilogueId(suffix + 3))
    return nullptr;
  return suffix + 3;
}

/// The epilogue fields of isaacKernelInfo: an ID that matches the name's
/// suffix, and valid types (the runtime sizes pointers by them).
isaacStatus checkEpilogue(const isaacKernelInfo &info, const char *name,
                          isaacStatus status) {
  size_t idLength = strnlen(info.epilogue, sizeof(info.epilogue));
  if (idLength == sizeof(info.epilogue))
    return setError(status, "kernel %s: epilogue is not NUL-terminated", name);
  if (info.name[0]) {
    const char *fromName = nameEpilogue(info.name);
    if (fromName ? std::strcmp(fromName, info.epilogue) != 0 : idLength != 0)
      return setError(status,
                      "kernel %s: epilogue='%s' disagrees with the name's "
                      "_ep<ID> suffix ('%s')",
                      name, info.epilogue, fromName ? fromName : "none");
  }
  if (idLength == 0) {
    if (info.outDtype != info.cDtype || info.numInputs != 0)
      return setError(status,
                      "kernel %s has no fused epilogue, so outDtype=%d must "
                      "equal cDtype=%d and numInputs=%d must be 0",
                      name, info.outDtype, info.cDtype, info.numInputs);
    return ISAAC_SUCCESS;
  }
  if (idLength != ISAAC_EPILOGUE_ID_LENGTH || !isEpilogueId(info.epilogue))
    return setError(status,
                    "kernel %s: epilogue '%s' is not %d lower-case hex digits",
                    name, info.epilogue, ISAAC_EPILOGUE_ID_LENGTH);
  if (!isDtype(info.outDtype))
    return setError(status,
                    "kernel %s: outDtype=%d is not 0 (f32), 1 (f64), 2 (f16) "
                    "or 3 (bf16)",
                    name, info.outDtype);
  if (info.numInputs < -1 || info.numInputs > ISAAC_MAX_EPILOGUE_INPUTS)
    return setError(status, "kernel %s: numInputs=%d is out of range [-1, %d]",
                    name, info.numInputs, ISAAC_MAX_EPILOGUE_INPUTS);
  for (int32_t i = 0; i < info.numInputs; ++i)
    if (!isDtype(info.inputDtypes[i]))
      return setError(status,
                      "kernel %s: inputDtypes[%d]=%d is not 0 (f32), 1 (f64), "
                      "2 (f16) or 3 (bf16)",
                      name, i, info.inputDtypes[i]);
  for (int32_t i = 0; i < ISAAC_MAX_EPILOGUE_INPUTS; ++i)
    if (info.inputBroadcast[i] < 0 ||
        info.inputBroadcast[i] > (ISAAC_BROADCAST_ROWS | ISAAC_BROADCAST_COLS))
      return setError(status,
                      "kernel %s: inputBroadcast[%d]=%d is not a set of "
                      "ISAAC_BROADCAST_ROWS and ISAAC_BROADCAST_COLS",
                      name, i, info.inputBroadcast[i]);
  return ISAAC_SUCCESS;
}

/// The element types of the name's token (docs/abi.md): f32 and f64 (A, B,
/// C of that type), f16 and bf16 operands with C of their type or f32, f32
/// operands in TF32; the accumulation f64 for f64, else f32.
isaacStatus checkTypes(const isaacKernelInfo &info, const char *name,
                       isaacStatus status) {
  if (!isDtype(info.dtype))
    return setError(status,
                    "kernel %s: dtype=%d is not 0 (f32), 1 (f64), 2 (f16) or "
                    "3 (bf16)",
                    name, info.dtype);
  bool narrow = info.dtype == ISAAC_F16 || info.dtype == ISAAC_BF16;
  if (info.cDtype != info.dtype && !(narrow && info.cDtype == ISAAC_F32))
    return setError(status,
                    "kernel %s: cDtype=%d does not go with dtype=%d: C is of "
                    "the operands' type, or f32 for f16 and bf16 operands",
                    name, info.cDtype, info.dtype);
  if (info.tf32 != 0 && (info.tf32 != 1 || info.dtype != ISAAC_F32))
    return setError(status,
                    "kernel %s: tf32=%d: only f32 operands (dtype 0) can be "
                    "multiplied in TF32 (tf32 = 1)",
                    name, info.tf32);
  int32_t compute = info.dtype == ISAAC_F64 ? ISAAC_F64 : ISAAC_F32;
  if (info.computeDtype != compute)
    return setError(status,
                    "kernel %s: computeDtype=%d, but %s operands accumulate "
                    "in %s",
                    name, info.computeDtype, dtypeName(info.dtype),
                    dtypeName(compute));
  return ISAAC_SUCCESS;
}

} // namespace

isaacStatus checkKernelInfo(const isaacKernelInfo &info, isaacStatus status) {
  const char *name = info.name[0] ? info.name : "<unnamed kernel>";
  if (isaacStatus result = checkTypes(info, name, status))
    return result;
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
  return checkEpilogue(info, name, status);
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

/// The element types of a GEMM as kernel names spell them (docs/abi.md):
/// A and B, C, and whether f32 operands multiply in TF32.
struct Types {
  int32_t dtype = ISAAC_F32, cDtype = ISAAC_F32, tf32 = 0;
};

/// Parses a types token (f32, f64, f16, bf16, f16f32, bf16f32, tf32) at
/// `text`, advancing past it; the longer tokens first, since f16 is a
/// prefix of f16f32.
bool parseTypes(const char *&text, Types &types) {
  static const struct {
    const char *token;
    Types types;
  } tokens[] = {{"f16f32", {ISAAC_F16, ISAAC_F32, 0}},
                {"bf16f32", {ISAAC_BF16, ISAAC_F32, 0}},
                {"tf32", {ISAAC_F32, ISAAC_F32, 1}},
                {"f32", {ISAAC_F32, ISAAC_F32, 0}},
                {"f64", {ISAAC_F64, ISAAC_F64, 0}},
                {"f16", {ISAAC_F16, ISAAC_F16, 0}},
                {"bf16", {ISAAC_BF16, ISAAC_BF16, 0}}};
  for (const auto &t : tokens)
    if (consume(text, t.token)) {
      types = t.types;
      return true;
    }
  return false;
}

/// Fills the type fields of `info` from `types`: the accumulation is f64
/// for f64 operands, f32 for all others.
void setTypes(isaacKernelInfo &info, const Types &types) {
  info.dtype = types.dtype;
  info.cDtype = types.cDtype;
  info.tf32 = types.tf32;
  info.computeDtype = types.dtype == ISAAC_F64 ? ISAAC_F64 : ISAAC_F32;
}

/// Parses a whole epilogue type name: f32, f64, f16 or bf16.
bool parseStorageType(const std::string &text, int32_t &dtype) {
  for (int32_t t : {ISAAC_F32, ISAAC_F64, ISAAC_F16, ISAAC_BF16})
    if (text == dtypeName(t)) {
      dtype = t;
      return true;
    }
  return false;
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
/// `isaac_gemm_<dtype>_<layout>_ml.._nl.._ms.._ns.._u.._ks.._kl.._kg.._v..`,
/// optionally followed by `_ep<ID>`, into `out`; on failure, `why` says what
/// was expected.
bool parseName(const char *name, isaacKernelInfo &out, const char *&why) {
  const char *text = name;
  why = "the prefix isaac_gemm_";
  if (!consume(text, "isaac_gemm_"))
    return false;
  why = "the types (f32, f64, f16, bf16, f16f32, bf16f32 or tf32) after "
        "isaac_gemm_";
  Types types;
  if (!parseTypes(text, types))
    return false;
  setTypes(out, types);
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
  if (consume(text, "_ep")) {
    why = "exactly 16 lower-case hex digits (the epilogue ID) after _ep";
    if (!isEpilogueId(text))
      return false;
    std::memcpy(out.epilogue, text, ISAAC_EPILOGUE_ID_LENGTH);
    out.epilogue[ISAAC_EPILOGUE_ID_LENGTH] = '\0';
    text += ISAAC_EPILOGUE_ID_LENGTH;
    why = "the end of the name after _ep<ID>";
    return *text == '\0';
  }
  why = "the end of the name after _v<N> (or _ep<ID>)";
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
                    "kernel name '%s' does not follow isaac_gemm_<types>_"
                    "<nn|nt|tn|tt>_ml<N>_nl<N>_ms<N>_ns<N>_u<N>_ks<N>_kl<N>_"
                    "kg<N>_v<N>[_ep<ID>]: expected %s",
                    name, why);
  std::memcpy(info.name, name, length + 1);
  info.threads = blockSize(info);
  // Only the PTX header knows the epilogue's output and input types.
  info.outDtype = info.cDtype;
  info.numInputs = hasEpilogue(info) ? -1 : 0;
  if (isaacStatus status = checkKernelInfo(info, ISAAC_ERROR_PARSE))
    return status;
  out = info;
  return ISAAC_SUCCESS;
}

/// Finds the text after `marker` (e.g. `// isaac.kernel`) at the start of a
/// line, and the line's end. With `headerOnly`, the search ends at the first
/// line that is neither blank nor a `//` comment: the epilogue line belongs
/// to the comment header, and the PTX after it need not be scanned.
bool findCommentLine(const char *text, const char *marker, const char *&begin,
                     const char *&end, bool headerOnly = false) {
  const size_t markerLength = std::strlen(marker);
  for (const char *line = text; *line;) {
    const char *lineEnd = std::strchr(line, '\n');
    if (!lineEnd)
      lineEnd = line + std::strlen(line);
    const char *p = line;
    while (p < lineEnd && (*p == ' ' || *p == '\t' || *p == '\r'))
      ++p;
    if (static_cast<size_t>(lineEnd - p) >= markerLength &&
        std::strncmp(p, marker, markerLength) == 0 &&
        (p + markerLength == lineEnd || p[markerLength] == ' ' ||
         p[markerLength] == '\t' || p[markerLength] == '\r')) {
      begin = p + markerLength;
      end = lineEnd;
      return true;
    }
    if (headerOnly && p < lineEnd && std::strncmp(p, "//", 2) != 0)
      return false;
    line = *lineEnd ? lineEnd + 1 : lineEnd;
  }
  return false;
}

/// The next `key=value` token of a header line at or after `pos` (space
/// separated): false at the end of the line, or where `stopAt` begins a
/// token (`pos` then points at it). A token without `=` or with an empty
/// key is a parse error naming `lineName`.
isaacStatus nextKeyValue(const std::string &line, size_t &pos,
                         const char *lineName, const char *stopAt, bool &found,
                         std::string &key, std::string &value) {
  found = false;
  pos = line.find_first_not_of(" \t\r", pos);
  if (pos == std::string::npos ||
      (stopAt && line.compare(pos, std::strlen(stopAt), stopAt) == 0))
    return ISAAC_SUCCESS;
  size_t tokenEnd = line.find_first_of(" \t\r", pos);
  if (tokenEnd == std::string::npos)
    tokenEnd = line.size();
  std::string token = line.substr(pos, tokenEnd - pos);
  pos = tokenEnd;
  size_t eq = token.find('=');
  if (eq == std::string::npos || eq == 0)
    return setError(ISAAC_ERROR_PARSE, "%s: '%s' is not a key=value pair",
                    lineName, token.c_str());
  key = token.substr(0, eq);
  value = token.substr(eq + 1);
  found = true;
  return ISAAC_SUCCESS;
}

/// Parses the text after `// isaac.epilogue`:
/// `id=<ID> out=<type> inputs=<n> in0=<type> ... program=<text>` into the
/// epilogue fields of `info`, whose name gave the ID. Everything before
/// `program=` is strict key=value; the program's text (the compiler's form
/// of the epilogue) is not interpreted.
isaacStatus parseEpilogueLine(const std::string &line, isaacKernelInfo &info) {
  std::string id, out, inputs;
  bool seenId = false, seenOut = false, seenInputs = false, seenProgram = false;
  std::string in[ISAAC_MAX_EPILOGUE_INPUTS];
  bool seenIn[ISAAC_MAX_EPILOGUE_INPUTS] = {};
  size_t pos = 0;
  while (true) {
    bool found = false;
    std::string key, value;
    if (isaacStatus status = nextKeyValue(line, pos, "isaac.epilogue line",
                                          "program=", found, key, value))
      return status;
    if (!found) {
      seenProgram = pos != std::string::npos;
      break;
    }
    std::string *slot = nullptr;
    bool *seen = nullptr;
    if (key == "id") {
      slot = &id;
      seen = &seenId;
    } else if (key == "out") {
      slot = &out;
      seen = &seenOut;
    } else if (key == "inputs") {
      slot = &inputs;
      seen = &seenInputs;
    } else if (key.size() > 2 && key.compare(0, 2, "in") == 0 &&
               key.find_first_not_of("0123456789", 2) == std::string::npos) {
      const char *digits = key.c_str() + 2;
      int32_t index = 0;
      if (!parseNumber(digits, index) || *digits ||
          index >= ISAAC_MAX_EPILOGUE_INPUTS)
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.epilogue line: '%s' names no input in0..in%d",
                        key.c_str(), ISAAC_MAX_EPILOGUE_INPUTS - 1);
      slot = &in[index];
      seen = &seenIn[index];
    } else {
      // Skipped, as on the isaac.kernel line, so that the compiler may add
      // keys later.
      continue;
    }
    if (*seen)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: key '%s' appears twice",
                      key.c_str());
    *seen = true;
    *slot = value;
  }
  const struct {
    const char *key;
    bool seen;
  } required[] = {{"id", seenId},
                  {"out", seenOut},
                  {"inputs", seenInputs},
                  {"program", seenProgram}};
  for (const auto &r : required)
    if (!r.seen)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: required key '%s' is missing",
                      r.key);
  if (id != info.epilogue)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.epilogue line: id=%s disagrees with name %s",
                    id.c_str(), info.name);
  if (!parseStorageType(out, info.outDtype))
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.epilogue line: out=%s is not f32, f64, f16 or bf16",
                    out.c_str());
  const char *text = inputs.c_str();
  int32_t count = 0;
  if (!parseNumber(text, count) || *text || count > ISAAC_MAX_EPILOGUE_INPUTS)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.epilogue line: inputs='%s' is not a number in [0, "
                    "%d]",
                    inputs.c_str(), ISAAC_MAX_EPILOGUE_INPUTS);
  for (int32_t i = 0; i < ISAAC_MAX_EPILOGUE_INPUTS; ++i) {
    if (i >= count) {
      if (seenIn[i])
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.epilogue line: in%d given but inputs=%d", i,
                        count);
      info.inputDtypes[i] = 0;
      info.inputBroadcast[i] = 0;
      continue;
    }
    if (!seenIn[i])
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: inputs=%d but in%d is missing",
                      count, i);
    // The type, then the indices the input varies with: f32 (both),
    // f32[n], f32[m], f32[].
    std::string type = in[i];
    info.inputBroadcast[i] = 0;
    if (size_t open = type.find('['); open != std::string::npos) {
      std::string dims = type.substr(open);
      type = type.substr(0, open);
      if (dims == "[]")
        info.inputBroadcast[i] = ISAAC_BROADCAST_ROWS | ISAAC_BROADCAST_COLS;
      else if (dims == "[m]")
        info.inputBroadcast[i] = ISAAC_BROADCAST_COLS;
      else if (dims == "[n]")
        info.inputBroadcast[i] = ISAAC_BROADCAST_ROWS;
      else
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.epilogue line: in%d=%s: the dimensions %s are "
                        "not [], [m] or [n]",
                        i, in[i].c_str(), dims.c_str());
    }
    if (!parseStorageType(type, info.inputDtypes[i]))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: in%d=%s is not f32, f64, f16 or "
                      "bf16",
                      i, in[i].c_str());
  }
  info.numInputs = count;
  return ISAAC_SUCCESS;
}

isaacStatus parseKernelLine(const char *ptx, isaacKernelInfo &out) {
  if (!ptx)
    return setError(ISAAC_ERROR_INVALID_VALUE, "PTX text is NULL");
  const char *begin = nullptr;
  const char *end = nullptr;
  if (!findCommentLine(ptx, "// isaac.kernel", begin, end))
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
      {"threads", {}, false}, {"smem", {}, false},  {"chip", {}, false},
      {"epilogue", {}, false}};
  const std::string line(begin, end);
  size_t pos = 0;
  while (true) {
    bool found = false;
    std::string key, value;
    if (isaacStatus status = nextKeyValue(line, pos, "isaac.kernel line",
                                          nullptr, found, key, value))
      return status;
    if (!found)
      break;
    for (Key &k : keys) {
      if (key != k.name)
        continue;
      if (k.seen)
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.kernel line: key '%s' appears twice",
                        key.c_str());
      k.seen = true;
      k.value = value;
    }
    // Unknown keys are skipped so that the compiler may add some later.
  }
  for (const Key &k : keys)
    if (!k.seen && std::strcmp(k.name, "chip") != 0 &&
        std::strcmp(k.name, "epilogue") != 0)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: required key '%s' is missing",
                      k.name);

  isaacKernelInfo info = {};
  if (isaacStatus status = parseKernelName(keys[0].value.c_str(), info))
    return addErrorContext(status, "isaac.kernel line");

  // Every key must agree with the name: a disagreement means the PTX and
  // its description were produced by different compilers or edited by hand.
  // dtype= holds the name's types token.
  Types types;
  const char *text = keys[1].value.c_str();
  if (!parseTypes(text, types) || *text)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: dtype '%s' is not f32, f64, f16, "
                    "bf16, f16f32, bf16f32 or tf32",
                    keys[1].value.c_str());
  if (types.dtype != info.dtype || types.cDtype != info.cDtype ||
      types.tf32 != info.tf32)
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

  // The epilogue is named three times (name suffix, epilogue= key, the
  // isaac.epilogue line); all must agree, or none may be there.
  const Key &epilogueKey = keys[15];
  if (epilogueKey.seen != hasEpilogue(info))
    return epilogueKey.seen
               ? setError(ISAAC_ERROR_PARSE,
                          "isaac.kernel line: epilogue=%s but the name %s "
                          "has no _ep<ID> suffix",
                          epilogueKey.value.c_str(), info.name)
               : setError(ISAAC_ERROR_PARSE,
                          "isaac.kernel line: the name %s has an _ep<ID> "
                          "suffix but there is no epilogue= key",
                          info.name);
  const char *epilogueBegin = nullptr;
  const char *epilogueEnd = nullptr;
  bool epilogueLine =
      findCommentLine(end, "// isaac.epilogue", epilogueBegin, epilogueEnd,
                      /*headerOnly=*/true);
  if (!hasEpilogue(info)) {
    if (epilogueLine)
      return setError(ISAAC_ERROR_PARSE,
                      "an '// isaac.epilogue' line describes kernel %s, "
                      "which has no fused epilogue",
                      info.name);
  } else {
    if (epilogueKey.value != info.epilogue)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: epilogue=%s disagrees with name %s",
                      epilogueKey.value.c_str(), info.name);
    if (!epilogueLine)
      return setError(ISAAC_ERROR_PARSE,
                      "no '// isaac.epilogue id=... out=... inputs=... "
                      "program=...' line in the comment lines after the "
                      "isaac.kernel line of kernel %s, which has a fused "
                      "epilogue",
                      info.name);
    if (isaacStatus status =
            parseEpilogueLine(std::string(epilogueBegin, epilogueEnd), info))
      return status;
  }
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
