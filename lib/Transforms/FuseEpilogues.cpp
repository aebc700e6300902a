//===- FuseEpilogues.cpp - GEMMs with fused fills and epilogues -----------===//
//
// On tensors, where use-def chains say what consumes a GEMM's result, each
// linalg.matmul / batch_matmul isaac can compile becomes an isaac.gemm (each
// convolution isaac compiles an isaac.conv) whose epilogue region absorbs
// the fill of its init and the elementwise ops that follow it. Everything the
// epilogue reads besides the accumulated value becomes an input with a map from
// the output's iteration space, which the kernel reads per element
// (docs/abi.md, "Fused epilogues").
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "ConvMatch.h"
#include "EpilogueProgram.h"
#include "GemmMatch.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACFUSEEPILOGUES
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

namespace {

/// One epilogue input: a tensor read through `map` (from the output's
/// iteration space to the tensor's dimensions).
struct Input {
  Value value;
  AffineMap map;
  bool operator==(const Input &o) const {
    return value == o.value && map == o.map;
  }
};

/// Where the element an elementwise consumer reads really comes from. A
/// producer that only moves elements (linalg.broadcast, linalg.transpose,
/// a generic whose body yields its single input) is looked through, so a
/// bias broadcast to the full output is read from the vector itself.
static Input lookThroughCopies(Input in) {
  while (auto producer = in.value.getDefiningOp<linalg::LinalgOp>()) {
    if (!producer.hasPureTensorSemantics() || producer.getNumDpsInputs() != 1 ||
        producer.getNumDpsInits() != 1 || producer->getNumResults() != 1 ||
        producer.getNumParallelLoops() != producer.getNumLoops())
      break;
    OpOperand *src = producer.getDpsInputOperand(0);
    AffineMap outMap =
        producer.getIndexingMapMatchingResult(producer->getResult(0));
    AffineMap srcMap = producer.getMatchingIndexingMap(src);
    if (!outMap.isIdentity() || !srcMap.isProjectedPermutation() ||
        !isa<RankedTensorType>(src->get().getType()))
      break;
    // The body must yield the input element unchanged.
    Block *body = producer.getBlock();
    auto yield = body->getTerminator();
    if (body->getOperations().size() != 1 || yield->getNumOperands() != 1 ||
        yield->getOperand(0) != producer.getMatchingBlockArgument(src))
      break;
    in = {src->get(), srcMap.compose(in.map)};
  }
  return in;
}

/// Why `user` (a consumer of a GEMM's result `value`) cannot join the
/// epilogue; empty when it can. `remarkWorthy` says whether the user looked
/// like an elementwise op, so that the reason is worth a remark.
static std::string cannotFuse(linalg::LinalgOp user, Value value,
                              bool &remarkWorthy) {
  remarkWorthy = false;
  auto type = cast<RankedTensorType>(value.getType());
  if (!user.hasPureTensorSemantics() || user.getNumDpsInits() != 1 ||
      user->getNumResults() != 1 ||
      user.getNumLoops() != static_cast<unsigned>(type.getRank()) ||
      user.getNumParallelLoops() != user.getNumLoops())
    return "not an elementwise operation";
  if (!user.getIndexingMapMatchingResult(user->getResult(0)).isIdentity())
    return "its output is not indexed by the identity map";
  bool readsValue = false;
  for (OpOperand &operand : user->getOpOperands()) {
    if (operand.get() != value)
      continue;
    if (!user.getMatchingIndexingMap(&operand).isIdentity())
      return "it reads the GEMM's result through a non-identity map";
    // As its init (outs), the result must be read by the body.
    if (user.isDpsInput(&operand) ||
        !user.getMatchingBlockArgument(&operand).use_empty())
      readsValue = true;
  }
  if (!readsValue)
    return "it does not read the GEMM's result";
  for (OpOperand &operand : user->getOpOperands())
    if (!isa<RankedTensorType>(operand.get().getType()) &&
        operand.get() != value)
      return "it has a scalar (non-tensor) operand";
  for (OpOperand &operand : user->getOpOperands())
    if (!user.getMatchingIndexingMap(&operand).isProjectedPermutation())
      return "an operand's indexing map is not a projected permutation";
  remarkWorthy = true;
  for (Operation &op : user.getBlock()->without_terminator()) {
    std::string why;
    if (!isEpilogueOp(&op, why))
      return why;
    for (Value v : op.getOperands())
      if (v.getParentRegion() != &user->getRegion(0) &&
          !v.getDefiningOp<arith::ConstantOp>())
        return "its body uses a value defined outside it that is not a "
               "constant";
  }
  return "";
}

/// The ops this pass forms, isaac.gemm and isaac.conv, differ only in their
/// two main operands and attributes; everything about the epilogue is
/// shared. Each is rebuilt whenever its inputs or init change.
using CreateFn = function_ref<Operation *(RewriterBase &, ArrayRef<Value>,
                                          ArrayAttr, Value)>;

/// Builds the op `create` makes with `inputs` and `init`, and an epilogue
/// region whose body `buildBody` fills: it receives the new block's
/// arguments (x of type `accTy`, then one per input) and returns the value
/// to yield.
static Operation *
buildFused(RewriterBase &rewriter, Location loc, Type accTy,
           ArrayRef<Input> inputs, Value init, CreateFn create,
           function_ref<Value(OpBuilder &, ValueRange)> buildBody) {
  SmallVector<Value> inputValues;
  SmallVector<Attribute> maps;
  SmallVector<Type> argTypes = {accTy};
  SmallVector<Location> argLocs = {loc};
  for (const Input &in : inputs) {
    inputValues.push_back(in.value);
    maps.push_back(AffineMapAttr::get(in.map));
    argTypes.push_back(cast<ShapedType>(in.value.getType()).getElementType());
    argLocs.push_back(loc);
  }
  Operation *op =
      create(rewriter, inputValues, rewriter.getArrayAttr(maps), init);
  Block *block = rewriter.createBlock(&op->getRegion(0), {}, argTypes, argLocs);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(block);
  Value result = buildBody(rewriter, block->getArguments());
  YieldOp::create(rewriter, loc, result);
  return op;
}

/// The accumulated value's type for operands of element type `abTy`: f32
/// for 16-bit operands, else theirs (GemmOp / ConvOp::getAccumulatorType).
static Type accumulatorType(Builder &b, Value operand) {
  Type abTy = cast<ShapedType>(operand.getType()).getElementType();
  return abTy.isF16() || abTy.isBF16() ? Type(b.getF32Type()) : abTy;
}

/// How to rebuild `op` (an isaac.gemm or isaac.conv) with other inputs and
/// another init.
static Operation *recreate(Operation *op, RewriterBase &rewriter,
                           ArrayRef<Value> inputs, ArrayAttr maps, Value init) {
  if (auto gemm = dyn_cast<GemmOp>(op))
    return GemmOp::create(rewriter, op->getLoc(), TypeRange{init.getType()},
                          gemm.getA(), gemm.getB(), inputs, init,
                          gemm.getTransposeAAttr(), gemm.getTransposeBAttr(),
                          maps);
  auto conv = cast<ConvOp>(op);
  return ConvOp::create(rewriter, op->getLoc(), TypeRange{init.getType()},
                        conv.getInput(), conv.getFilter(), inputs, init,
                        conv.getLayoutAttr(), conv.getStridesAttr(),
                        conv.getDilationsAttr(), maps, conv.getPaddingAttr());
}

static ValueRange inputsOf(Operation *op) {
  if (auto gemm = dyn_cast<GemmOp>(op))
    return gemm.getInputs();
  return cast<ConvOp>(op).getInputs();
}
static ArrayAttr inputMapsOf(Operation *op) {
  if (auto gemm = dyn_cast<GemmOp>(op))
    return gemm.getInputMaps();
  return cast<ConvOp>(op).getInputMaps();
}
static Value initOf(Operation *op) {
  if (auto gemm = dyn_cast<GemmOp>(op))
    return gemm.getInit();
  return cast<ConvOp>(op).getInit();
}

/// Turns the linalg GEMM or convolution `op`, whose main operands are
/// `lhs` and `rhs` and whose init is `init`, into the op `create` makes
/// (isaac.gemm or isaac.conv), folding a constant fill of its init.
static Operation *formFused(RewriterBase &rewriter, Operation *op, Value lhs,
                            Value init, CreateFn create) {
  Location loc = op->getLoc();
  Type outTy = cast<ShapedType>(init.getType()).getElementType();
  std::optional<double> fillValue;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    auto cst = fill.value().getDefiningOp<arith::ConstantOp>();
    if (cst && isa<FloatAttr>(cst.getValue()) &&
        fill.getDpsInits()[0].getType() == init.getType()) {
      fillValue = cast<FloatAttr>(cst.getValue()).getValueAsDouble();
      init = fill.getDpsInits()[0];
    }
  }
  SmallVector<Input> inputs;
  int64_t rank = cast<ShapedType>(init.getType()).getRank();
  if (!fillValue) // C += A·B: the old C is an input read in place.
    inputs.push_back({init, rewriter.getMultiDimIdentityMap(rank)});
  rewriter.setInsertionPoint(op);
  Operation *fused = buildFused(
      rewriter, loc, accumulatorType(rewriter, lhs), inputs, init, create,
      [&](OpBuilder &b, ValueRange args) -> Value {
        // The sum is formed in the accumulation type (f32 for
        // 16-bit operands) and rounded once to C's type.
        Type accTy = args[0].getType();
        auto convert = [&](Value v, Type to) -> Value {
          unsigned from = v.getType().getIntOrFloatBitWidth();
          if (v.getType() == to)
            return v;
          if (to.getIntOrFloatBitWidth() > from)
            return arith::ExtFOp::create(b, loc, to, v);
          return arith::TruncFOp::create(b, loc, to, v);
        };
        if (!fillValue)
          return convert(
              arith::AddFOp::create(b, loc, convert(args[1], accTy), args[0]),
              outTy);
        // A zero fill (of either sign) is beta = 0: C is never read.
        if (*fillValue == 0.0)
          return convert(args[0], outTy);
        Value c = arith::ConstantOp::create(b, loc,
                                            b.getFloatAttr(accTy, *fillValue));
        return convert(arith::AddFOp::create(b, loc, c, args[0]), outTy);
      });
  // isaac's own attributes (a configuration written by hand) go along;
  // linalg's caches (linalg.memoized_indexing_maps) describe the old op.
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (!attr.getName().strref().starts_with("linalg."))
      fused->setAttr(attr.getName(), attr.getValue());
  rewriter.replaceOp(op, fused->getResults());
  return fused;
}

/// isaac.gemm of the linalg GEMM `op`.
static Operation *formGemm(RewriterBase &rewriter, linalg::LinalgOp op,
                           const GemmMatch &match) {
  return formFused(
      rewriter, op, match.a, match.c,
      [&](RewriterBase &b, ArrayRef<Value> inputs, ArrayAttr maps,
          Value init) -> Operation * {
        return GemmOp::create(
            b, op.getLoc(), TypeRange{init.getType()}, match.a, match.b, inputs,
            init, match.shape.layout.transA ? b.getUnitAttr() : UnitAttr(),
            match.shape.layout.transB ? b.getUnitAttr() : UnitAttr(), maps);
      });
}

/// The unpadded input and (top, left) padding of a convolution whose input
/// is `input`, when that is a `tensor.pad` with zeros, static amounts and
/// padding only the spatial dimensions of an NHWC tensor; nullopt when not.
/// The kernel reads the padding as zeros by predication (no padded copy);
/// padding after the input beyond what the windows reach is never read.
static std::optional<std::pair<Value, SmallVector<int64_t>>>
foldablePad(Value input) {
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad || pad.getNofold())
    return std::nullopt;
  Value value = pad.getConstantPaddingValue();
  auto cst = value ? value.getDefiningOp<arith::ConstantOp>() : nullptr;
  auto fp = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
  if (!fp || !fp.getValue().isZero())
    return std::nullopt;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (low.size() != 4 || llvm::any_of(low, ShapedType::isDynamic) ||
      llvm::any_of(high, ShapedType::isDynamic))
    return std::nullopt;
  if (low[0] || low[3] || high[0] || high[3])
    return std::nullopt;
  return std::make_pair(pad.getSource(), SmallVector<int64_t>{low[1], low[2]});
}

/// isaac.conv of the linalg convolution `op`, a zero `tensor.pad` of its
/// input folded into `padding`.
static Operation *formConv(RewriterBase &rewriter, linalg::LinalgOp op,
                           const ConvMatch &match) {
  const ::isaac::ConvShape &s = match.shape;
  Value input = match.input;
  DenseI64ArrayAttr padding;
  if (auto folded = foldablePad(input)) {
    input = folded->first;
    padding = rewriter.getDenseI64ArrayAttr(folded->second);
  }
  return formFused(
      rewriter, op, match.input, match.output,
      [&](RewriterBase &b, ArrayRef<Value> inputs, ArrayAttr maps,
          Value init) -> Operation * {
        return ConvOp::create(
            b, op.getLoc(), TypeRange{init.getType()}, input, match.filter,
            inputs, init, b.getStringAttr(::isaac::convLayoutName(s.layout)),
            b.getDenseI64ArrayAttr({s.strideH, s.strideW}),
            b.getDenseI64ArrayAttr({s.dilationH, s.dilationW}), maps, padding);
      });
}

/// Appends the body of `user`, the single consumer of `fusedOp`'s result
/// (an isaac.gemm or isaac.conv), to the epilogue; returns the new op, or
/// failure with `why` set.
static FailureOr<Operation *> fuseConsumer(RewriterBase &rewriter,
                                           Operation *fusedOp,
                                           linalg::LinalgOp user,
                                           std::string &why) {
  Value result = fusedOp->getResult(0);
  SmallVector<Input> inputs;
  for (auto [v, m] : llvm::zip(inputsOf(fusedOp), inputMapsOf(fusedOp)))
    inputs.push_back({v, cast<AffineMapAttr>(m).getValue()});
  // Where each block argument of the user's body comes from: -1 for the
  // GEMM's value, else an index into `inputs`.
  SmallVector<int> source;
  Block *userBody = user.getBlock();
  for (OpOperand &operand : user->getOpOperands()) {
    BlockArgument arg = user.getMatchingBlockArgument(&operand);
    if (operand.get() == result) {
      source.push_back(-1);
      continue;
    }
    if (user.isDpsInit(&operand) && arg.use_empty()) {
      source.push_back(-2); // an init the body does not read
      continue;
    }
    Input direct = {operand.get(), user.getMatchingIndexingMap(&operand)};
    Input in = lookThroughCopies(direct);
    // A convolution's kernel addresses its inputs by output pixel and
    // channel (ConvOp::isEpilogueInputMap): a copy that permutes (the NHWC
    // transpose of an NCHW residual) is read as its result instead.
    if (isa<ConvOp>(fusedOp) && !ConvOp::isEpilogueInputMap(in.map))
      in = direct;
    if (isa<ConvOp>(fusedOp) && !ConvOp::isEpilogueInputMap(in.map)) {
      why = "it reads an operand through a map other than the identity, "
            "(n, p, q, k) -> (k) and (n, p, q, k) -> (), which a "
            "convolution's epilogue cannot address";
      return failure();
    }
    auto it = llvm::find(inputs, in);
    if (it == inputs.end()) {
      inputs.push_back(in);
      it = inputs.end() - 1;
    }
    source.push_back(static_cast<int>(it - inputs.begin()));
  }
  if (inputs.size() > static_cast<size_t>(::isaac::kMaxEpilogueInputs)) {
    why = "more than " + std::to_string(::isaac::kMaxEpilogueInputs) +
          " epilogue inputs";
    return failure();
  }

  // A consumer that updates the result in place (outs(%result)) writes
  // where the GEMM or convolution would have.
  Value init = user.getDpsInitOperand(0)->get();
  if (init == result)
    init = initOf(fusedOp);
  rewriter.setInsertionPoint(user);
  Region &oldRegion = fusedOp->getRegion(0);
  Type accTy = oldRegion.front().getArgument(0).getType();
  Operation *fused = buildFused(
      rewriter, fusedOp->getLoc(), accTy, inputs, init,
      [&](RewriterBase &b, ArrayRef<Value> ins, ArrayAttr maps, Value init) {
        return recreate(fusedOp, b, ins, maps, init);
      },
      [&](OpBuilder &b, ValueRange args) -> Value {
        // The old epilogue, its arguments renumbered to the same inputs.
        IRMapping map;
        Block &old = oldRegion.front();
        for (auto [i, arg] : llvm::enumerate(old.getArguments()))
          map.map(arg, args[i]);
        for (Operation &op : old.without_terminator())
          b.clone(op, map);
        Value x = map.lookup(cast<YieldOp>(old.getTerminator()).getValue());
        // Then the consumer's body on the old epilogue's value.
        IRMapping umap;
        for (auto [arg, src] : llvm::zip(userBody->getArguments(), source))
          if (src == -1)
            umap.map(arg, x);
          else if (src >= 0)
            umap.map(arg, args[1 + src]);
        for (Operation &op : userBody->without_terminator()) {
          // Constants captured from outside are cloned in: epilogues are
          // self-contained.
          for (Value v : op.getOperands())
            if (!umap.contains(v) && v.getParentRegion() != &user->getRegion(0))
              umap.map(v, b.clone(*v.getDefiningOp())->getResult(0));
          b.clone(op, umap);
        }
        return umap.lookup(userBody->getTerminator()->getOperand(0));
      });
  for (NamedAttribute attr : fusedOp->getDiscardableAttrs())
    fused->setAttr(attr.getName(), attr.getValue());
  rewriter.replaceOp(user, fused->getResults());
  rewriter.eraseOp(fusedOp);
  return fused;
}

/// Adds the defining ops of `op`'s operands to `producers`.
static void noteProducersOf(Operation *op, SetVector<Operation *> &producers) {
  for (Value v : op->getOperands())
    if (Operation *def = v.getDefiningOp())
      producers.insert(def);
}

struct FuseEpiloguesPass
    : public mlir::isaac::impl::IsaacFuseEpiloguesBase<FuseEpiloguesPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if ((isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
           isConvCandidate(op)) &&
          op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // Producers of the ops fused away (fills, broadcasts, empty tensors):
    // erased at the end if nothing else uses them.
    SetVector<Operation *> producers;
    for (linalg::LinalgOp op : ops) {
      noteProducersOf(op, producers);
      std::string reason;
      Operation *fused = nullptr;
      if (isConvCandidate(op)) {
        FailureOr<ConvMatch> match = matchConv(op, reason);
        if (failed(match))
          continue; // left for the generic GPU path, which says why
        producers.remove(op);
        fused = formConv(rewriter, op, *match);
      } else {
        FailureOr<GemmMatch> match = matchGemm(op, reason);
        if (failed(match))
          continue;
        producers.remove(op);
        fused = formGemm(rewriter, op, *match);
      }
      StringRef what = isa<ConvOp>(fused) ? "convolution" : "GEMM";
      while (true) {
        Value result = fused->getResult(0);
        if (!result.hasOneUse())
          break;
        auto user = dyn_cast<linalg::LinalgOp>(*result.getUsers().begin());
        if (!user)
          break;
        bool remarkWorthy = false;
        std::string why = cannotFuse(user, result, remarkWorthy);
        if (!why.empty()) {
          if (remarkWorthy)
            user->emitRemark()
                << "isaac: not fused into the epilogue of the " << what
                << " at " << fused->getLoc() << ": " << why;
          break;
        }
        noteProducersOf(user, producers);
        producers.remove(user);
        producers.remove(fused);
        FailureOr<Operation *> next = fuseConsumer(rewriter, fused, user, why);
        if (failed(next)) {
          user->emitRemark()
              << "isaac: not fused into the epilogue of the " << what << " at "
              << fused->getLoc() << ": " << why;
          break;
        }
        fused = *next;
      }
    }
    // Fills, broadcasts and empty tensors that only fed fused ops are dead.
    bool erased = true;
    while (erased) {
      erased = false;
      for (Operation *op : llvm::make_early_inc_range(producers))
        if (op && isOpTriviallyDead(op)) {
          producers.remove(op);
          noteProducersOf(op, producers);
          rewriter.eraseOp(op);
          erased = true;
        }
    }
  }
};
} // namespace
