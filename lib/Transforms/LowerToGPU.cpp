//===- LowerToGPU.cpp - Configured GEMMs to generated GPU kernels ---------===//
//
// Each configured GEMM on memrefs (linalg.matmul, linalg.batch_matmul,
// isaac.gemm) becomes an isaac.launch_gemm of a kernel generated for its
// configuration, layout and epilogue. An isaac.gemm whose epilogue is the
// identity, or adds the old C in place, is a plain GEMM (beta = 0 or 1); any
// other epilogue makes a fused kernel. An isaac.gemm that cannot be compiled
// is decomposed back into linalg ops (a contraction into a temporary and an
// elementwise generic), which the generic GPU path then runs. A configured
// convolution (linalg.conv_2d_nhwc_hwcf / _fhwc on packed memrefs) becomes
// an isaac.launch_conv of the conv kernel of its implicit GEMM's
// configuration, an isaac.conv with its epilogue fused; one that is not (no
// isaac.config, or not one isaac compiles) is left to isaac-offload, whose
// remark says why (an isaac.conv decomposed back into linalg first).
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/KernelBuilders.h"
#include "isaac/Transforms/Passes.h"

#include "ConvMatch.h"
#include "EpilogueProgram.h"
#include "GemmMatch.h"

#include "isaac/Model/ConvLegality.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACLOWERTOGPU
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

/// Replaces the memref isaac.gemm `op` by linalg ops computing the same:
/// the contraction into a temporary of the accumulation type (zero-filled),
/// then an elementwise linalg.generic applying the epilogue into `init`.
static void decomposeGemm(GemmOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  auto initT = cast<MemRefType>(op.getInit().getType());
  int64_t rank = initT.getRank();
  Type accTy = op.getAccumulatorType();
  SmallVector<Value> dynSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (initT.isDynamicDim(d))
      dynSizes.push_back(memref::DimOp::create(b, loc, op.getInit(), d));
  auto tmpT = MemRefType::get(initT.getShape(), accTy);
  Value tmp = memref::AllocOp::create(b, loc, tmpT, dynSizes);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accTy));
  linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{tmp});

  // Contraction: loops (batch?, m, n, k).
  unsigned nd = rank + 1, bo = rank - 2;
  auto dims = [&](std::initializer_list<unsigned> ds) {
    SmallVector<AffineExpr> exprs;
    if (rank == 3)
      exprs.push_back(getAffineDimExpr(0, ctx));
    for (unsigned d : ds)
      exprs.push_back(getAffineDimExpr(bo + d, ctx));
    return AffineMap::get(nd, 0, exprs, ctx);
  };
  AffineMap aMap = op.getTransposeA() ? dims({2, 0}) : dims({0, 2});
  AffineMap bMap = op.getTransposeB() ? dims({1, 2}) : dims({2, 1});
  AffineMap cMap = dims({0, 1});
  SmallVector<utils::IteratorType> iters(nd, utils::IteratorType::parallel);
  iters.back() = utils::IteratorType::reduction;
  linalg::GenericOp::create(
      b, loc, ValueRange{op.getA(), op.getB()}, ValueRange{tmp},
      ArrayRef<AffineMap>{aMap, bMap, cMap}, iters,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value p = arith::MulFOp::create(nb, nloc, args[0], args[1]);
        linalg::YieldOp::create(
            nb, nloc, arith::AddFOp::create(nb, nloc, args[2], p).getResult());
      });

  // Epilogue: generic over (batch?, m, n) reading tmp and the inputs.
  SmallVector<Value> ins = {tmp};
  llvm::append_range(ins, op.getInputs());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  for (Attribute m : op.getInputMaps())
    maps.push_back(cast<AffineMapAttr>(m).getValue());
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> par(rank, utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, ins, ValueRange{op.getInit()}, maps, par,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IRMapping map;
        Block &body = op.getEpilogue().front();
        for (auto [from, to] : llvm::zip(body.getArguments(), args))
          map.map(from, to);
        for (Operation &inner : body.without_terminator())
          nb.clone(inner, map);
        linalg::YieldOp::create(nb, nloc, map.lookup(op.getYield().getValue()));
      });
  memref::DeallocOp::create(b, loc, tmp);
  op.erase();
}

/// Records which of the output's (m, n) each epilogue input varies with
/// (`maps` from the rank-`rank` output space, (b,) m, n): a bias broadcast
/// along rows is read once per column of a thread's tile.
static void setInputDims(::isaac::EpilogueProgram &epilogue, ArrayAttr maps,
                         int64_t rank) {
  for (auto [i, mapAttr] : llvm::enumerate(maps)) {
    AffineMap map = cast<AffineMapAttr>(mapAttr).getValue();
    uint8_t dims = ::isaac::kEpilogueScalar;
    for (unsigned j = 0; j < map.getNumResults(); ++j) {
      int64_t d = map.getDimPosition(j) + (3 - rank);
      if (d == 1)
        dims |= ::isaac::kEpilogueRow;
      else if (d == 2)
        dims |= ::isaac::kEpilogueCol;
    }
    epilogue.setDims(i, dims);
  }
}

/// Replaces the memref isaac.conv `op` by linalg ops computing the same:
/// the linalg convolution of its layout (on a zero-padded copy of the input
/// where it has padding) into a zero-filled temporary of the accumulation
/// type, then an elementwise linalg.generic applying the
/// epilogue into `init` (the generic GPU path runs both).
static void decomposeConv(ConvOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto initT = cast<MemRefType>(op.getInit().getType());
  int64_t rank = initT.getRank();
  Type accTy = op.getAccumulatorType();
  Value tmp =
      memref::AllocOp::create(b, loc, MemRefType::get(initT.getShape(), accTy));
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accTy));
  linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{tmp});
  auto i64Attr = [&](ArrayRef<int64_t> v) {
    return DenseIntElementsAttr::get(RankedTensorType::get({2}, b.getI64Type()),
                                     v);
  };
  // A padded input is copied into a zero-filled buffer of the padded size
  // (the generic path has no predicated loads).
  Value input = op.getInput();
  std::string why;
  ::isaac::ConvShape shape = *op.getConvShape(why); // verified
  Value padded;
  if (shape.padTop || shape.padLeft || shape.padBottom() > 0 ||
      shape.padRight() > 0) {
    auto inT = cast<MemRefType>(input.getType());
    int64_t h =
        shape.h + shape.padTop + std::max<int64_t>(0, shape.padBottom());
    int64_t w =
        shape.w + shape.padLeft + std::max<int64_t>(0, shape.padRight());
    padded = memref::AllocOp::create(
        b, loc,
        MemRefType::get({shape.n, h, w, shape.c}, inT.getElementType()));
    Value zeroIn =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(inT.getElementType()));
    linalg::FillOp::create(b, loc, ValueRange{zeroIn}, ValueRange{padded});
    Value interior = memref::SubViewOp::create(
        b, loc, padded,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(shape.padTop),
                               b.getIndexAttr(shape.padLeft),
                               b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(shape.n), b.getIndexAttr(shape.h),
                               b.getIndexAttr(shape.w),
                               b.getIndexAttr(shape.c)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(1), b.getIndexAttr(1)});
    linalg::CopyOp::create(b, loc, input, interior);
    input = padded;
  }
  SmallVector<Value> ins = {input, op.getFilter()};
  if (op.getLayout() == "nhwc_fhwc")
    linalg::Conv2DNhwcFhwcOp::create(b, loc, TypeRange(), ins, ValueRange{tmp},
                                     i64Attr(op.getStrides()),
                                     i64Attr(op.getDilations()));
  else
    linalg::Conv2DNhwcHwcfOp::create(b, loc, TypeRange(), ins, ValueRange{tmp},
                                     i64Attr(op.getStrides()),
                                     i64Attr(op.getDilations()));
  SmallVector<Value> inputs = {tmp};
  llvm::append_range(inputs, op.getInputs());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  for (Attribute m : op.getInputMaps())
    maps.push_back(cast<AffineMapAttr>(m).getValue());
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> par(rank, utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, inputs, ValueRange{op.getInit()}, maps, par,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IRMapping map;
        Block &body = op.getEpilogue().front();
        for (auto [from, to] : llvm::zip(body.getArguments(), args))
          map.map(from, to);
        for (Operation &inner : body.without_terminator())
          nb.clone(inner, map);
        linalg::YieldOp::create(nb, nloc, map.lookup(op.getYield().getValue()));
      });
  memref::DeallocOp::create(b, loc, tmp);
  if (padded)
    memref::DeallocOp::create(b, loc, padded);
  op.erase();
}

namespace {
/// What an isaac.gemm's epilogue amounts to.
struct EpilogueKind {
  std::optional<::isaac::EpilogueProgram> fused; ///< none: a plain GEMM
  double beta = 0;                               ///< plain GEMMs only
  ::isaac::DType cType = ::isaac::DType::F32;    ///< plain GEMMs only
};

/// The beta of a plain GEMM whose epilogue is `p`, or nullopt if `p` is
/// not one: x (beta = 0) or x + C with C the output itself, read in place
/// (beta = 1), each possibly converted to C's type (16-bit C of an f32
/// accumulator), C's old value converted to the accumulator's.
static std::optional<double> plainBeta(ValueRange inputs, ArrayAttr inputMaps,
                                       Value init,
                                       const ::isaac::EpilogueProgram &p) {
  std::vector<bool> used(p.insts.size());
  int first = 1 + p.numInputs(); // value number of insts[0]
  auto inst = [&](int v) -> const ::isaac::EpilogueInst * {
    if (v < first)
      return nullptr;
    used[v - first] = true;
    return &p.insts[v - first];
  };
  auto isConversion = [](const ::isaac::EpilogueInst *i) {
    return i && (i->op == ::isaac::EpilogueOp::TruncF ||
                 i->op == ::isaac::EpilogueOp::ExtF);
  };
  int v = p.result;
  if (const ::isaac::EpilogueInst *i = inst(v); isConversion(i))
    v = i->args[0];
  std::optional<double> beta;
  if (v == 0 && p.numInputs() == 0) {
    beta = 0;
  } else if (const ::isaac::EpilogueInst *add = inst(v);
             add && add->op == ::isaac::EpilogueOp::AddF &&
             p.numInputs() == 1 && p.inputTypes[0] == p.outType &&
             inputs[0] == init &&
             cast<AffineMapAttr>(inputMaps[0]).getValue().isIdentity()) {
    int other = add->args[0] == 0 ? add->args[1] : add->args[0];
    if (add->args[0] == 0 || add->args[1] == 0) {
      if (const ::isaac::EpilogueInst *i = inst(other); isConversion(i))
        other = i->args[0];
      if (other == 1)
        beta = 1;
    }
  }
  // Nothing else may be computed (all instructions are the ones above).
  if (!beta || llvm::is_contained(used, false))
    return std::nullopt;
  return beta;
}

/// Classifies the epilogue of `op`: the identity (beta = 0), `x + C` with C
/// the output itself in place (beta = 1), or a fused program. A plain GEMM
/// writes C in the program's output type when A, B and that type name a
/// kernel (docs/abi.md); otherwise the conversion makes it fused.
static FailureOr<EpilogueKind> classify(Region &epilogue, ValueRange inputs,
                                        ArrayAttr inputMaps, Value init,
                                        ::isaac::DType ab, std::string &why) {
  FailureOr<::isaac::EpilogueProgram> program =
      buildEpilogueProgram(epilogue, why);
  if (failed(program))
    return failure();
  EpilogueKind kind;
  ::isaac::GemmTypes types;
  types.ab = ab;
  types.c = program->outType;
  if (types.isValid()) {
    if (std::optional<double> beta =
            plainBeta(inputs, inputMaps, init, *program)) {
      kind.beta = *beta;
      kind.cType = program->outType;
      return kind;
    }
  }
  kind.fused = std::move(*program);
  return kind;
}

struct LowerToGPUPass
    : public mlir::isaac::impl::IsaacLowerToGPUBase<LowerToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const ::isaac::ChipInfo *chipInfo = ::isaac::findChip(chip);
    if (!chipInfo) {
      module.emitError() << "unknown target chip '" << chip
                         << "'; known chips: " << ::isaac::knownChips();
      return signalPassFailure();
    }
    // Empty `features`: the chip table's PTX version. An explicit one wins,
    // unless it is older than the chip, on which LLVM would abort.
    targetFeatures = features.empty() ? chipInfo->ptxFeature() : features;
    std::string whyNot = ::isaac::checkPtxFeatures(*chipInfo, targetFeatures);
    if (!whyNot.empty()) {
      module.emitError() << "isaac-lower-to-gpu: " << whyNot;
      return signalPassFailure();
    }
    vectorRedF32 = ::isaac::hasVectorRedF32(
        *chipInfo, ::isaac::selectedPtx(*chipInfo, targetFeatures));
    SmallVector<Operation *> gemms, convs;
    module.walk([&](Operation *op) {
      if (isGemmCandidate(op))
        gemms.push_back(op);
      else if (isConvCandidate(op) &&
               (isa<ConvOp>(op) ||
                op->hasAttr(IsaacDialect::getConfigAttrName())))
        convs.push_back(op);
    });
    bool failed = false;
    for (Operation *op : gemms)
      if (::mlir::failed(lower(module, op)))
        failed = true;
    for (Operation *op : convs)
      if (::mlir::failed(lowerConv(module, op)))
        failed = true;
    if (failed)
      signalPassFailure();
  }

  /// A remark for GEMMs left alone (only with remark-skipped), or an error
  /// under `strict`. An isaac.gemm left alone is decomposed into linalg.
  LogicalResult skip(Operation *op, const Twine &why) {
    if (strict)
      return op->emitError() << "isaac cannot lower this operation: " << why;
    if (remarkSkipped)
      op->emitRemark() << "isaac: left untouched: " << why;
    if (auto gemm = dyn_cast<GemmOp>(op); gemm && gemm.hasPureBufferSemantics())
      decomposeGemm(gemm);
    return success();
  }

  /// A linalg.fill of zero that immediately precedes `op` on its output
  /// buffer, which beta = 0 makes redundant.
  static linalg::FillOp zeroFillBefore(Operation *op, Value c) {
    auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
    if (!fill || !fill.hasPureBufferSemantics() || fill.getDpsInits()[0] != c)
      return {};
    auto cst = fill.value().getDefiningOp<arith::ConstantOp>();
    auto value = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
    return value && value.getValueAsDouble() == 0.0 ? fill : linalg::FillOp();
  }

  LogicalResult lower(ModuleOp module, Operation *op) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    auto gemmOp = dyn_cast<GemmOp>(op);
    if ((linalgOp && !linalgOp.hasPureBufferSemantics()) ||
        (gemmOp && !gemmOp.hasPureBufferSemantics()))
      return skip(op, "operates on tensors; bufferize first "
                      "(--isaac-pipeline does)");
    std::string reason;
    FailureOr<GemmMatch> match = matchGemm(op, reason);
    if (::mlir::failed(match))
      return skip(op, reason);
    auto configAttr =
        op->getAttrOfType<GemmConfigAttr>(IsaacDialect::getConfigAttrName());
    if (!configAttr)
      return skip(op, "no isaac.config (isaac-select-config chooses one)");

    GemmKernelSpec spec;
    spec.config = configAttr.getConfig();
    spec.chip = chip;
    spec.vectorRedF32 = vectorRedF32;
    spec.dtype = match->shape.dtype;
    spec.cType = match->shape.cType;
    spec.layout = match->shape.layout;
    // The mma family on f32 operands multiplies in TF32, which a GEMM must
    // have opted in to (isaac-select-config sets isaac.tf32 when it chose
    // TF32 for its tf32 option).
    spec.tf32 = spec.config.family == ::isaac::GemmFamily::Mma &&
                spec.dtype == ::isaac::DType::F32;
    if (spec.tf32 && !op->hasAttr(IsaacDialect::getTF32AttrName()))
      return op->emitError()
             << "isaac: an mma configuration on f32 operands multiplies in "
                "TF32; opt in with the "
             << IsaacDialect::getTF32AttrName()
             << " attribute (or isaac-select-config's tf32 option)";
    // The dialect verified the configuration for the chip named in the IR;
    // the pass may target another one.
    if (::mlir::failed(verifyGemmConfig([&] { return op->emitError(); },
                                        spec.config, spec.dtype, chip)))
      return failure();

    double beta = 1.0; // linalg.matmul on memrefs accumulates: C += A·B
    SmallVector<Value> inputs;
    ArrayAttr inputMaps;
    linalg::FillOp deadFill;
    if (gemmOp) {
      std::string why;
      FailureOr<EpilogueKind> kind =
          classify(gemmOp.getEpilogue(), gemmOp.getInputs(),
                   gemmOp.getInputMaps(), gemmOp.getInit(), spec.dtype, why);
      if (::mlir::failed(kind))
        return skip(op, why);
      beta = kind->beta;
      spec.cType = kind->cType;
      if (kind->fused) {
        spec.epilogue = std::move(kind->fused);
        inputs.assign(gemmOp.getInputs().begin(), gemmOp.getInputs().end());
        inputMaps = gemmOp.getInputMaps();
        for (Value in : inputs)
          if (!cast<MemRefType>(in.getType()).getLayout().isIdentity() &&
              !cast<MemRefType>(in.getType()).isStrided())
            return skip(op, "an epilogue input has a non-strided layout");
        setInputDims(*spec.epilogue, inputMaps,
                     cast<ShapedType>(match->c.getType()).getRank());
        beta = 0;
      }
    } else if ((deadFill = zeroFillBefore(op, match->c))) {
      beta = 0; // C = A·B overwrites every element the fill wrote
    }

    std::string name = spec.kernelName();
    OpBuilder builder(module.getContext());
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(name);
    if (::mlir::failed(checkEpilogueHash(op, gpuModule, spec.epilogue, name)))
      return failure();
    if (!gpuModule) {
      gpuModule = createKernelModule(builder, module, op->getLoc(), name);
      if (spec.epilogue)
        gpuModule->setAttr(kEpilogueText,
                           builder.getStringAttr(spec.epilogue->str()));
      buildGemmKernel(builder, gpuModule, spec);
      buildSplitKHelpers(builder, gpuModule, spec);
    }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());

    builder.setInsertionPoint(op);
    LaunchGemmOp::create(
        builder, op->getLoc(), kernelRef(builder, name), match->a, match->b,
        match->c, inputs, configAttr, builder.getBoolAttr(spec.layout.transA),
        builder.getBoolAttr(spec.layout.transB), builder.getF64FloatAttr(1.0),
        builder.getF64FloatAttr(beta),
        spec.epilogue ? builder.getStringAttr(spec.epilogue->str())
                      : StringAttr(),
        spec.epilogue ? inputMaps : ArrayAttr());
    op->erase();
    if (deadFill)
      deadFill->erase();
    return success();
  }

  /// `@name::@name`: kernel `name` in the gpu.module of the same name.
  static SymbolRefAttr kernelRef(OpBuilder &builder, StringRef name) {
    return SymbolRefAttr::get(
        builder.getStringAttr(name),
        {FlatSymbolRefAttr::get(builder.getStringAttr(name))});
  }

  /// The split-K helper kernels (docs/abi.md) a kernel of `spec` with
  /// KG > 1 launches with, unless its slices sum inside the launch (kc).
  /// They work on the accumulator's type; a 16-bit C has no atomic mode:
  /// only its reducer, which converts.
  static void buildSplitKHelpers(OpBuilder &builder, gpu::GPUModuleOp gpuModule,
                                 const GemmKernelSpec &spec) {
    if (!spec.config.splitsAcrossGrid())
      return;
    if (spec.epilogue) {
      getOrBuildEpilogueReduceKernel(builder, gpuModule, spec.accType(),
                                     *spec.epilogue);
      return;
    }
    if (spec.cType == spec.accType())
      getOrBuildScaleKernel(builder, gpuModule, spec.cType);
    getOrBuildSplitKReduceKernel(builder, gpuModule, spec.cType);
  }

  /// A gpu.module `name` for one kernel (and its split-K helpers) at the
  /// end of `module`, targeting the pass's chip.
  gpu::GPUModuleOp createKernelModule(OpBuilder &builder, ModuleOp module,
                                      Location loc, StringRef name) {
    builder.setInsertionPointToEnd(module.getBody());
    auto target =
        NVVM::NVVMTargetAttr::get(module.getContext(), /*optLevel=*/3,
                                  "nvptx64-nvidia-cuda", chip, targetFeatures);
    return gpu::GPUModuleOp::create(builder, loc, name,
                                    builder.getArrayAttr({target}));
  }

  /// A configured convolution on memrefs becomes an isaac.launch_conv of
  /// its conv kernel. linalg convolutions on memrefs accumulate into the
  /// output (beta = 1), unless a zero fill of it precedes them (beta = 0,
  /// the fill dropped); an isaac.conv's epilogue is the identity (beta =
  /// 0), an accumulation in place (beta = 1) or fused into the kernel.
  /// One isaac does not take is left to isaac-offload's generic path (an
  /// isaac.conv decomposed into linalg first), which says why.
  LogicalResult lowerConv(ModuleOp module, Operation *op) {
    auto convOp = dyn_cast<ConvOp>(op);
    auto leave = [&](const std::string &why) -> LogicalResult {
      if (strict)
        return op->emitError() << "isaac cannot lower this operation: " << why;
      if (convOp) {
        if (remarkSkipped)
          op->emitRemark() << "isaac: left untouched: " << why;
        if (convOp.hasPureBufferSemantics())
          decomposeConv(convOp);
      }
      return success();
    };
    bool onBuffers = convOp
                         ? convOp.hasPureBufferSemantics()
                         : cast<linalg::LinalgOp>(op).hasPureBufferSemantics();
    if (!onBuffers)
      return leave("operates on tensors; bufferize first (--isaac-pipeline "
                   "does)");
    std::string reason;
    FailureOr<ConvMatch> match = matchConv(op, reason);
    if (::mlir::failed(match))
      return leave(reason);
    auto configAttr =
        op->getAttrOfType<GemmConfigAttr>(IsaacDialect::getConfigAttrName());
    if (!configAttr)
      return leave("no isaac.config (isaac-select-config chooses one)");
    ConvKernelSpec spec;
    spec.config = configAttr.getConfig();
    spec.chip = chip;
    spec.vectorRedF32 = vectorRedF32;
    spec.types = match->shape.types;
    spec.layout = match->shape.layout;
    // The dialect verified the GEMM rules for the chip named in the IR; the
    // pass may target another one, and the conv rules read the shape.
    if (::mlir::failed(verifyGemmConfig([&] { return op->emitError(); },
                                        spec.config, spec.types.ab, chip)))
      return failure();
    std::vector<::isaac::Violation> v = ::isaac::checkConvLegality(
        spec.config, match->shape, *::isaac::getChipLimits(chip));
    if (!v.empty())
      return op->emitError()
             << "isaac: the isaac.config of this convolution is illegal for "
                "it on "
             << chip << " (rule " << v.front().rule
             << "): " << v.front().message;

    double beta = 1.0;
    linalg::FillOp deadFill;
    OpBuilder builder(module.getContext());
    SmallVector<Value> inputs;
    ArrayAttr inputMaps;
    if (convOp) {
      std::string why;
      FailureOr<EpilogueKind> kind =
          classify(convOp.getEpilogue(), convOp.getInputs(),
                   convOp.getInputMaps(), convOp.getInit(), spec.types.ab, why);
      if (::mlir::failed(kind))
        return leave(why);
      beta = kind->beta;
      spec.types.c = kind->cType;
      if (kind->fused) {
        spec.types.c = spec.types.ab;
        spec.epilogue = std::move(kind->fused);
        beta = 0;
        // The kernel reads the inputs in the implicit GEMM's (m, n) =
        // (n*P*Q + p*Q + q, k) space: a residual as an (N*P*Q) x K matrix,
        // a per-channel vector along n, a scalar.
        builder.setInsertionPoint(op);
        MLIRContext *ctx = op->getContext();
        SmallVector<Attribute> maps;
        for (auto [input, mapAttr] :
             llvm::zip(convOp.getInputs(), convOp.getInputMaps())) {
          AffineMap map = cast<AffineMapAttr>(mapAttr).getValue();
          auto type = cast<MemRefType>(input.getType());
          if (map.getNumResults() == 4) {
            if (!memref::CollapseShapeOp::isGuaranteedCollapsible(
                    type, {{0, 1, 2}, {3}}))
              return leave("an epilogue input is not contiguous along its "
                           "N, P and Q dimensions");
            input = memref::CollapseShapeOp::create(
                builder, op->getLoc(), input,
                ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
            map = AffineMap::getMultiDimIdentityMap(2, ctx);
          } else if (map.getNumResults() == 1) {
            map = AffineMap::get(2, 0, getAffineDimExpr(1, ctx));
          } else {
            map = AffineMap::get(2, 0, {}, ctx);
          }
          if (!type.getLayout().isIdentity() && !type.isStrided())
            return leave("an epilogue input has a non-strided layout");
          inputs.push_back(input);
          maps.push_back(AffineMapAttr::get(map));
        }
        inputMaps = builder.getArrayAttr(maps);
        setInputDims(*spec.epilogue, inputMaps, /*rank=*/2);
      }
    } else if ((deadFill = zeroFillBefore(op, match->output))) {
      beta = 0.0;
    }
    std::string name = spec.kernelName();
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(name);
    if (::mlir::failed(checkEpilogueHash(op, gpuModule, spec.epilogue, name)))
      return failure();
    if (!gpuModule) {
      gpuModule = createKernelModule(builder, module, op->getLoc(), name);
      if (spec.epilogue)
        gpuModule->setAttr(kEpilogueText,
                           builder.getStringAttr(spec.epilogue->str()));
      buildConvKernel(builder, gpuModule, spec);
      // The split-K protocol of the implicit GEMM (docs/abi.md).
      buildSplitKHelpers(builder, gpuModule, spec.gemmSpec());
    }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    const ::isaac::ConvShape &s = match->shape;
    builder.setInsertionPoint(op);
    LaunchConvOp::create(
        builder, op->getLoc(), kernelRef(builder, name), match->input,
        match->filter, match->output, inputs, configAttr,
        builder.getStringAttr(::isaac::convLayoutName(s.layout)),
        builder.getDenseI64ArrayAttr({s.strideH, s.strideW}),
        builder.getDenseI64ArrayAttr({s.dilationH, s.dilationW}),
        builder.getDenseI64ArrayAttr({s.padTop, s.padLeft}),
        builder.getF64FloatAttr(1.0), builder.getF64FloatAttr(beta),
        spec.epilogue ? builder.getStringAttr(spec.epilogue->str())
                      : StringAttr(),
        spec.epilogue ? inputMaps : ArrayAttr());
    op->erase();
    if (deadFill)
      deadFill->erase();
    return success();
  }

  /// Kernel names carry a 64-bit hash of their epilogue; a collision would
  /// reuse a kernel computing something else.
  static LogicalResult
  checkEpilogueHash(Operation *op, gpu::GPUModuleOp gpuModule,
                    const std::optional<::isaac::EpilogueProgram> &epilogue,
                    StringRef name) {
    if (!gpuModule || !epilogue)
      return success();
    auto text = gpuModule->getAttrOfType<StringAttr>(kEpilogueText);
    if (!text || text.getValue() != epilogue->str())
      return op->emitError()
             << "isaac: two different epilogues hash to the kernel name "
             << name;
    return success();
  }
  static constexpr StringLiteral kEpilogueText = "isaac.epilogue";

  /// The NVPTX features of the kernels' NVVM target (runOnOperation).
  std::string targetFeatures;
  /// Whether that target has red.global.add.v2.f32 (GemmKernelSpec).
  bool vectorRedF32 = false;
};
} // namespace
