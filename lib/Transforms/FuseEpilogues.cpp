//===- FuseEpilogues.cpp - GEMMs with fused fills and epilogues -----------===//
//
// On tensors, where use-def chains say what consumes a GEMM's result, each
// linalg.matmul / batch_matmul isaac can compile becomes an isaac.gemm whose
// epilogue region absorbs the fill of its init and the elementwise ops that
// follow it. Everything the epilogue reads besides the accumulated value
// becomes an input with a map from the output's iteration space, which the
// kernel reads per element (docs/abi.md, "Fused epilogues").
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

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

/// Builds an isaac.gemm replacing `old` (a linalg GEMM or an isaac.gemm),
/// with `inputs`, `init`, and an epilogue region whose body `buildBody`
/// fills: it receives the new block's arguments (x, then one per input)
/// and returns the value to yield.
static GemmOp
buildGemm(RewriterBase &rewriter, Location loc, Value a, Value b, bool transA,
          bool transB, ArrayRef<Input> inputs, Value init,
          function_ref<Value(OpBuilder &, ValueRange)> buildBody) {
  SmallVector<Value> inputValues;
  SmallVector<Attribute> maps;
  // The accumulated value: f32 for 16-bit operands (GemmOp's accumulation
  // type), else the operands' type.
  Type abTy = cast<ShapedType>(a.getType()).getElementType();
  Type accTy =
      abTy.isF16() || abTy.isBF16() ? Type(rewriter.getF32Type()) : abTy;
  SmallVector<Type> argTypes = {accTy};
  SmallVector<Location> argLocs = {loc};
  for (const Input &in : inputs) {
    inputValues.push_back(in.value);
    maps.push_back(AffineMapAttr::get(in.map));
    argTypes.push_back(cast<ShapedType>(in.value.getType()).getElementType());
    argLocs.push_back(loc);
  }
  auto gemm = GemmOp::create(rewriter, loc, TypeRange{init.getType()}, a, b,
                             inputValues, init,
                             transA ? rewriter.getUnitAttr() : UnitAttr(),
                             transB ? rewriter.getUnitAttr() : UnitAttr(),
                             rewriter.getArrayAttr(maps));
  Block *block =
      rewriter.createBlock(&gemm.getEpilogue(), {}, argTypes, argLocs);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(block);
  Value result = buildBody(rewriter, block->getArguments());
  YieldOp::create(rewriter, loc, result);
  return gemm;
}

/// Turns the linalg GEMM `op` into an isaac.gemm, folding a constant fill
/// of its init.
static GemmOp formGemm(RewriterBase &rewriter, linalg::LinalgOp op,
                       const GemmMatch &match) {
  Location loc = op.getLoc();
  Value init = match.c;
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
  GemmOp gemm = buildGemm(
      rewriter, loc, match.a, match.b, match.shape.layout.transA,
      match.shape.layout.transB, inputs, init,
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
  for (NamedAttribute attr : op->getDiscardableAttrs())
    gemm->setAttr(attr.getName(), attr.getValue());
  rewriter.replaceOp(op, gemm.getResults());
  return gemm;
}

/// Appends the body of `user`, the single consumer of `gemm`'s result, to
/// the epilogue; returns the new isaac.gemm.
static FailureOr<GemmOp> fuseConsumer(RewriterBase &rewriter, GemmOp gemm,
                                      linalg::LinalgOp user) {
  Value result = gemm.getResult(0);
  SmallVector<Input> inputs;
  for (auto [v, m] : llvm::zip(gemm.getInputs(), gemm.getInputMaps()))
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
    Input in = lookThroughCopies(
        {operand.get(), user.getMatchingIndexingMap(&operand)});
    auto it = llvm::find(inputs, in);
    if (it == inputs.end()) {
      inputs.push_back(in);
      it = inputs.end() - 1;
    }
    source.push_back(static_cast<int>(it - inputs.begin()));
  }
  if (inputs.size() > static_cast<size_t>(::isaac::kMaxEpilogueInputs))
    return failure();

  // A consumer that updates the GEMM's result in place (outs(%result))
  // writes where the GEMM would have.
  Value init = user.getDpsInitOperand(0)->get();
  if (init == result)
    init = gemm.getInit();
  rewriter.setInsertionPoint(user);
  Region &oldRegion = gemm.getEpilogue();
  GemmOp fused = buildGemm(
      rewriter, gemm.getLoc(), gemm.getA(), gemm.getB(), gemm.getTransposeA(),
      gemm.getTransposeB(), inputs, init,
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
  for (NamedAttribute attr : gemm->getDiscardableAttrs())
    fused->setAttr(attr.getName(), attr.getValue());
  rewriter.replaceOp(user, fused.getResults());
  rewriter.eraseOp(gemm);
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
    SmallVector<linalg::LinalgOp> gemms;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
          op.hasPureTensorSemantics())
        gemms.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // Producers of the ops fused away (fills, broadcasts, empty tensors):
    // erased at the end if nothing else uses them.
    SetVector<Operation *> producers;
    for (linalg::LinalgOp op : gemms) {
      noteProducersOf(op, producers);
      std::string reason;
      FailureOr<GemmMatch> match = matchGemm(op, reason);
      if (failed(match))
        continue; // left for the generic GPU path, which says why
      producers.remove(op);
      GemmOp gemm = formGemm(rewriter, op, *match);
      while (true) {
        Value result = gemm.getResult(0);
        if (!result.hasOneUse())
          break;
        auto user = dyn_cast<linalg::LinalgOp>(*result.getUsers().begin());
        if (!user)
          break;
        bool remarkWorthy = false;
        std::string why = cannotFuse(user, result, remarkWorthy);
        if (!why.empty()) {
          if (remarkWorthy)
            user->emitRemark() << "isaac: not fused into the epilogue of the "
                                  "GEMM at "
                               << gemm.getLoc() << ": " << why;
          break;
        }
        noteProducersOf(user, producers);
        producers.remove(user);
        producers.remove(gemm);
        FailureOr<GemmOp> fused = fuseConsumer(rewriter, gemm, user);
        if (failed(fused)) {
          user->emitRemark()
              << "isaac: not fused into the epilogue of the "
                 "GEMM at "
              << gemm.getLoc() << ": more than " << ::isaac::kMaxEpilogueInputs
              << " epilogue inputs";
          break;
        }
        gemm = *fused;
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
