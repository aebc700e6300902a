//===- HostCheck.cpp - Host functions only launch kernels -----------------===//
//
// isaac-check-host: the last word on what the CPU does. After the pipeline,
// a host function may only run control flow and scalar arithmetic, manage
// buffers and launch kernels; anything that would read or write device
// memory from the CPU (a load, a leftover linalg or vector operation, ...)
// is one of our bugs, caught here rather than at run time. An allow-list:
// an operation nobody thought of is an error too.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "DeviceMemory.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACCHECKHOST
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

/// Values the CPU may compute with: scalars, and memrefs (descriptors: the
/// pointer arithmetic of views, selects and control flow).
static bool isHostValue(Type t) {
  return t.isIntOrIndexOrFloat() || isa<BaseMemRefType, ComplexType>(t);
}

static bool allHostValues(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), isHostValue) &&
         llvm::all_of(op->getResultTypes(), isHostValue);
}

namespace {
enum class Verdict {
  Allowed,
  /// Allowed if every memref it touches is host-only.
  HostBuffersOnly,
  /// Allowed if no memref it is given was made by the host.
  DeviceBuffersOnly,
  Rejected,
};
} // namespace

/// Whether `ptr` points into a stack slot of the host function (an
/// llvm.alloca, possibly through GEPs): host memory.
static bool isStackAddress(Value ptr) {
  while (auto gep = ptr.getDefiningOp<LLVM::GEPOp>())
    ptr = gep.getBase();
  return ptr.getDefiningOp<LLVM::AllocaOp>() != nullptr;
}

static Verdict classify(Operation *op) {
  Dialect *dialect = op->getDialect();
  StringRef ns = dialect ? dialect->getNamespace() : "";
  // Control flow on the host.
  if (isa<func::ReturnOp, func::CallOp, func::CallIndirectOp, func::ConstantOp>(
          op) ||
      ns == "cf")
    return Verdict::Allowed;
  if (isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::ConditionOp, scf::YieldOp,
          scf::ExecuteRegionOp, scf::IndexSwitchOp>(op))
    return Verdict::Allowed;
  // Scalar arithmetic (and selects of descriptors).
  if ((ns == "arith" || ns == "math" || ns == "index" || ns == "ub") &&
      allHostValues(op))
    return Verdict::Allowed;
  // Metadata: sizes, strides, views, pointers. No data is read.
  if (isa<memref::DimOp, memref::RankOp, memref::SubViewOp, memref::CastOp,
          memref::ReinterpretCastOp, memref::ExpandShapeOp,
          memref::CollapseShapeOp, memref::ExtractStridedMetadataOp,
          memref::ExtractAlignedPointerAsIndexOp, memref::ViewOp,
          memref::TransposeOp, memref::AssumeAlignmentOp,
          memref::MemorySpaceCastOp, memref::GetGlobalOp, memref::AllocaScopeOp,
          memref::AllocaScopeReturnOp, UnrealizedConversionCastOp>(op))
    return Verdict::Allowed;
  // Buffers the CPU owns.
  if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp, memref::AllocOp,
          memref::AllocaOp, memref::DeallocOp, memref::ReallocOp>(op))
    return Verdict::HostBuffersOnly;
  // Device memory management and launches.
  if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::WaitOp>(op))
    return Verdict::Allowed;
  if (isa<gpu::LaunchFuncOp, gpu::MemsetOp, LaunchGemmOp, LaunchConvOp>(op))
    return Verdict::DeviceBuffersOnly;
  // What isaac-lower-launch emits around its runtime call: constants,
  // pointers, and the stack array of epilogue input descriptors.
  if (isa<LLVM::AddressOfOp, LLVM::IntToPtrOp, LLVM::ZeroOp, LLVM::ConstantOp,
          LLVM::UndefOp, LLVM::PoisonOp, LLVM::AllocaOp>(op))
    return Verdict::Allowed;
  if (auto gep = dyn_cast<LLVM::GEPOp>(op))
    return isStackAddress(gep.getBase()) ? Verdict::Allowed : Verdict::Rejected;
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return isStackAddress(store.getAddr()) ? Verdict::Allowed
                                           : Verdict::Rejected;
  return Verdict::Rejected;
}

namespace {
struct CheckHostPass
    : public mlir::isaac::impl::IsaacCheckHostBase<CheckHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    BufferPlacement placement(module);
    bool failed = false;
    module.walk([&](func::FuncOp f) {
      if (!isHostFunction(f))
        return;
      f.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (::mlir::failed(check(f, op, placement))) {
          failed = true;
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
    });
    if (failed)
      signalPassFailure();
  }

  LogicalResult check(func::FuncOp f, Operation *op,
                      const BufferPlacement &placement) {
    auto touches = [&]() {
      return op->emitError() << "isaac: host function @" << f.getSymName()
                             << " would touch device memory from the CPU: '"
                             << op->getName() << "'";
    };
    if (isa<gpu::LaunchOp>(op))
      return op->emitError() << "isaac: host function @" << f.getSymName()
                             << " still holds a 'gpu.launch' (run "
                                "gpu-kernel-outlining before the host check)";
    switch (classify(op)) {
    case Verdict::Allowed:
      return success();
    case Verdict::Rejected:
      return touches();
    case Verdict::HostBuffersOnly:
      for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
        if (isa<BaseMemRefType>(v.getType()) && !placement.isHostOnly(v))
          return touches();
      return success();
    case Verdict::DeviceBuffersOnly:
      for (OpOperand &operand : op->getOpOperands())
        if (isa<BaseMemRefType>(operand.get().getType()) &&
            placement.hasHostOrigin(operand.get()))
          return op->emitError()
                 << "isaac: host function @" << f.getSymName()
                 << " gives host memory to '" << op->getName() << "' (operand #"
                 << operand.getOperandNumber()
                 << "); kernels read and write device memory only";
      return success();
    }
    llvm_unreachable("unknown verdict");
  }
};
} // namespace
