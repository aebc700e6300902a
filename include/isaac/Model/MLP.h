//===- MLP.h - Learned performance model (ISAAC §5) ------------*- C++ -*-===//
//
// A multi-layer perceptron that predicts log2(TFLOPS) of a configuration on
// an input (a GEMM, or a convolution for a conv model) from the features of
// Features.h: ReLU hidden layers, a linear
// output, inputs standardized and the output de-standardized with the
// mean/std stored in the model. Models are trained by
// tools/isaac-tune/train.py and stored in the text format of
// docs/model-format.md (`isaac-mlp 1` and `2`); loading never aborts, it
// returns an error string, and refuses parameters outside the bounds below
// and models whose predictions on a fixed probe set are not finite.
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

#include "isaac/Model/ConvShape.h"
#include "isaac/Model/Features.h"
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

/// Bounds a loadable model's numbers must meet (docs/model-format.md). The
/// features are log2 of 64-bit sizes (or 0/1), the target log2 TFLOPS;
/// anything beyond these is a damaged or mis-trained file, not a model.
/// The shipped models are 300x inside the weight bound.
constexpr double kMLPMaxAbsWeight = 1000;     ///< every weight and bias
constexpr double kMLPMaxAbsMean = 64;         ///< input-mean, output-mean
constexpr double kMLPMinStd = 1.0 / 1024;     ///< input-std, output-std
constexpr double kMLPMaxStd = 64;             ///< input-std, output-std
constexpr double kMLPMaxAbsPrediction = 1000; ///< on the probe set

/// What a model ranks: GEMMs (gemm-<dtype>.mlp, the features of
/// featureNames()) or convolutions (conv-<dtype>.mlp, the features of
/// convFeatureNames(family)). The `features` record of the file says which.
enum class ModelOp { Gemm, Conv };

/// "gemm" or "conv": the op's word in model file names and messages.
inline const char *modelOpName(ModelOp op) {
  return op == ModelOp::Conv ? "conv" : "gemm";
}

/// The file name, under <model-dir>/<chip>/, of the model ranking `op`s
/// of `dtype` in `family`'s space (the family searchFamily() searches):
/// <op>-<dtype>.mlp, except that f32 and f64, which have kernels of the
/// simt family and of a tensor-core family, name the tensor-core one:
/// gemm-f64-mma.mlp ranks f64 on DMMA, gemm-f32-mma.mlp TF32 (exact f32
/// never runs on tensor cores). tools/isaac-tune/train.py writes the same
/// names (default_model_name).
std::string modelFileName(ModelOp op, DType dtype, GemmFamily family);

class MLPRanker;

class MLPModel {
public:
  /// Reads a model file. On failure returns null and sets `error` (one line,
  /// naming the file and, where it applies, the line).
  static std::unique_ptr<MLPModel> load(const std::string &path,
                                        std::string &error);
  /// Parses the text of a model file; `name` is used in error messages.
  static std::unique_ptr<MLPModel>
  parse(const std::string &text, const std::string &name, std::string &error);
  /// load(), once per process and file content: a later call for the same
  /// path whose bytes are unchanged returns the same model (with the search
  /// tables built for it) without parsing again.
  static std::shared_ptr<const MLPModel> loadShared(const std::string &path,
                                                    std::string &error);

  DType dtype() const { return dtype_; }
  /// GEMMs or convolutions.
  ModelOp op() const { return op_; }
  /// The family of the configurations the features describe (GEMM models:
  /// simt).
  GemmFamily family() const { return family_; }
  /// Width of the input: kNumFeatures (GEMM) or kNumConvFeatures (conv).
  int numFeatures() const { return sizes_.front(); }
  /// Features that depend on the input only (the first ones).
  int numShapeFeatures() const {
    return op_ == ModelOp::Conv ? kNumConvShapeFeatures : kNumShapeFeatures;
  }
  /// "gemm" or "conv".
  const char *opName() const { return modelOpName(op_); }
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
  /// Weights and biases of all members (the screen's not included).
  size_t numParams() const;

  /// The screen (the optional `screen` record, docs/model-format.md): a
  /// small network distilled from the first member. The search scores every
  /// configuration with it and has the first member score only the
  /// screenKeep() it predicts fastest (makeMLPCost). 0 without a screen.
  size_t screenKeep() const { return screenKeep_; }
  /// The screen's layer widths, input and output included; empty without.
  const std::vector<int> &screenSizes() const { return screenSizes_; }
  /// The screen's prediction (log2 TFLOPS) of configs[0..n) on `shape`, as
  /// predict() computes a member's (a GEMM model with a screen; NaN else).
  void predictScreen(const GemmShape &shape, const GemmConfig *configs,
                     size_t n, float *y) const;

  /// The configuration parameter values the model was trained on enough to
  /// rank (the `support` records, docs/model-format.md): per parameter of
  /// featureParams(family()) (simt: ml nl ms ns u ks kl kg vec), the sorted
  /// values. Empty for a version-1 file: every value is in the support.
  const std::vector<std::vector<int>> &support() const { return support_; }
  /// The values of stages the model ranks where its family reads stages as
  /// an extra feature (simt; GEMM_EXTRA_FEATURE): its `support stages ...`
  /// record, or the default (2) alone in a file without one (a model
  /// trained on two-stage kernels).
  const std::vector<int> &stagesSupport() const { return stagesSupport_; }
  /// Whether `c` is of the model's family and every parameter of it takes
  /// a value of the support. Outside it a prediction is an extrapolation,
  /// and the search does not rank it.
  bool inSupport(const GemmConfig &c) const;
  /// "ml 2 4 ...; nl ..." for messages; "all" without a restriction.
  std::string supportString() const;

  /// Predicted log2(TFLOPS) of `n` raw feature rows (row-major, n x
  /// numFeatures()) into y[0..n).
  void predictFeatures(const float *x, size_t n, float *y) const;
  /// Predicted log2(TFLOPS) of configs[0..n) on `shape` into y[0..n): the
  /// mean over members [firstMember, firstMember + numMembers) (default
  /// all of them, the model's prediction). A GEMM model's (a conv model
  /// predicts NaN).
  void predict(const GemmShape &shape, const GemmConfig *configs, size_t n,
               float *y, size_t firstMember = 0,
               size_t numMembers = SIZE_MAX) const;
  /// predict() of a conv model on the convolution `shape` (TFLOPS of its
  /// 2*N*P*Q*K*C*R*S operations, seconds() of its gemmShape(); a GEMM
  /// model predicts NaN).
  void predictConv(const ConvShape &shape, const GemmConfig *configs, size_t n,
                   float *y, size_t firstMember = 0,
                   size_t numMembers = SIZE_MAX) const;
  /// Predicted run time in seconds for a predicted log2(TFLOPS).
  static double seconds(const GemmShape &shape, float log2Tflops);

  /// The fixed inputs load() checks every member's prediction on: every
  /// one must be finite and within kMLPMaxAbsPrediction.
  static const std::vector<std::pair<GemmShape, GemmConfig>> &
  probeSet(GemmFamily family = GemmFamily::Simt);
  /// The same for conv models of `family`.
  static const std::vector<std::pair<ConvShape, GemmConfig>> &
  convProbeSet(GemmFamily family);

private:
  friend class MLPRanker;
  MLPModel() = default;
  /// The first member whose prediction on a probe is not finite or out of
  /// bounds, with a message; -1 if none.
  int checkProbes(std::string &message) const;
  struct Layer {
    int in = 0, out = 0;
    std::vector<float> w; ///< out x in, row-major
    std::vector<float> b; ///< out
  };
  using Net = std::vector<Layer>;
  void forward(const Net &net, const Layer &first, const float *x, float *y,
               float *work) const;
  /// The mean of forward() over nets[0..count) on one block of kB inputs,
  /// net i's first layer taken from firsts[i] (null: its own); writes the
  /// first `cnt` outputs to y.
  void forwardMean(const Net *const *nets, const Layer *firsts, size_t count,
                   const float *x, size_t cnt, float *y, float *work) const;
  /// predict(), predictConv() and predictScreen(): the mean of `nets`, the
  /// shape features `shapeF` folded into their first layers, the
  /// configuration's from `fb` (on the implicit GEMM for a convolution).
  void predictWith(const float *shapeF, const FeatureBuilder &fb,
                   const GemmConfig *configs, size_t n, float *y,
                   const std::vector<const Net *> &nets) const;
  /// Members [firstMember, firstMember + numMembers), clamped.
  std::vector<const Net *> memberNets(size_t firstMember,
                                      size_t numMembers) const;

  DType dtype_ = DType::F32;
  ModelOp op_ = ModelOp::Gemm;
  GemmFamily family_ = GemmFamily::Simt;
  std::string chip_, data_;
  bool synthetic_ = false;
  int numSMs_ = 0;
  std::vector<int> sizes_;
  std::vector<std::vector<int>> support_;
  /// supportHas_[i][v]: v is in support_[i] (inSupport's test, once per
  /// configuration of a search's space).
  std::vector<std::vector<uint8_t>> supportHas_;
  std::vector<int> stagesSupport_{
      gemmParamInfo(GemmParam::stages).defaultValue};
  std::vector<float> inMean_, inStd_;
  float outMean_ = 0, outStd_ = 1;
  std::vector<Net> raw_;        ///< per member, as stored in the file
  std::vector<Net> folded_;     ///< per member, standardization folded in
  std::vector<int> memberLine_; ///< line of each `member i` (or `layer 0`)
  size_t screenKeep_ = 0;
  std::vector<int> screenSizes_;
  Net screenFolded_; ///< the screen, standardization folded in
  int screenLine_ = 0;
  int maxWidth_ = 0;
  /// Search tables of makeMLPCost, built on first use per (dtype, chip) and
  /// kept with the model (MLPSearch.cpp).
  struct SearchCache;
  static std::shared_ptr<SearchCache> newSearchCache();
  std::shared_ptr<SearchCache> searchCache_ = newSearchCache();
};

/// Configurations the first member pre-screens for the whole ensemble (see
/// makeMLPCost).
constexpr size_t kEnsemblePrescreen = 4096;

/// A CostFn for searchBest that ranks with `model`: the predicted run time
/// in seconds of the ensemble mean, and +infinity for a configuration it
/// does not rank (searchBest skips those): one outside the model's support,
/// and, for an ensemble, one outside the `prescreen` configurations of the
/// support its first member predicts fastest (0: no pre-screen). The
/// ensemble's mean then ranks those, so a search costs about one member's
/// time, not N members'; `isaac-model-test mlp-prescreen` measures how
/// often that changes the top 10.
///
/// searchBest hands the whole search to it (a RankerCost): the first member
/// scores every legal configuration of the support, on `threads` threads
/// (0: one per core), with a kernel that skips the inputs a block of
/// configurations has at zero (exact: the same floating-point operations on
/// each configuration as MLPModel::predict, bit for bit). Called directly
/// on one configuration, it returns the ensemble's prediction (the
/// pre-screen is the search's). Thread-safe.
CostFn makeMLPCost(std::shared_ptr<const MLPModel> model,
                   const ChipLimits &chip,
                   size_t prescreen = kEnsemblePrescreen, unsigned threads = 0);

/// searchBestConv (ConvLegality.h) ranked by a conv model: the legal
/// configurations of the convolution (its family's GEMM rules and the conv
/// rules) inside the model's support, scored like makeMLPCost's search
/// (the same pre-screen, the same exactness: `isaac-model-test
/// conv-mlp-topk-diff` compares it with the straightforward algorithm),
/// each configuration's cost the predicted run time in seconds. Built once
/// per model; thread-safe. The space of a (dtype, chip, admitted vec
/// widths) is enumerated once and kept with the model.
class ConvMLPSearch {
public:
  explicit ConvMLPSearch(std::shared_ptr<const MLPModel> model,
                         size_t prescreen = kEnsemblePrescreen,
                         unsigned threads = 0);
  /// The `k` best, best first; empty when the model ranks no legal
  /// configuration (none in its support). `evaluated`: how many were
  /// ranked.
  std::vector<Ranked> search(const ConvShape &shape, const ChipLimits &chip,
                             unsigned k, size_t *evaluated = nullptr) const;
  const MLPModel &model() const;

private:
  std::shared_ptr<MLPRanker> ranker;
};

/// The scores of the search's first stage: member `member`'s (the screen's
/// for `member` = numMembers() where the model has one) predicted
/// log2(TFLOPS) of every legal configuration of (shape.dtype, chip) inside
/// the model's support, in the order of legalConfigs(), computed as
/// makeMLPCost's search does (MLPModel::predict's values, bit for bit;
/// `isaac-model-test mlp-kernel-check` compares them).
std::vector<float> scoreLegalSpace(std::shared_ptr<const MLPModel> model,
                                   const GemmShape &shape,
                                   const ChipLimits &chip, size_t member,
                                   unsigned threads = 0);

} // namespace isaac

#endif // ISAAC_MODEL_MLP_H
