//===- DeviceMemory.cpp - Device buffers of host functions ----------------===//
//
// The rule that tells device data from host bookkeeping (BufferPlacement,
// DeviceMemory.h), and the two passes that put device data in device
// memory: isaac-stage-host-constants (host globals that kernels read are
// copied into device buffers, before the deallocation pipeline) and
// isaac-device-memory (allocations, deallocations and copies of device data
// become gpu.alloc / gpu.dealloc / gpu.memcpy, after kernel outlining).
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "DeviceMemory.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACSTAGEHOSTCONSTANTS
#define GEN_PASS_DEF_ISAACDEVICEMEMORY
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

bool mlir::isaac::isHostFunction(Operation *op) {
  return isa_and_nonnull<func::FuncOp>(op) &&
         !op->getParentOfType<gpu::GPUModuleOp>();
}

bool mlir::isaac::runsOnHost(Operation *op) {
  for (Operation *p = op; p && !isa<func::FuncOp>(p); p = p->getParentOp())
    if (isa<gpu::LaunchOp, scf::ParallelOp>(p))
      return false;
  return true;
}

bool mlir::isaac::canCopyWithMemcpy(MemRefType a, MemRefType b) {
  // gpu-to-llvm lowers gpu.memcpy of identity layouts only: it copies the
  // descriptor's whole extent from its aligned pointer.
  return a.getLayout().isIdentity() && b.getLayout().isIdentity() &&
         a.getElementType() == b.getElementType();
}

static bool isMemRef(Value v) { return isa<BaseMemRefType>(v.getType()); }

/// Whether `v` is defined inside a gpu.launch: a kernel's own value.
static bool definedInLaunch(Value v) {
  Operation *scope = v.getParentRegion()->getParentOp();
  return isa<gpu::LaunchOp>(scope) || scope->getParentOfType<gpu::LaunchOp>();
}

//===----------------------------------------------------------------------===//
// BufferPlacement
//===----------------------------------------------------------------------===//

unsigned BufferPlacement::classOf(Value v) {
  auto [it, inserted] = ids.try_emplace(v, parent.size());
  if (inserted) {
    parent.push_back(parent.size());
    info.emplace_back();
  }
  return it->second;
}

std::optional<unsigned> BufferPlacement::lookup(Value v) const {
  auto it = ids.find(v);
  if (it == ids.end())
    return std::nullopt;
  return find(it->second);
}

unsigned BufferPlacement::find(unsigned id) const {
  while (parent[id] != id) {
    parent[id] = parent[parent[id]];
    id = parent[id];
  }
  return id;
}

void BufferPlacement::unite(Value a, Value b) {
  if (!isMemRef(a) || !isMemRef(b))
    return;
  unsigned ra = find(classOf(a)), rb = find(classOf(b));
  if (ra != rb)
    parent[rb] = ra;
}

BufferPlacement::BufferPlacement(ModuleOp module) : module(module) {
  SmallVector<func::FuncOp> funcs;
  module.walk([&](func::FuncOp f) {
    if (isHostFunction(f))
      funcs.push_back(f);
  });
  llvm::StringMap<SmallVector<func::CallOp>> callers;
  for (func::FuncOp f : funcs)
    f.walk(
        [&](func::CallOp call) { callers[call.getCallee()].push_back(call); });

  // Phase 1: origins and aliasing. Uses that only forward a value along an
  // aliasing edge are remembered so that phase 2 does not count them.
  llvm::DenseSet<OpOperand *> forwarded;
  auto link = [&](OpOperand &from, Value to) {
    if (!isMemRef(from.get()))
      return;
    unite(from.get(), to);
    forwarded.insert(&from);
  };
  auto linkRange = [&](MutableArrayRef<OpOperand> from, ValueRange to) {
    for (auto [operand, value] : llvm::zip(from, to))
      link(operand, value);
  };
  // OperandRange -> the OpOperands it is made of.
  auto operandsOf = [](Operation *op, OperandRange range) {
    if (range.empty())
      return MutableArrayRef<OpOperand>();
    return op->getOpOperands().slice(range.getBeginOperandIndex(),
                                     range.size());
  };

  for (func::FuncOp f : funcs) {
    if (f.isExternal())
      continue;
    auto it = callers.find(f.getSymName());
    bool visible = f.isPublic() || it == callers.end();
    for (BlockArgument arg : f.getArguments()) {
      if (!isMemRef(arg))
        continue;
      if (visible)
        info[classOf(arg)].deviceOrigin = true;
      else
        for (func::CallOp call : it->second)
          link(call->getOpOperand(arg.getArgNumber()), arg);
    }
    // Returns: forwarded to the callers' results, or out of the program.
    f.walk([&](func::ReturnOp ret) {
      if (visible)
        return;
      for (func::CallOp call : it->second)
        linkRange(ret->getOpOperands(), call.getResults());
    });

    f.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      // Non-entry blocks: their arguments come from branches.
      if (auto br = dyn_cast<BranchOpInterface>(op)) {
        for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
          SuccessorOperands succ = br.getSuccessorOperands(i);
          ValueRange args = op->getSuccessor(i)->getArguments().drop_front(
              succ.getProducedOperandCount());
          linkRange(operandsOf(op, succ.getForwardedOperands()), args);
        }
      }
      // Region control flow: entry operands, and terminators to their
      // successors (the next iteration's arguments, or the op's results).
      if (auto branch = dyn_cast<RegionBranchOpInterface>(op)) {
        SmallVector<RegionSuccessor> succs;
        branch.getSuccessorRegions(RegionBranchPoint::parent(), succs);
        for (RegionSuccessor &s : succs)
          linkRange(operandsOf(op, branch.getEntrySuccessorOperands(s)),
                    s.getSuccessorInputs());
      } else {
        // A region whose arguments nobody forwards: unknown memory.
        for (Region &r : op->getRegions())
          for (BlockArgument arg : r.getArguments())
            if (isMemRef(arg) && !isa<func::FuncOp>(op))
              info[classOf(arg)].deviceOrigin = true;
      }
      auto term = dyn_cast<RegionBranchTerminatorOpInterface>(op);
      if (term && isa<RegionBranchOpInterface>(op->getParentOp())) {
        SmallVector<Attribute> none(op->getNumOperands());
        SmallVector<RegionSuccessor> succs;
        term.getSuccessorRegions(none, succs);
        for (RegionSuccessor &s : succs)
          linkRange(operandsOf(op, term.getSuccessorOperands(s)),
                    s.getSuccessorInputs());
      }

      // Where each memref result comes from.
      if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
        info[classOf(op->getResult(0))].hostOrigin = true;
      } else if (isa<memref::GetGlobalOp>(op)) {
        ClassInfo &ci = info[classOf(op->getResult(0))];
        ci.hostOrigin = ci.global = true;
      } else if (isa<gpu::AllocOp>(op)) {
        info[classOf(op->getResult(0))].deviceOrigin = true;
      } else if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
        for (OpOperand &source : op->getOpOperands())
          if (source.get() == view.getViewSource())
            for (Value r : op->getResults())
              link(source, r);
      } else if (auto sel = dyn_cast<arith::SelectOp>(op)) {
        link(sel->getOpOperand(1), sel.getResult());
        link(sel->getOpOperand(2), sel.getResult());
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (!callee || callee.isExternal() || !isHostFunction(callee))
          for (Value r : op->getResults())
            if (isMemRef(r))
              info[classOf(r)].deviceOrigin = true;
      } else if (!isa<RegionBranchOpInterface>(op)) {
        for (Value r : op->getResults())
          if (isMemRef(r))
            info[classOf(r)].deviceOrigin = true;
      }
      return WalkResult::advance();
    });
  }

  // Phase 2: uses.
  for (func::FuncOp f : funcs) {
    f.walk([&](Operation *op) {
      bool inKernel = !runsOnHost(op);
      if (!inKernel && isa<memref::CopyOp, gpu::MemcpyOp>(op))
        copies.push_back({op->getOperand(op->getNumOperands() - 2),
                          op->getOperand(op->getNumOperands() - 1)});
      for (OpOperand &use : op->getOpOperands()) {
        Value v = use.get();
        if (!isMemRef(v) || definedInLaunch(v))
          continue;
        ClassInfo &ci = info[classOf(v)];
        if (inKernel) {
          ci.deviceUse = true;
          continue;
        }
        if (forwarded.contains(&use))
          continue;
        if (auto load = dyn_cast<memref::LoadOp>(op)) {
          ci.hostAccess = true;
        } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
          if (use.getOperandNumber() ==
              store.getMemrefMutable().getOperandNumber())
            ci.hostAccess = true;
          else
            ci.deviceUse = true;
        } else if (isa<memref::CopyOp, gpu::MemcpyOp, memref::DeallocOp,
                       gpu::DeallocOp, memref::DimOp, memref::RankOp,
                       memref::ExtractAlignedPointerAsIndexOp,
                       bufferization::DeallocOp>(op)) {
          // Neither side's business: copies are decided below, the rest
          // reads metadata or frees.
        } else {
          ci.deviceUse = true;
        }
      }
    });
  }

  // Fold the per-value facts into their classes.
  for (unsigned id = 0, e = parent.size(); id < e; ++id) {
    unsigned root = find(id);
    if (root == id)
      continue;
    ClassInfo &r = info[root], &c = info[id];
    r.deviceOrigin |= c.deviceOrigin;
    r.deviceUse |= c.deviceUse;
    r.hostOrigin |= c.hostOrigin;
    r.hostAccess |= c.hostAccess;
    r.global |= c.global;
  }
  for (unsigned id = 0, e = parent.size(); id < e; ++id)
    if (find(id) == id)
      info[id].device = info[id].deviceOrigin || info[id].deviceUse;
  // A buffer the CPU never touches, copied to or from device data, is
  // device data too: a host staging buffer would only add a copy.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [a, b] : copies) {
      unsigned ra = find(classOf(a)), rb = find(classOf(b));
      for (auto [x, y] : {std::pair(ra, rb), std::pair(rb, ra)}) {
        ClassInfo &cx = info[x];
        if (info[y].device && !cx.device && !cx.hostAccess && !cx.global) {
          cx.device = true;
          changed = true;
        }
      }
    }
  }
}

bool BufferPlacement::isHostOnly(Value memref) const {
  std::optional<unsigned> root = lookup(memref);
  return root && !info[*root].device;
}

bool BufferPlacement::hasHostOrigin(Value memref) const {
  std::optional<unsigned> root = lookup(memref);
  return root && info[*root].hostOrigin;
}

bool BufferPlacement::mayAlias(Value a, Value b) const {
  std::optional<unsigned> ra = lookup(a), rb = lookup(b);
  return ra && rb && *ra == *rb;
}

//===----------------------------------------------------------------------===//
// isaac-stage-host-constants
//===----------------------------------------------------------------------===//

namespace {
struct StageHostConstantsPass
    : public mlir::isaac::impl::IsaacStageHostConstantsBase<
          StageHostConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    BufferPlacement placement(module);
    SmallVector<func::FuncOp> funcs;
    module.walk([&](func::FuncOp f) {
      if (isHostFunction(f) && !f.isExternal())
        funcs.push_back(f);
    });
    for (func::FuncOp f : funcs) {
      SmallVector<memref::GetGlobalOp> globals;
      f.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<gpu::LaunchOp>(op))
          return WalkResult::skip();
        if (auto g = dyn_cast<memref::GetGlobalOp>(op))
          if (!placement.isHostOnly(g.getResult()))
            globals.push_back(g);
        return WalkResult::advance();
      });
      // One device copy of each global per call, made at the entry so that
      // a global read in a loop is copied once.
      llvm::StringMap<Value> staged;
      OpBuilder b(f.getContext());
      for (memref::GetGlobalOp g : globals) {
        // A copy of a mutable global would not see the kernels' writes.
        auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
            g, g.getNameAttr());
        if (!global || !global.getConstant()) {
          g.emitError() << "isaac: kernels cannot use the host global @"
                        << g.getName()
                        << ": only constant globals are copied to the device";
          signalPassFailure();
          continue;
        }
        Value &buffer = staged[g.getName()];
        if (!buffer) {
          b.setInsertionPointToStart(&f.getBody().front());
          auto type = cast<MemRefType>(g.getType());
          auto host =
              memref::GetGlobalOp::create(b, g.getLoc(), type, g.getNameAttr());
          buffer = memref::AllocOp::create(b, g.getLoc(), type);
          memref::CopyOp::create(b, g.getLoc(), host, buffer);
        }
        // The CPU may keep reading the host global directly.
        g.getResult().replaceUsesWithIf(buffer, [](OpOperand &use) {
          return !(isa<memref::LoadOp>(use.getOwner()) &&
                   runsOnHost(use.getOwner()));
        });
        if (g->use_empty())
          g->erase();
      }
    }
  }
};

//===----------------------------------------------------------------------===//
// isaac-device-memory
//===----------------------------------------------------------------------===//

struct DeviceMemoryPass
    : public mlir::isaac::impl::IsaacDeviceMemoryBase<DeviceMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    BufferPlacement placement(module);
    SmallVector<Operation *> work;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp, gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
              memref::CopyOp, memref::ReallocOp>(op) &&
          isHostFunction(op->getParentOfType<func::FuncOp>()))
        work.push_back(op);
      return WalkResult::advance();
    });
    bool failed = false;
    for (Operation *op : work)
      if (::mlir::failed(rewrite(op, placement)))
        failed = true;
    if (failed)
      signalPassFailure();
  }

  LogicalResult rewrite(Operation *op, const BufferPlacement &placement) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (placement.isHostOnly(alloc))
        return success();
      auto dev = gpu::AllocOp::create(b, loc, alloc.getType(), Type(),
                                      ValueRange(), alloc.getDynamicSizes(),
                                      alloc.getSymbolOperands());
      alloc.replaceAllUsesWith(dev.getMemref());
      alloc.erase();
      return success();
    }
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      if (placement.isHostOnly(alloca))
        return success();
      // A stack buffer lives until its scope ends; a device one is freed at
      // the end of its block, which it cannot outlive but through the
      // block's terminator.
      Operation *terminator = alloca->getBlock()->getTerminator();
      for (Value v : terminator->getOperands())
        if (placement.mayAlias(v, alloca))
          return alloca.emitError()
                 << "isaac: cannot place this stack buffer in device memory: "
                    "it leaves its block through '"
                 << terminator->getName() << "'";
      auto dev = gpu::AllocOp::create(b, loc, alloca.getType(), Type(),
                                      ValueRange(), alloca.getDynamicSizes(),
                                      alloca.getSymbolOperands());
      alloca.replaceAllUsesWith(dev.getMemref());
      b.setInsertionPoint(terminator);
      gpu::DeallocOp::create(b, loc, Type(), ValueRange(), dev.getMemref());
      alloca.erase();
      return success();
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      if (placement.isHostOnly(dealloc.getMemref()))
        return success();
      gpu::DeallocOp::create(b, loc, Type(), ValueRange(), dealloc.getMemref());
      dealloc.erase();
      return success();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      Value src = copy.getSource(), dst = copy.getTarget();
      if (placement.isHostOnly(src) && placement.isHostOnly(dst))
        return success();
      auto srcTy = cast<MemRefType>(src.getType());
      auto dstTy = cast<MemRefType>(dst.getType());
      if (!canCopyWithMemcpy(srcTy, dstTy))
        return copy.emitError()
               << "isaac: this copy of device data needs a copy kernel "
                  "(layouts "
               << srcTy << " and " << dstTy
               << "); run isaac-offload before gpu-kernel-outlining";
      gpu::MemcpyOp::create(b, loc, Type(), ValueRange(), dst, src);
      copy.erase();
      return success();
    }
    auto realloc = cast<memref::ReallocOp>(op);
    if (placement.isHostOnly(realloc.getSource()))
      return success();
    return realloc.emitError()
           << "isaac: memref.realloc of device data is not supported";
  }
};
} // namespace
