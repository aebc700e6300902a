//===- Offload.cpp - The generic GPU path ---------------------------------===//
//
// Every operation of a host function that computes on operand data and that
// isaac did not compile becomes a gpu.launch, through upstream MLIR:
// linalg -> scf.parallel (+ scf.for for reductions) -> one collapsed,
// tiled parallel dimension -> blocks and threads (SCFToGPU). Copies become
// gpu.memcpy where they can. docs/architecture.md, "The generic GPU path".
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "ConvMatch.h"
#include "DeviceMemory.h"
#include "GemmMatch.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACOFFLOAD
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

/// The remark's reason: why isaac did not compile `op` itself.
static std::string whyGeneric(Operation *op) {
  std::string reason;
  if (isa<linalg::ConvolutionOpInterface>(op)) {
    if (failed(matchConv(op, reason)))
      return reason;
  } else if (!isGemmCandidate(op)) {
    return "isaac compiles only linalg.matmul, linalg.batch_matmul and "
           "linalg.conv_2d_nhwc_hwcf/fhwc";
  } else if (failed(matchGemm(op, reason))) {
    return reason;
  }
  // The same GEMM or convolution isaac-lower-to-gpu would have taken.
  if (op->hasAttr(IsaacDialect::getConfigAttrName()))
    return "it carries an isaac.config but isaac-lower-to-gpu did not run "
           "before isaac-offload";
  return "no isaac.config (run isaac-select-config first)";
}

/// The number of iterations of `loop`, when its bounds are constants.
static std::optional<int64_t> staticTripCount(scf::ParallelOp loop) {
  int64_t total = 1;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return std::nullopt;
    total *= *u > *l ? llvm::divideCeil(*u - *l, *s) : 0;
  }
  return total;
}

/// Replaces an scf.parallel without reductions by the equivalent scf.for
/// nest (innermost dimension innermost).
static void sequentialize(RewriterBase &rewriter, scf::ParallelOp loop) {
  rewriter.setInsertionPoint(loop);
  scf::LoopNest nest =
      scf::buildLoopNest(rewriter, loop.getLoc(), loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep());
  SmallVector<Value> ivs;
  for (scf::ForOp f : nest.loops)
    ivs.push_back(f.getInductionVar());
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  Block *inner = nest.loops.back().getBody();
  rewriter.inlineBlockBefore(body, inner->getTerminator(), ivs);
  rewriter.eraseOp(loop);
}

namespace {
struct OffloadPass : public mlir::isaac::impl::IsaacOffloadBase<OffloadPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (blockSize < 1 || blockSize > 1024) {
      module.emitError() << "isaac-offload: block-size must be in [1, 1024], "
                            "got "
                         << blockSize;
      return signalPassFailure();
    }
    BufferPlacement placement(module);
    launches.clear();

    // Roots: the outermost operations to offload, in program order. Whatever
    // nests inside an scf.parallel goes with it.
    SmallVector<Operation *> roots;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp, gpu::LaunchOp>(op) ||
          (isa<func::FuncOp>(op) && !isHostFunction(op)))
        return WalkResult::skip();
      if (!op->getParentOfType<func::FuncOp>())
        return WalkResult::advance();
      if (isa<linalg::LinalgOp, memref::CopyOp, scf::ParallelOp>(op)) {
        roots.push_back(op);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });

    bool failed = false;
    SmallVector<Operation *> created;
    for (Operation *op : roots) {
      // The offload replaces `op` by what it makes, at its place.
      Operation *prev = op->getPrevNode(), *next = op->getNextNode();
      Block *block = op->getBlock();
      LogicalResult result =
          TypeSwitch<Operation *, LogicalResult>(op)
              .Case([&](memref::CopyOp copy) {
                return offloadCopy(copy, placement);
              })
              .Case([&](linalg::LinalgOp linalgOp) -> LogicalResult {
                if (!linalgOp.hasPureBufferSemantics())
                  return linalgOp.emitError()
                         << "isaac: '" << op->getName()
                         << "' operates on tensors; bufferize before "
                            "isaac-offload";
                if (::mlir::failed(announce(op)))
                  return failure();
                return offloadLinalg(linalgOp);
              })
              .Case([&](scf::ParallelOp loop) -> LogicalResult {
                if (loop.getNumResults() != 0)
                  return loop.emitError()
                         << "isaac: scf.parallel with reductions is not "
                            "supported on the generic GPU path (its results "
                            "would be read on the host)";
                if (::mlir::failed(announce(op)))
                  return failure();
                return offloadParallel(loop);
              });
      if (::mlir::failed(result)) {
        failed = true;
        continue;
      }
      for (Operation *it = prev ? prev->getNextNode() : &block->front();
           it != next; it = it->getNextNode())
        it->walk([&](Operation *inner) { created.push_back(inner); });
    }
    if (failed)
      return signalPassFailure();
    cleanUp(created);
    // Constants and sizes are computed in each kernel rather than passed:
    // a static extent stays a constant there (a division by a constant is a
    // multiplication), and the launch has fewer arguments.
    for (gpu::LaunchOp launch : launches)
      (void)sinkOperationsIntoLaunchOp(launch, [](Operation *op) {
        return isa<arith::ConstantOp, memref::DimOp>(op);
      });
  }

  /// The launches this run of the pass made.
  SmallVector<gpu::LaunchOp> launches;

  /// The one remark of an offloaded operation (an error under `strict`).
  LogicalResult announce(Operation *op) {
    std::string why = whyGeneric(op);
    if (strict)
      return op->emitError()
             << "isaac: '" << op->getName()
             << "' runs on the generic GPU path (untuned): " << why;
    op->emitRemark() << "isaac: '" << op->getName()
                     << "' runs on the generic GPU path (untuned): " << why;
    return success();
  }

  LogicalResult offloadCopy(memref::CopyOp copy,
                            const BufferPlacement &placement) {
    Value src = copy.getSource(), dst = copy.getTarget();
    bool hostSrc = placement.isHostOnly(src),
         hostDst = placement.isHostOnly(dst);
    if (hostSrc && hostDst)
      return success();
    auto srcTy = cast<MemRefType>(src.getType());
    auto dstTy = cast<MemRefType>(dst.getType());
    IRRewriter rewriter(copy);
    if (canCopyWithMemcpy(srcTy, dstTy)) {
      // A DMA, host or device on either side: not a kernel, no remark.
      rewriter.replaceOpWithNewOp<gpu::MemcpyOp>(copy, Type(), ValueRange(),
                                                 dst, src);
      return success();
    }
    if (hostSrc || hostDst)
      return copy.emitError()
             << "isaac: cannot copy between host and device memory through a "
                "non-identity layout ("
             << srcTy << " to " << dstTy << ")";
    if (::mlir::failed(announce(copy)))
      return failure();
    auto kernel = linalg::CopyOp::create(rewriter, copy.getLoc(), src, dst);
    rewriter.eraseOp(copy);
    return offloadLinalg(kernel);
  }

  LogicalResult offloadLinalg(linalg::LinalgOp op) {
    IRRewriter rewriter(op);
    Location loc = op.getLoc();

    // Parallel dimensions outermost, so that linalgOpToParallelLoops makes
    // one scf.parallel of all of them with the reductions inside, rather
    // than host loops around launches. Each output element still reduces
    // in the operation's order.
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<unsigned> order;
    for (auto [i, it] : llvm::enumerate(iterators))
      if (it == utils::IteratorType::parallel)
        order.push_back(i);
    bool hasParallel = !order.empty();
    for (auto [i, it] : llvm::enumerate(iterators))
      if (it != utils::IteratorType::parallel)
        order.push_back(i);
    if (!llvm::equal(order, llvm::seq<unsigned>(0, order.size()))) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> g =
            linalg::generalizeNamedOp(rewriter, op);
        if (::mlir::failed(g))
          return op.emitError() << "isaac: cannot generalize '" << op->getName()
                                << "' for the GPU";
        generic = *g;
      }
      FailureOr<linalg::GenericOp> interchanged =
          linalg::interchangeGenericOp(rewriter, generic, order);
      if (::mlir::failed(interchanged))
        return generic.emitError()
               << "isaac: cannot move the parallel dimensions outermost";
      op = *interchanged;
    }

    // Without a parallel dimension (a full reduction), one thread runs it.
    scf::ParallelOp wrapper;
    if (!hasParallel) {
      rewriter.setInsertionPoint(op);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      wrapper = scf::ParallelOp::create(rewriter, loc, zero, one, one);
      rewriter.moveOpBefore(op, wrapper.getBody()->getTerminator());
    }
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToParallelLoops(rewriter, op);
    if (::mlir::failed(loops))
      return op.emitError()
             << "isaac: cannot lower '" << op->getName() << "' to loops";
    rewriter.eraseOp(op);
    if (wrapper)
      return mapToGPU(rewriter, wrapper);
    for (Operation *loop : *loops)
      if (auto parallel = dyn_cast<scf::ParallelOp>(loop))
        return mapToGPU(rewriter, parallel);
    llvm_unreachable("a parallel dimension without a parallel loop");
  }

  LogicalResult offloadParallel(scf::ParallelOp loop) {
    IRRewriter rewriter(loop);
    // What runs in each thread must be sequential code: nested linalg
    // operations and copies become loops, nested parallel loops scf.for.
    SmallVector<Operation *> inner;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<linalg::LinalgOp, memref::CopyOp>(op))
        inner.push_back(op);
    });
    for (Operation *op : inner) {
      rewriter.setInsertionPoint(op);
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        linalgOp = linalg::CopyOp::create(rewriter, copy.getLoc(),
                                          copy.getSource(), copy.getTarget());
      if (!linalgOp.hasPureBufferSemantics() ||
          ::mlir::failed(linalg::linalgOpToLoops(rewriter, linalgOp)))
        return op->emitError() << "isaac: cannot lower '" << op->getName()
                               << "' to loops inside a GPU thread";
      if (linalgOp != op)
        rewriter.eraseOp(linalgOp);
      rewriter.eraseOp(op);
    }
    SmallVector<scf::ParallelOp> nested;
    loop.getBody()->walk([&](scf::ParallelOp p) { nested.push_back(p); });
    for (scf::ParallelOp p : nested) {
      if (p.getNumResults() != 0)
        return p.emitError() << "isaac: scf.parallel with reductions is not "
                                "supported on the generic GPU path";
      sequentialize(rewriter, p);
    }
    return mapToGPU(rewriter, loop);
  }

  /// One parallel loop (no reductions, nothing parallel inside) -> one
  /// gpu.launch. All dimensions are collapsed into one, innermost fastest,
  /// so that consecutive threads touch consecutive elements of the
  /// innermost dimension whatever the rank, and no dimension meets the
  /// 65535 limit of grid y and z. That dimension is tiled by the block size:
  /// tiles go to blocks (x), iterations within a tile to threads (x), and
  /// the threads past the end are guarded.
  LogicalResult mapToGPU(RewriterBase &rewriter, scf::ParallelOp loop) {
    MLIRContext *ctx = loop.getContext();
    Location loc = loop.getLoc();
    std::optional<int64_t> total = staticTripCount(loop);
    if (total && *total == 0) {
      rewriter.eraseOp(loop);
      return success();
    }
    int64_t threads = blockSize;
    if (total)
      threads = std::min<int64_t>(threads, *total);

    if (loop.getNumLoops() > 1) {
      Operation *before = loop->getPrevNode();
      Block *block = loop->getBlock();
      std::vector<unsigned> all(loop.getNumLoops());
      std::iota(all.begin(), all.end(), 0);
      collapseParallelLoops(rewriter, loop, {all});
      // The collapsed loop replaces `loop` at the same place.
      Operation *it = before ? before->getNextNode() : &block->front();
      while (!isa<scf::ParallelOp>(it))
        it = it->getNextNode();
      loop = cast<scf::ParallelOp>(it);
    }
    auto [outer, inner] =
        scf::tileParallelLoop(loop, {threads}, /*noMinMaxBounds=*/true);

    AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
    auto map = [&](gpu::Processor p) {
      return gpu::ParallelLoopDimMappingAttr::get(ctx, p, id, id);
    };
    if (::mlir::failed(
            gpu::setMappingAttr(outer, {map(gpu::Processor::BlockX)})) ||
        ::mlir::failed(
            gpu::setMappingAttr(inner, {map(gpu::Processor::ThreadX)})))
      return outer.emitError() << "isaac: cannot map this loop to the GPU";

    Operation *before = outer->getPrevNode();
    Block *block = outer->getBlock();
    RewritePatternSet patterns(ctx);
    populateParallelLoopToGPUPatterns(patterns);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureParallelLoopToGPULegality(target);
    if (::mlir::failed(applyPartialConversion(outer.getOperation(), target,
                                              std::move(patterns))))
      return emitError(loc) << "isaac: cannot turn this loop into a GPU "
                               "launch";
    Operation *it = before ? before->getNextNode() : &block->front();
    while (it && !isa<gpu::LaunchOp>(it))
      it = it->getNextNode();
    if (!it)
      return emitError(loc) << "isaac: cannot turn this loop into a GPU "
                               "launch";
    auto launch = cast<gpu::LaunchOp>(it);
    finalizeParallelLoopToGPUConversion(launch);
    launches.push_back(launch);
    // The conversion's marker also lands on the launch it creates, where
    // finalizeParallelLoopToGPUConversion (which looks at scf.parallel
    // only) leaves it.
    launch->removeAttr("SCFToGPU_visited");

    // An empty grid is an invalid launch: skip it when the size is only
    // known at run time.
    if (!total) {
      rewriter.setInsertionPoint(launch);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value nonEmpty = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, launch.getGridSizeX(), zero);
      auto guard = scf::IfOp::create(rewriter, loc, nonEmpty);
      rewriter.moveOpBefore(launch, guard.thenBlock()->getTerminator());
    }
    return success();
  }

  /// Folds what the offloads made (so that static bounds and strides are
  /// constants the kernels can use), and lowers the affine.apply of the
  /// SCF-to-GPU conversion to arith, which the rest of the pipeline
  /// handles. Only these operations: the rest of the host function, and
  /// launches that were there before, are left alone.
  void cleanUp(ArrayRef<Operation *> created) {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    populateAffineToStdConversionPatterns(patterns);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(created, std::move(patterns), config);
  }
};
} // namespace
