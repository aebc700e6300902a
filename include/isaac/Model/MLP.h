//===- MLP.h - Learned performance model (ISAAC §5) ------------*- C++ -*-===//
//
// A multi-layer perceptron that predicts log2(TFLOPS) of a configuration on
// an input from the features of Features.h: ReLU hidden layers, a linear
// output, inputs standardized and the output de-standardized with the
// mean/std stored in the model. Models are trained by
// tools/isaac-tune/train.py and stored in the text format of
// docs/model-format.md (`isaac-mlp 1`); loading never aborts, it returns an
// error string.
//
// Inference is batched: configurations are scored 32 at a time as
// matrix-matrix products over contiguous float arrays, the standardization
// is folded into the first and last layers, and the part of the first layer
// that depends only on the input shape is folded into its bias once per
// shape. The hot loop is compiled for AVX-512, AVX2+FMA and baseline x86-64
// and picked at run time.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_MLP_H
#define ISAAC_MODEL_MLP_H

#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"
#include "isaac/Model/Search.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace isaac {

/// Version of the model file format this build reads and writes.
/// The format this build writes and reads; version 1 (no `support`
/// records) is still read, as a model without a support restriction.
constexpr int kMLPFormatVersion = 2;
constexpr int kMLPOldestFormatVersion = 1;

/// The checksum of the `end` line: CRC-32 (zlib's) of the bytes before it.
uint32_t mlpChecksum(const char *data, size_t n);

class MLPModel {
public:
  /// Reads a model file. On failure returns null and sets `error` (one line,
  /// naming the file and, where it applies, the line).
  static std::unique_ptr<MLPModel> load(const std::string &path,
                                        std::string &error);
  /// Parses the text of a model file; `name` is used in error messages.
  static std::unique_ptr<MLPModel>
  parse(const std::string &text, const std::string &name, std::string &error);

  DType dtype() const { return dtype_; }
  const std::string &chip() const { return chip_; }
  /// Multiprocessor count the features were computed with.
  int numSMs() const { return numSMs_; }
  /// The `data` line: "synthetic ..." or "measured ...".
  const std::string &data() const { return data_; }
  bool synthetic() const { return synthetic_; }
  /// Layer widths, input and output included: {19, 64, 128, 64, 1}.
  const std::vector<int> &layerSizes() const { return sizes_; }
  /// Networks of the ensemble (the `members` record; 1 in a version-1
  /// file). The prediction is their mean.
  size_t numMembers() const { return raw_.size(); }
  /// Weights and biases of all members.
  size_t numParams() const;

  /// The configuration parameter values the model was trained on enough to
  /// rank (the `support` records, docs/model-format.md): per parameter of
  /// GemmConfig, in the order ml nl ms ns u ks kl kg vec, the sorted values.
  /// Empty for a version-1 file: every value is in the support.
  const std::vector<std::vector<int>> &support() const { return support_; }
  /// Whether every parameter of `c` takes a value of the support. Outside
  /// it a prediction is an extrapolation, and the search does not rank it.
  bool inSupport(const GemmConfig &c) const;
  /// "ml 2 4 ...; nl ..." for messages; "all" without a restriction.
  std::string supportString() const;

  /// Predicted log2(TFLOPS) of `n` raw feature rows (row-major, n x
  /// kNumFeatures) into y[0..n).
  void predictFeatures(const float *x, size_t n, float *y) const;
  /// Predicted log2(TFLOPS) of configs[0..n) on `shape` into y[0..n): the
  /// mean over members [firstMember, firstMember + numMembers) (default
  /// all of them, the model's prediction).
  void predict(const GemmShape &shape, const GemmConfig *configs, size_t n,
               float *y, size_t firstMember = 0,
               size_t numMembers = SIZE_MAX) const;
  /// Predicted run time in seconds for a predicted log2(TFLOPS).
  static double seconds(const GemmShape &shape, float log2Tflops);

private:
  MLPModel() = default;
  struct Layer {
    int in = 0, out = 0;
    std::vector<float> w; ///< out x in, row-major
    std::vector<float> b; ///< out
  };
  using Net = std::vector<Layer>;
  void forward(const Net &net, const Layer &first, const float *x, float *y,
               float *work) const;
  /// The mean over members [mBegin, mEnd) of forward() on one block of kB
  /// inputs, each member's first layer taken from firsts[member] (null:
  /// its own); writes the first `cnt` outputs to y.
  void forwardMean(const Layer *firsts, size_t mBegin, size_t mEnd,
                   const float *x, size_t cnt, float *y, float *work) const;

  DType dtype_ = DType::F32;
  std::string chip_, data_;
  bool synthetic_ = false;
  int numSMs_ = 0;
  std::vector<int> sizes_;
  std::vector<std::vector<int>> support_;
  std::vector<float> inMean_, inStd_;
  float outMean_ = 0, outStd_ = 1;
  std::vector<Net> raw_;    ///< per member, as stored in the file
  std::vector<Net> folded_; ///< per member, standardization folded in
  int maxWidth_ = 0;
};

/// Configurations the first member pre-screens for the whole ensemble (see
/// makeMLPCost).
constexpr size_t kEnsemblePrescreen = 4096;

/// A CostFn for searchBest that ranks with `model`: the predicted run time
/// in seconds, +infinity for a configuration it does not rank (searchBest
/// skips those): one outside the model's support, and, for an ensemble,
/// one outside the `prescreen` configurations its first member predicts
/// fastest (0: no pre-screen). The ensemble's mean then ranks those, so a
/// search costs about one member's time, not N members'; `isaac-model-test
/// mlp-prescreen` measures how often that changes the top 10.
///
/// The first call for a shape scores the legal space of (dtype, chip) in
/// one batched pass; the calls searchBest makes then read that table (they
/// are recognized by the address of the configuration inside
/// legalConfigs()). Other configurations are scored one by one (with the
/// whole ensemble). Not thread-safe: one CostFn per thread.
CostFn makeMLPCost(std::shared_ptr<const MLPModel> model,
                   const ChipLimits &chip,
                   size_t prescreen = kEnsemblePrescreen);

} // namespace isaac

#endif // ISAAC_MODEL_MLP_H
