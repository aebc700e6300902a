//===- GemmConfig.h - ISAAC GEMM tuning vector and input ------*- C++ -*-===//
//
// MLIR-free description of a GEMM problem (ISAAC's input vector x_i) and of a
// kernel configuration (the tuning vector x_k, ISAAC SC17 §3.2, Fig. 3). The
// verifier, the kernel generator, the sampler and the search all read these
// structs, so they carry no MLIR types.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_GEMMCONFIG_H
#define ISAAC_MODEL_GEMMCONFIG_H

#include <array>
#include <cstdint>
#include <string>

namespace isaac {

/// Element types. GEMM operands and accumulation are F32 or F64 today; F16
/// and BF16 appear as the inputs and outputs of fused epilogues. The values
/// are the runtime's isaacDtype (docs/abi.md).
enum class DType { F32 = 0, F64 = 1, F16 = 2, BF16 = 3 };

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

/// The tuning vector. Every field is a power of two.
struct GemmConfig {
  int ml = 64; ///< rows of C per block
  int nl = 64; ///< columns of C per block
  int ms = 8;  ///< rows of C per thread
  int ns = 8;  ///< columns of C per thread
  int u = 8;   ///< K-depth of each staged shared-memory tile
  int ks = 1;  ///< reduction split inside a thread (independent accumulators)
  int kl = 1;  ///< reduction split across thread groups of a block
  int kg = 1;  ///< reduction split across the grid (global atomics)
  int vec = 4; ///< global load width in elements

  /// Threads along M and N in one KL group, and threads per block.
  int threadsM() const { return ml / ms; }
  int threadsN() const { return nl / ns; }
  int threads() const { return threadsM() * threadsN() * kl; }
  /// K-depth each thread reduces per staged tile.
  int depthPerThread() const { return u / kl; }

  /// The nine parameters in the order ml, nl, ms, ns, u, ks, kl, kg, vec
  /// (the order of gemmParamRanges(), the features and the model's
  /// support records).
  std::array<int, 9> values() const {
    return {ml, nl, ms, ns, u, ks, kl, kg, vec};
  }

  bool operator==(const GemmConfig &o) const {
    return ml == o.ml && nl == o.nl && ms == o.ms && ns == o.ns && u == o.u &&
           ks == o.ks && kl == o.kl && kg == o.kg && vec == o.vec;
  }
  /// `ml = 64, nl = 64, ...` as written inside #isaac.gemm<...>.
  std::string str() const;
  /// Short suffix used in kernel names: ml64_nl64_ms8_..._v4.
  std::string mangle() const;
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

/// ISAAC's input vector x_i.
struct GemmShape {
  int64_t m = 1, n = 1, k = 1, batch = 1;
  DType dtype = DType::F32;
  GemmLayout layout;
};

} // namespace isaac

#endif // ISAAC_MODEL_GEMMCONFIG_H
