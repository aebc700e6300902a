//===- ElideLaunchWaits.cpp - No host wait before an isaac launch ---------===//
//
// gpu-async-region puts a blocking gpu.wait before every host operation
// with side effects that is not an asynchronous GPU operation, which
// includes isaac's launch calls: the host then waits for the GPU between
// the layers of a network. isaac's runtime runs every token's stream and
// every isaac launch on the legacy default stream (docs/abi.md), so the
// launch is ordered after the awaited work anyway; this pass drops such a
// wait (Passes.td says which stay).
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "LaunchNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACELIDELAUNCHWAITS
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

namespace {

/// Whether `op` only writes the host stack: an llvm.alloca, or a store
/// into one (through getelementptrs), as isaac-lower-launch's argument
/// structs for a launch call. Such writes cannot touch device memory.
bool writesHostStackOnly(Operation *op) {
  if (isa<LLVM::AllocaOp>(op))
    return true;
  auto store = dyn_cast<LLVM::StoreOp>(op);
  if (!store)
    return false;
  Value addr = store.getAddr();
  while (auto gep = addr.getDefiningOp<LLVM::GEPOp>())
    addr = gep.getBase();
  return addr.getDefiningOp<LLVM::AllocaOp>() != nullptr;
}

/// Whether the first operation after `wait` in its block that is not free
/// of side effects, other than the launch's argument setup on the host
/// stack, is a call of an isaac launch entry point.
bool precedesLaunch(gpu::WaitOp wait) {
  for (Operation *op = wait->getNextNode(); op; op = op->getNextNode()) {
    if (auto call = dyn_cast<func::CallOp>(op))
      return isLaunchEntry(call.getCallee());
    if (op->getNumRegions() != 0 ||
        (!isMemoryEffectFree(op) && !writesHostStackOnly(op)))
      return false;
  }
  return false;
}

struct ElideLaunchWaitsPass
    : public mlir::isaac::impl::IsaacElideLaunchWaitsBase<
          ElideLaunchWaitsPass> {
  void runOnOperation() override {
    SmallVector<gpu::WaitOp> waits;
    getOperation().walk([&](gpu::WaitOp wait) {
      // Blocking waits only: `gpu.wait async` is part of the token chain.
      if (!wait.getAsyncToken() && precedesLaunch(wait))
        waits.push_back(wait);
    });
    for (gpu::WaitOp wait : waits)
      wait->erase();
  }
};

} // namespace
