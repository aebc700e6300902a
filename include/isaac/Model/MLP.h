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
constexpr int kMLPFormatVersion = 1;

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
  /// Weights and biases.
  size_t numParams() const;

  /// Predicted log2(TFLOPS) of `n` raw feature rows (row-major, n x
  /// kNumFeatures) into y[0..n).
  void predictFeatures(const float *x, size_t n, float *y) const;
  /// Predicted log2(TFLOPS) of configs[0..n) on `shape` into y[0..n).
  void predict(const GemmShape &shape, const GemmConfig *configs, size_t n,
               float *y) const;
  /// Predicted run time in seconds for a predicted log2(TFLOPS).
  static double seconds(const GemmShape &shape, float log2Tflops);

private:
  MLPModel() = default;
  struct Layer {
    int in = 0, out = 0;
    std::vector<float> w; ///< out x in, row-major
    std::vector<float> b; ///< out
  };
  void forward(const Layer &first, const float *x, size_t n, float *y,
               float *work) const;

  DType dtype_ = DType::F32;
  std::string chip_, data_;
  bool synthetic_ = false;
  int numSMs_ = 0;
  std::vector<int> sizes_;
  std::vector<float> inMean_, inStd_;
  float outMean_ = 0, outStd_ = 1;
  std::vector<Layer> raw_;    ///< as stored in the file
  std::vector<Layer> folded_; ///< standardization folded in
  int maxWidth_ = 0;
};

/// A CostFn for searchBest that ranks with `model` (predicted seconds). The
/// first call for a shape scores the whole legal space of (dtype, chip) in
/// one batched pass; the calls searchBest makes then read that table (they
/// are recognized by the address of the configuration inside
/// legalConfigs()). Other configurations are scored one by one. Not
/// thread-safe: one CostFn per thread.
CostFn makeMLPCost(std::shared_ptr<const MLPModel> model,
                   const ChipLimits &chip);

} // namespace isaac

#endif // ISAAC_MODEL_MLP_H
