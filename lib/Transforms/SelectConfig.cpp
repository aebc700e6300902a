//===- SelectConfig.cpp - Attach the best #isaac.gemm to each GEMM --------===//
//
// Precedence, per operation:
//   1. a user-written isaac.config (kept as is);
//   2. an entry of the tuning cache (`cache=FILE`, docs/tuning.md) for the
//      operation's input;
//   3. the exhaustive search (ISAAC §6) ranked by the trained MLP of
//      <model-dir>/<chip>/gemm-<dtype>[-<family>].mlp (modelFileName) when
//      that file exists (docs/model-format.md; an explicit model-dir must
//      exist), or, for a chip extending a base chip (sm_90a: sm_90), the
//      base chip's file;
//   4. the same search ranked by the analytic heuristic otherwise.
// Each choice is reported by a remark naming its source.
//
// Convolutions (linalg.conv_2d_nhwc_hwcf / _fhwc, ConvMatch.h) get the
// #isaac.gemm of their implicit GEMM, searched in the space of their
// types' family less the conv-only rules (lib/Model/ConvLegality.cpp) and
// ranked by the conv model <model-dir>/<chip>/conv-<dtype>[-<family>].mlp
// where that file exists (ConvMLPSearch), by the analytic heuristic otherwise;
// the tuning cache is GEMMs'.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "ConvMatch.h"
#include "GemmMatch.h"

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/Chip.h"
#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/MLP.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Search.h"
#include "isaac/Model/Wgmma.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <future>
#include <map>
#include <optional>

#ifndef ISAAC_MODELS_DIR
#define ISAAC_MODELS_DIR "models"
#endif

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACSELECTCONFIG
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

namespace {

//===----------------------------------------------------------------------===//
// Tuning cache
//===----------------------------------------------------------------------===//

/// The element types of `s` (no TF32: it is not part of a shape yet).
::isaac::GemmTypes shapeTypes(const ::isaac::GemmShape &s) {
  ::isaac::GemmTypes t;
  t.ab = s.dtype;
  t.c = s.cType;
  t.tf32 = s.tf32;
  return t;
}

/// `types layout M N K batch`: the key of a cache entry.
std::string cacheKey(const ::isaac::GemmShape &s) {
  return shapeTypes(s).token() + " " + s.layout.str() + " " +
         std::to_string(s.m) + " " + std::to_string(s.n) + " " +
         std::to_string(s.k) + " " + std::to_string(s.batch);
}

/// Reads the entries of `chip` from a cache file; entries of other chips
/// are skipped, later lines override earlier ones.
LogicalResult loadCache(StringRef path, const ::isaac::ChipLimits &chip,
                        std::map<std::string, ::isaac::GemmConfig> &entries,
                        std::string &err) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    err = "cannot read tuning cache " + path.str() + ": " +
          buf.getError().message();
    return failure();
  }
  SmallVector<StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    StringRef line = lines[i].trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    std::string where = path.str() + ":" + std::to_string(i + 1) + ": ";
    size_t attr = line.find("#isaac.gemm<");
    SmallVector<StringRef> tok;
    line.substr(0, attr).split(tok, ' ', -1, /*KeepEmpty=*/false);
    ::isaac::GemmShape s;
    std::optional<::isaac::GemmTypes> types =
        tok.size() == 7 ? ::isaac::GemmTypes::parseToken(tok[1]) : std::nullopt;
    if (attr == StringRef::npos || !types ||
        !(tok[2] == "nn" || tok[2] == "nt" || tok[2] == "tn" ||
          tok[2] == "tt") ||
        tok[3].getAsInteger(10, s.m) || tok[4].getAsInteger(10, s.n) ||
        tok[5].getAsInteger(10, s.k) || tok[6].getAsInteger(10, s.batch) ||
        s.m < 1 || s.n < 1 || s.k < 1 || s.batch < 1) {
      err = where + "expected 'CHIP DTYPE LAYOUT M N K BATCH "
                    "#isaac.gemm<...>'";
      return failure();
    }
    s.dtype = types->ab;
    s.cType = types->c;
    s.tf32 = types->tf32;
    s.layout.transA = tok[2][0] == 't';
    s.layout.transB = tok[2][1] == 't';
    std::string perr;
    std::optional<::isaac::GemmConfig> parsed =
        ::isaac::GemmConfig::parseText(line.substr(attr), &perr);
    if (!parsed) {
      err = where + perr;
      return failure();
    }
    ::isaac::GemmConfig c = *parsed;
    if (tok[0] != chip.chip)
      continue;
    // f32 is exact (simt) unless the entry's types are tf32 (mma); f64
    // has both families (an entry may pick either, as an isaac.config may).
    bool familyOk;
    switch (s.dtype) {
    case ::isaac::DType::F64:
      familyOk = true;
      break;
    case ::isaac::DType::F32:
      familyOk = (c.family == ::isaac::GemmFamily::Mma) == s.tf32;
      break;
    default:
      familyOk = c.family == ::isaac::GemmFamily::Mma ||
                 c.family == ::isaac::GemmFamily::Wgmma;
    }
    if (!familyOk) {
      err = where + "a configuration of the " +
            ::isaac::gemmFamilyName(c.family) + " family for " + tok[1].str() +
            " GEMMs (mma: f16, bf16, tf32 and f64; simt: f32, f64)";
      return failure();
    }
    auto v = ::isaac::checkGemmLegality(c, s.dtype, chip);
    if (!v.empty()) {
      err = where + "#isaac.gemm<" + c.str() + "> is illegal for " +
            tok[1].str() + " on " + chip.chip + ": " + v.front().message +
            " [" + v.front().rule + "]";
      return failure();
    }
    entries[cacheKey(s)] = c;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The analytic heuristic as a search cost (docs/tuning.md).
static ::isaac::CostFn heuristicCost(const ::isaac::ChipLimits &limits) {
  return [limits](const ::isaac::GemmShape &s, const ::isaac::GemmConfig &c) {
    return ::isaac::analyticCost(s, c, limits);
  };
}

struct SelectConfigPass
    : public mlir::isaac::impl::IsaacSelectConfigBase<SelectConfigPass> {
  using Base::Base;

  /// A GEMM search's result, kept for later GEMMs of the same shape
  /// (cacheKey) in this run.
  struct GemmSearch {
    std::vector<::isaac::Ranked> best;
    bool outsideSupport = false;
  };
  std::map<std::string, GemmSearch> gemmSearches;
  /// A convolution's configuration and remark, kept for later
  /// convolutions of the same shape (ConvShape::str) in this run.
  struct ConvSearch {
    std::vector<::isaac::Ranked> best;
    std::string remark;
  };
  std::map<std::string, ConvSearch> convSearches;

  /// A conv model and its search.
  struct ConvModel {
    std::string path;
    std::shared_ptr<::isaac::ConvMLPSearch> search;
    /// An f16 model ranking bf16 convolutions (no bf16 conv model): the
    /// kernels differ only in the element type, which the tensor cores
    /// multiply at the same rate.
    bool f16StandIn = false;
  };
  /// The conv models of one operand type, resolved on first use: of each
  /// family, the first file found in the chip's model directory, then in
  /// its base chip's (Chips.def's Base). On sm_90a: models/sm_90a's
  /// conv-f16.mlp (wgmma) and models/sm_90's (mma). bf16 without a conv
  /// model of its own takes the f16 ones.
  struct ConvRanker {
    bool resolved = false;
    bool failed = false;
    std::map<::isaac::GemmFamily, ConvModel> models;
    std::string noModel; ///< without a model: why, for the remark
  };

  /// The cost model of one element type, resolved on first use.
  struct Ranker {
    bool resolved = false;
    bool failed = false;
    std::string modelPath; ///< empty: analytic heuristic
    /// Without a model: why, for the remark ("no file PATH", ...).
    std::string noModel;
    std::shared_ptr<const ::isaac::MLPModel> model;
    ::isaac::CostFn cost;
    /// The mma family's space, ranked by the analytic model.
    bool mma = false;
  };

  /// The directory holding <chip>/<op>-<dtype>.mlp: model-dir, or the
  /// source tree's models/. An explicit model-dir must exist: a mistyped
  /// path would otherwise fall back to the heuristic without a word (an
  /// error on `op`, and `failed`).
  std::string modelDirectory(Operation *op, bool &failed) {
    std::string dir = modelDir.empty() ? std::string(ISAAC_MODELS_DIR)
                                       : std::string(modelDir);
    failed = false;
    if (!modelDir.empty() && !llvm::sys::fs::is_directory(dir)) {
      op->emitError() << "isaac: model-dir '" << dir << "' "
                      << (llvm::sys::fs::exists(dir)
                              ? "is not a directory (it names the directory "
                                "holding <chip>/gemm-<dtype>.mlp)"
                              : "does not exist");
      failed = true;
    }
    return dir;
  }

  /// The trained model `file` for this chip: <dir>/<chip>/file, else, for
  /// a chip that extends another (Chips.def's Base: sm_90a runs every
  /// sm_90 kernel unchanged), <dir>/<base>/file. Returns the path and sets
  /// `modelChip` to the chip of the directory it is in; returns "" and
  /// says where it looked in `noModel` when neither exists.
  std::string findModelFile(StringRef dir, StringRef file,
                            std::string &modelChip, std::string &noModel) {
    std::vector<std::pair<std::string, std::string>> found =
        findModelFiles(dir, file, noModel);
    if (found.empty())
      return "";
    modelChip = found.front().first;
    return found.front().second;
  }

  /// Every (chip, path) of `file` under `dir`: the chip's, then its base
  /// chip's. `noModel` says where none was (all the paths tried where the
  /// list is empty).
  std::vector<std::pair<std::string, std::string>>
  findModelFiles(StringRef dir, StringRef file, std::string &noModel) {
    const ::isaac::ChipInfo *info = ::isaac::findChip(chip);
    SmallVector<std::string, 2> chips{std::string(chip)};
    if (info && *info->base)
      chips.push_back(info->base);
    noModel.clear();
    std::vector<std::pair<std::string, std::string>> found;
    for (const std::string &c : chips) {
      SmallString<256> path(dir);
      llvm::sys::path::append(path, c, file);
      if (llvm::sys::fs::exists(path)) {
        found.push_back({c, path.str().str()});
        continue;
      }
      if (found.empty())
        noModel += (noModel.empty() ? "no file " : " nor ") + path.str().str();
    }
    return found;
  }

  /// What a remark says of a model's data.
  static const char *trainedOn(const ::isaac::MLPModel &m) {
    return m.synthetic() ? "trained on SYNTHETIC data, not measurements"
                         : "trained on measurements";
  }

  /// Whether `limits`' chip runs convolutions of `dtype` operands in
  /// `family`: the family has conv kernels for the types and legal
  /// configurations on the chip (wgmma: sm_90a only).
  static bool runsConvIn(::isaac::GemmFamily family, ::isaac::DType dtype,
                         const ::isaac::ChipLimits &limits) {
    return ::isaac::convFamilyComputes(family, {dtype, dtype, false}) &&
           !::isaac::legalConfigs(dtype, limits, family).empty();
  }

  /// Why the model found at `path` (in the directory of `modelChip`) cannot
  /// rank `op`s of `dtype`: its header names another dtype or chip, or it is
  /// a model of the other op (its features are that op's); "" if it can.
  /// The GEMM and conv rankers share these checks; each adds its family's.
  static std::string modelMismatch(const ::isaac::MLPModel &m,
                                   const std::string &path, StringRef modelChip,
                                   ::isaac::DType dtype, ::isaac::ModelOp op) {
    if (m.chip() != modelChip || m.dtype() != dtype)
      return path + ": the model is for " + ::isaac::dtypeName(m.dtype()) +
             " on " + m.chip() + ", not " + ::isaac::dtypeName(dtype) + " on " +
             modelChip.str();
    if (m.op() == op)
      return "";
    return op == ::isaac::ModelOp::Gemm
               ? path + ": the model ranks convolutions (its features are a " +
                     "conv model's), not GEMMs"
               : path + ": the model ranks GEMMs (its features are a " +
                     "GEMM model's), not convolutions";
  }

  Ranker &getRanker(::isaac::DType dtype, bool tf32,
                    const ::isaac::ChipLimits &limits, Operation *op) {
    Ranker &r = rankers[tf32 ? -1 : static_cast<int>(dtype)];
    if (r.resolved)
      return r;
    r.resolved = true;
    r.cost = heuristicCost(limits);
    // The space searched: f32 opted in to TF32 and f64 on chips with fast
    // DMMA in the mma family's (searchFamily), 16-bit operands in mma's
    // or, where the model is of it, wgmma's.
    ::isaac::GemmFamily family = ::isaac::searchFamily(dtype, tf32, limits);
    r.mma = family != ::isaac::GemmFamily::Simt;
    if (modelDir == "none") {
      r.noModel = "model-dir=none";
      return r;
    }
    // The model of that space is <chip>/modelFileName(): gemm-f32.mlp and
    // gemm-f64.mlp rank the simt family, gemm-f32-mma.mlp TF32 and
    // gemm-f64-mma.mlp f64 on DMMA; gemm-<f16|bf16>.mlp is a model of a
    // tensor-core family the chip has (on sm_90a: wgmma), whose space the
    // model's search covers. Under the default (the source tree's
    // models/), a missing file is the normal case of a chip or space
    // without a trained model; the remark says where it looked, and the
    // analytic model ranks.
    bool sixteenBit =
        dtype == ::isaac::DType::F16 || dtype == ::isaac::DType::BF16;
    std::string dir = modelDirectory(op, r.failed);
    if (r.failed)
      return r;
    std::string modelChip;
    std::string path = findModelFile(
        dir, ::isaac::modelFileName(::isaac::ModelOp::Gemm, dtype, family),
        modelChip, r.noModel);
    if (path.empty())
      return r;
    auto wrongFamily = [&](::isaac::GemmFamily f) {
      return sixteenBit ? f == ::isaac::GemmFamily::Simt ||
                              ::isaac::legalConfigs(dtype, limits, f).empty()
                        : f != family;
    };
    // Parsed once per process (and file content), with its search tables.
    // A tensor-core model searches a list of the legal configurations of
    // its family (on a chip with wgmma, the shipped 16-bit models are of
    // that family); the list does not depend on the model, so it is
    // enumerated on another core while this one parses the file (each is
    // a few milliseconds of a GEMM's selection).
    const ::isaac::ChipInfo *info = ::isaac::findChip(limits.chip);
    ::isaac::GemmFamily listFamily = sixteenBit && info && info->hasWgmma
                                         ? ::isaac::GemmFamily::Wgmma
                                         : family;
    std::future<void> legalList;
    if (listFamily != ::isaac::GemmFamily::Simt &&
        op->getContext()->isMultithreadingEnabled())
      legalList = std::async(std::launch::async, [dtype, &limits, listFamily] {
        (void)::isaac::legalConfigs(dtype, limits, listFamily);
      });
    std::string err;
    std::shared_ptr<const ::isaac::MLPModel> m =
        ::isaac::MLPModel::loadShared(path, err);
    if (legalList.valid())
      legalList.wait();
    if (m)
      err = modelMismatch(*m, path, modelChip, dtype, ::isaac::ModelOp::Gemm);
    if (m && err.empty() && wrongFamily(m->family()))
      err = path + ": the model ranks " + ::isaac::gemmFamilyName(m->family()) +
            " configurations, which " +
            (sixteenBit ? "have no " + std::string(::isaac::dtypeName(dtype)) +
                              " kernels on " + std::string(chip)
                        : std::string("are not the ") +
                              ::isaac::gemmFamilyName(family) + " family's");
    if (!err.empty()) {
      op->emitError() << "isaac: cannot use the trained model: " << err;
      r.failed = true;
      return r;
    }
    r.modelPath = path;
    r.model = std::move(m);
    // The search scores the space on every core unless the context runs
    // single-threaded (-mlir-disable-threading).
    r.cost = ::isaac::makeMLPCost(
        r.model, limits, ::isaac::kEnsemblePrescreen,
        op->getContext()->isMultithreadingEnabled() ? 0 : 1);
    return r;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<::isaac::ChipLimits> limits = ::isaac::getChipLimits(chip);
    if (!limits) {
      module.emitError() << "unknown target chip '" << chip
                         << "'; known chips: " << ::isaac::knownChips();
      return signalPassFailure();
    }
    if (topk == 0) {
      module.emitError() << "isaac-select-config: topk must be at least 1";
      return signalPassFailure();
    }
    // The configurations are chosen for `chip`: the module says so, so that
    // verifying them later (getTargetChip) judges them against that chip
    // (a wgmma configuration is legal on sm_90a only).
    if (!module->hasAttr(IsaacDialect::getTargetAttrName()))
      module->setAttr(IsaacDialect::getTargetAttrName(),
                      StringAttr::get(module.getContext(), chip));
    std::map<std::string, ::isaac::GemmConfig> cached;
    if (!cache.empty()) {
      std::string err;
      if (failed(loadCache(cache, *limits, cached, err))) {
        module.emitError() << "isaac-select-config: " << err;
        return signalPassFailure();
      }
    }
    rankers.clear();
    convRankers.clear();
    gemmSearches.clear();
    convSearches.clear();

    bool anyFailed = false;
    module.walk([&](Operation *op) {
      if (isConvCandidate(op)) {
        if (::mlir::failed(configureConv(op, *limits)))
          anyFailed = true;
        return;
      }
      if (!isGemmCandidate(op))
        return;
      if (op->hasAttr(IsaacDialect::getConfigAttrName())) {
        // Said like every other choice, so that a user sees where each
        // GEMM's configuration came from.
        op->emitRemark() << "isaac: configuration given in the input "
                            "(isaac.config); kept as written";
        return;
      }
      std::string reason;
      FailureOr<GemmMatch> match = matchGemm(op, reason);
      if (::mlir::failed(match)) {
        if (strict) {
          op->emitError() << "isaac cannot configure this operation: "
                          << reason;
          anyFailed = true;
        } else if (remarkSkipped) {
          op->emitRemark() << "isaac: left untouched: " << reason;
        }
        return;
      }
      // f32 multiplies in TF32 only where opted in (the tf32 option, or
      // the op's isaac.tf32).
      ::isaac::GemmShape shape = match->shape;
      shape.tf32 = shape.dtype == ::isaac::DType::F32 &&
                   (tf32 || op->hasAttr(IsaacDialect::getTF32AttrName()));
      auto hit = cached.find(cacheKey(shape));
      bool fromCache = hit != cached.end();

      std::vector<::isaac::Ranked> best;
      Ranker *ranker = nullptr;
      bool outsideSupport = false;
      if (!fromCache || topk > 1) {
        ranker = &getRanker(shape.dtype, shape.tf32, *limits, op);
        if (ranker->failed) {
          anyFailed = true;
          return;
        }
        // A GEMM of the same shape as an earlier one (a network's repeated
        // layers) takes that search's ranking: the search reads nothing
        // but the shape (with its operands' alignment, which the measured
        // rules read), the chip and the ranker, all the same.
        auto [memo, first] = gemmSearches.try_emplace(
            cacheKey(shape) + " " + std::to_string(shape.operandAlign));
        if (first) {
          memo->second.best =
              ::isaac::searchBest(shape, *limits, ranker->cost, topk);
          if (memo->second.best.empty() && ranker->model) {
            // Every legal configuration lies outside the model's training
            // support (a model trained on other parameter ranges): it
            // ranks none of them, the heuristic does.
            memo->second.outsideSupport = true;
            memo->second.best = ::isaac::searchBest(
                shape, *limits, heuristicCost(*limits), topk);
          }
        }
        best = memo->second.best;
        outsideSupport = memo->second.outsideSupport;
        if (best.empty() && !fromCache) {
          op->emitError() << "isaac: no legal configuration for this GEMM on "
                          << chip;
          anyFailed = true;
          return;
        }
      }
      if (fromCache) { // the cached entry first, then the search's others
        ::isaac::GemmConfig c = hit->second;
        llvm::erase_if(best,
                       [&](const ::isaac::Ranked &r) { return r.config == c; });
        best.insert(best.begin(), ::isaac::Ranked{c, 0.0});
        if (best.size() > topk)
          best.resize(topk);
      }

      setConfig(op, best);
      // The lowering compiles an mma configuration on f32 only for an op
      // that opted in to TF32.
      if (shape.tf32)
        op->setAttr(IsaacDialect::getTF32AttrName(),
                    UnitAttr::get(op->getContext()));
      if (fromCache)
        op->emitRemark() << "isaac: configuration from the tuning cache "
                         << cache;
      else if (outsideSupport)
        op->emitRemark() << "isaac: every legal configuration lies outside "
                            "the training support of "
                         << ranker->modelPath << " ("
                         << ranker->model->supportString()
                         << "); configuration chosen by the analytic "
                            "heuristic";
      else if (ranker->model)
        op->emitRemark() << "isaac: configuration chosen by the trained model "
                         << ranker->modelPath << " ("
                         << trainedOn(*ranker->model) << ")";
      else if (ranker->mma && shape.dtype == ::isaac::DType::F64)
        op->emitRemark()
            << "isaac: mma configuration (f64 on DMMA tensor cores) chosen by "
               "the analytic model ("
            << static_cast<int>(::isaac::mmaSyncTflops(*limits, shape.dtype) +
                                0.5)
            << " TFLOP/s f64 tensor-core rate for " << chip << " against "
            << static_cast<int>(::isaac::findChip(chip)->peakF64Tflops + 0.5)
            << " TFLOP/s f64 FMA); no trained model (" << ranker->noModel
            << "); an isaac.config of family = simt keeps a GEMM on the FMA "
               "pipes";
      else if (ranker->mma)
        op->emitRemark() << "isaac: mma configuration"
                         << (shape.tf32 ? " (f32 multiplied in TF32, opted in)"
                                        : "")
                         << " chosen by the analytic model ("
                         << static_cast<int>(
                                ::isaac::mmaSyncTflops(*limits, shape.dtype) +
                                0.5)
                         << " TFLOP/s tensor-core rate for " << chip
                         << "); no trained model (" << ranker->noModel << ")";
      else
        op->emitRemark() << "isaac: no trained model for " << chip
                         << "; configuration chosen by the analytic "
                            "heuristic ("
                         << ranker->noModel << ")";
    });
    if (anyFailed)
      signalPassFailure();
  }

  /// isaac.config for the convolution `op`: its implicit GEMM's
  /// configuration, chosen by the analytic heuristic among the
  /// configurations the conv rules admit.
  LogicalResult configureConv(Operation *op,
                              const ::isaac::ChipLimits &limits) {
    std::string reason;
    FailureOr<ConvMatch> match = matchConv(op, reason);
    auto given =
        op->getAttrOfType<GemmConfigAttr>(IsaacDialect::getConfigAttrName());
    if (given && ::mlir::succeeded(match)) {
      // The dialect checked the GEMM rules; the conv rules read the shape.
      std::vector<::isaac::Violation> v =
          ::isaac::checkConvLegality(given.getConfig(), match->shape, limits);
      if (!v.empty())
        return op->emitError()
               << "isaac: the isaac.config of this convolution is illegal "
                  "for it on "
               << chip << ": " << v.front().message << " [" << v.front().rule
               << "]";
    }
    if (given) {
      op->emitRemark() << "isaac: configuration given in the input "
                          "(isaac.config); kept as written";
      return success();
    }
    if (::mlir::failed(match)) {
      if (strict)
        return op->emitError()
               << "isaac cannot configure this operation: " << reason;
      if (remarkSkipped)
        op->emitRemark() << "isaac: left untouched: " << reason;
      return success();
    }
    ::isaac::DType ab = match->shape.types.ab;
    ConvRanker &ranker = getConvRanker(ab, limits, op);
    if (ranker.failed)
      return failure();
    // A convolution of the same shape as an earlier one (a network's
    // repeated layers) takes that search's configuration and remark.
    std::string key = match->shape.str(); // names every field
    auto known = convSearches.find(key);
    if (known == convSearches.end()) {
      FailureOr<ConvSearch> found = searchConv(op, *match, ranker, limits);
      if (::mlir::failed(found))
        return failure();
      known = convSearches.emplace(key, std::move(*found)).first;
    }
    setConfig(op, known->second.best);
    op->emitRemark() << known->second.remark;
    return success();
  }

  /// isaac.config = the ranking's first; with topk > 1, isaac.candidates =
  /// the whole ranking.
  void setConfig(Operation *op, ArrayRef<::isaac::Ranked> best) {
    MLIRContext *ctx = op->getContext();
    op->setAttr(IsaacDialect::getConfigAttrName(),
                GemmConfigAttr::get(ctx, best.front().config));
    if (topk > 1) {
      SmallVector<Attribute> cands;
      for (const ::isaac::Ranked &r : best)
        cands.push_back(GemmConfigAttr::get(ctx, r.config));
      op->setAttr(IsaacDialect::getCandidatesAttrName(),
                  ArrayAttr::get(ctx, cands));
    }
  }

  /// Ranks the convolution's configurations (below) and says how, for
  /// configureConv.
  FailureOr<ConvSearch> searchConv(Operation *op, const ConvMatch &match,
                                   ConvRanker &ranker,
                                   const ::isaac::ChipLimits &limits) {
    ::isaac::DType ab = match.shape.types.ab;
    // Each family the chip runs the convolution in is ranked by its conv
    // model where there is one (ConvMLPSearch). The wgmma family (16-bit
    // operands on sm_90a) without a conv model is ranked by the wgmma GEMM
    // model on the implicit GEMM (its conv kernels are its GEMM kernels
    // with the input fetched by taps); the mma family (or simt) without
    // one, or where its model's support holds no legal configuration, by
    // the analytic heuristic. Where both families are ranked by conv
    // models, whose costs are measured conv times alike, the lists merge
    // by cost; otherwise wgmma is taken where ranked (on the conv layers of
    // Table 5 and ResNet-50, H100, the GEMM model's wgmma top-1 ran at
    // 131.0 TFLOPS geomean against the mma conv model's 113.1).
    ::isaac::GemmFamily primary = ::isaac::searchFamily(ab, false, limits);
    struct Ranking {
      std::vector<::isaac::Ranked> best;
      std::string modelPath; ///< empty: the analytic heuristic
      const ::isaac::MLPModel *model = nullptr; ///< the one that ranked
      bool convModel = false;
      bool gemmModel = false; ///< the GEMM model on the implicit GEMM
      bool f16StandIn = false;
      bool outsideSupport = false;
    };
    auto byConvModel = [&](::isaac::GemmFamily f, Ranking &out) {
      auto it = ranker.models.find(f);
      if (it == ranker.models.end())
        return false;
      out.modelPath = it->second.path;
      out.model = &it->second.search->model();
      out.f16StandIn = it->second.f16StandIn;
      out.best = it->second.search->search(match.shape, limits, topk);
      out.convModel = !out.best.empty();
      out.outsideSupport = out.best.empty();
      return out.convModel;
    };
    // Family `f`'s GEMM model on the implicit GEMM, where the model of the
    // type is of that family (the conv kernels are its GEMM kernels with
    // the input fetched by taps); `out` stays empty otherwise.
    auto byGemmModel = [&](::isaac::GemmFamily f, Ranking &out) {
      Ranker &g = getRanker(ab, /*tf32=*/false, limits, op);
      if (g.failed)
        return failure();
      if (g.model && g.model->family() == f) {
        out.best =
            ::isaac::searchBestConvAsGemm(match.shape, limits, g.cost, topk);
        out.modelPath = g.modelPath;
        out.model = g.model.get();
        out.outsideSupport = false;
        out.gemmModel = !out.best.empty();
      }
      return success();
    };
    std::optional<Ranking> wg;
    if (primary != ::isaac::GemmFamily::Wgmma &&
        runsConvIn(::isaac::GemmFamily::Wgmma, ab, limits)) {
      Ranking r;
      if (!byConvModel(::isaac::GemmFamily::Wgmma, r) &&
          ::mlir::failed(byGemmModel(::isaac::GemmFamily::Wgmma, r)))
        return failure();
      if (!r.best.empty())
        wg = std::move(r);
    }
    Ranking base;
    if (!wg || wg->convModel) {
      // Without a conv model of the family, its GEMM model (f64 on DMMA;
      // docs/model-eval.md, "f64 convolutions by the GEMM model"); a conv
      // model whose support holds no legal configuration, or neither
      // model, leaves the analytic heuristic.
      if (ranker.models.count(primary))
        byConvModel(primary, base);
      else if (::mlir::failed(byGemmModel(primary, base)))
        return failure();
      if (base.best.empty())
        base.best = ::isaac::searchBestConv(match.shape, limits,
                                            heuristicCost(limits), topk);
    }
    std::vector<::isaac::Ranked> best;
    const Ranking *chosen = &base;
    const Ranking *other = nullptr;
    if (wg && (!base.convModel || base.best.empty())) {
      chosen = &*wg;
    } else if (wg) {
      // Both conv models: one ranking of both families by predicted time
      // (stable: the wgmma family first on a tie).
      best = wg->best;
      best.insert(best.end(), base.best.begin(), base.best.end());
      std::stable_sort(best.begin(), best.end(),
                       [](const ::isaac::Ranked &x, const ::isaac::Ranked &y) {
                         return x.cost < y.cost;
                       });
      bool wgFirst = best.front().config.family == ::isaac::GemmFamily::Wgmma;
      chosen = wgFirst ? &*wg : &base;
      other = wgFirst ? &base : &*wg;
      if (best.size() > topk)
        best.resize(topk);
    }
    if (best.empty())
      best = chosen->best;
    if (best.empty()) {
      op->emitError() << "isaac: no legal configuration for this convolution "
                         "on "
                      << chip;
      return failure();
    }
    // The measured split-K and warp-specialization rules of the GEMM
    // search (searchBest applies them to the GEMM rankings; the conv
    // models' rankings get them here).
    for (::isaac::Ranked &r : best)
      r.config = ::isaac::withConvWarpSpecialization(
          ::isaac::withClusterSplitK(r.config, ab, limits), match.shape,
          limits);
    ::isaac::GemmShape g = match.shape.gemmShape();
    ConvSearch out;
    out.best = std::move(best);
    llvm::raw_string_ostream remark(out.remark);
    remark << "isaac: convolution configured as its implicit GEMM " << g.m
           << "x" << g.n << "x" << g.k << " (N*P*Q x K x C*R*S), "
           << ::isaac::gemmFamilyName(out.best.front().config.family)
           << " family, ";
    if (wg && chosen == &*wg && !wg->convModel)
      remark << "by the trained GEMM model " << wg->modelPath
             << " on the implicit GEMM (no wgmma conv model)";
    else if (chosen->gemmModel)
      remark << "by the trained GEMM model " << chosen->modelPath
             << " on the implicit GEMM (no conv model: " << ranker.noModel
             << ")";
    else if (chosen->convModel)
      remark << "by the trained model " << chosen->modelPath << " ("
             << trainedOn(*chosen->model)
             << (chosen->f16StandIn ? "; f16 timings rank bf16: no bf16 "
                                      "conv model, and the kernels differ "
                                      "only in the element type"
                                    : "")
             << ")";
    else if (chosen->outsideSupport)
      remark << "by the analytic heuristic: every legal configuration lies "
                "outside the training support of "
             << chosen->modelPath << " (" << chosen->model->supportString()
             << ")";
    else
      remark << "by the analytic heuristic (no conv model: "
             << (ranker.noModel.empty()
                     ? std::string("none of the ") +
                           ::isaac::gemmFamilyName(primary) + " family"
                     : ranker.noModel)
             << ")";
    if (other)
      remark << "; predicted "
             << llvm::formatv("{0:F2}",
                              other->best.front().cost / out.best.front().cost)
                    .str()
             << "x faster than the "
             << ::isaac::gemmFamilyName(other->best.front().config.family)
             << " family's best (" << other->modelPath << ")";
    return out;
  }

  ConvRanker &getConvRanker(::isaac::DType dtype,
                            const ::isaac::ChipLimits &limits, Operation *op) {
    ConvRanker &r = convRankers[static_cast<int>(dtype)];
    if (r.resolved)
      return r;
    r.resolved = true;
    if (modelDir == "none") {
      r.noModel = "model-dir=none";
      return r;
    }
    // The family the convolution's space is searched in (searchFamily),
    // and wgmma where the chip has it for the type: a model of another
    // family ranks none of it.
    ::isaac::GemmFamily family = ::isaac::searchFamily(dtype, false, limits);
    auto ranked = [&](::isaac::GemmFamily f) {
      return f == family ||
             (f == ::isaac::GemmFamily::Wgmma && runsConvIn(f, dtype, limits));
    };
    std::string dir = modelDirectory(op, r.failed);
    if (r.failed)
      return r;
    loadConvModels(r, dir, dtype, dtype, family, ranked, op);
    // bf16 convolutions without a bf16 conv model of either family are
    // ranked by the f16 ones (docs/model-eval.md, "bf16 convolutions by
    // the f16 models").
    if (!r.failed && r.models.empty() && dtype == ::isaac::DType::BF16) {
      std::string unused;
      loadConvModels(r, dir, dtype, ::isaac::DType::F16, family, ranked, op,
                     &unused);
    }
    return r;
  }

  /// Loads the conv models of `fileType` (<chip>/conv-<fileType>.mlp, then
  /// the base chip's) into `r` to rank `dtype` convolutions; an f16 file
  /// for bf16 is a stand-in. `noModel` (default: r.noModel) says where none
  /// was.
  template <typename RankedFn>
  void loadConvModels(ConvRanker &r, StringRef dir, ::isaac::DType dtype,
                      ::isaac::DType fileType, ::isaac::GemmFamily family,
                      RankedFn ranked, Operation *op,
                      std::string *noModel = nullptr) {
    for (auto &[modelChip, path] : findModelFiles(
             dir,
             ::isaac::modelFileName(::isaac::ModelOp::Conv, fileType, family),
             noModel ? *noModel : r.noModel)) {
      std::string err;
      std::shared_ptr<const ::isaac::MLPModel> m =
          ::isaac::MLPModel::loadShared(path, err);
      if (m)
        err = modelMismatch(*m, path, modelChip, fileType,
                            ::isaac::ModelOp::Conv);
      if (m && err.empty() && !ranked(m->family()))
        err = path + ": the model ranks " +
              ::isaac::gemmFamilyName(m->family()) + " configurations; " +
              ::isaac::dtypeName(dtype) + " convolutions on " + chip +
              " are searched in the " + ::isaac::gemmFamilyName(family) +
              " family";
      if (!err.empty()) {
        op->emitError() << "isaac: cannot use the trained conv model: " << err;
        r.failed = true;
        return;
      }
      if (r.models.count(m->family()))
        continue; // the chip's own model of that family comes first
      // Scores the space on every core unless the context runs
      // single-threaded (-mlir-disable-threading).
      ::isaac::GemmFamily f = m->family();
      r.models[f] = {path,
                     std::make_shared<::isaac::ConvMLPSearch>(
                         std::move(m), ::isaac::kEnsemblePrescreen,
                         op->getContext()->isMultithreadingEnabled() ? 0 : 1),
                     fileType != dtype};
    }
  }

  std::map<int, Ranker> rankers;
  std::map<int, ConvRanker> convRankers;
};
} // namespace
