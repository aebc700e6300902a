//===- DeviceMemory.h - Where host functions' buffers live ------*- C++ -*-===//
//
// Private to lib/Transforms. After bufferization every memref of a host
// function is device memory (docs/abi.md), except the host bookkeeping the
// compiler itself builds, such as the pointer and flag arrays of the
// deallocation helper. One rule tells the two apart so that
// isaac-stage-host-constants, isaac-offload, isaac-device-memory and
// isaac-check-host agree on it.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_DEVICEMEMORY_H
#define ISAAC_LIB_TRANSFORMS_DEVICEMEMORY_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::isaac {

/// Whether `op` is a host function: a func.func outside any gpu.module.
bool isHostFunction(Operation *op);

/// Whether `op`, inside a host function, runs on the CPU: it is not nested
/// in a gpu.launch, nor in an scf.parallel (which isaac-offload turns into
/// one).
bool runsOnHost(Operation *op);

/// Whether a memref.copy between these types can be one gpu.memcpy.
bool canCopyWithMemcpy(MemRefType a, MemRefType b);

/// Where the memref values of a module's host functions live.
///
/// Values that may alias one another share a class: a view and its source
/// (ViewLikeOpInterface, extract_strided_metadata), the operands and
/// result of arith.select, values forwarded along control flow (region
/// branches, branches) and across calls to functions of the module. A
/// class is device data when it
///   - holds an argument of a public function (or of one never called), a
///     gpu.alloc, a call result or any memref made by an operation not
///     named below, or
///   - is used by a kernel (inside gpu.launch or scf.parallel), a launch,
///     a linalg operation, an external call, a public function's return,
///     or any operation other than host loads, stores, copies,
///     deallocations and metadata operations, or
///   - is neither loaded nor stored by the CPU, holds no global, and is
///     copied to or from device data.
/// Every other class is host-only: the CPU may touch it, kernels may not.
/// The analysis is a snapshot: rebuild it after changing the IR.
class BufferPlacement {
public:
  explicit BufferPlacement(ModuleOp module);

  /// Whether `memref` is host-only data. Values the analysis never saw
  /// (outside host functions) are device data.
  bool isHostOnly(Value memref) const;

  /// Whether something `memref` may alias was made by the host
  /// (memref.alloc, memref.alloca, memref.get_global): what a kernel must
  /// never be given.
  bool hasHostOrigin(Value memref) const;

  /// Whether `a` and `b` may be views of the same buffer.
  bool mayAlias(Value a, Value b) const;

private:
  struct ClassInfo {
    bool deviceOrigin = false;
    bool deviceUse = false;
    bool hostOrigin = false;
    bool hostAccess = false; // loaded or stored by the CPU
    bool global = false;     // holds a memref.get_global
    bool device = false;     // the conclusion
  };

  unsigned classOf(Value v);
  std::optional<unsigned> lookup(Value v) const;
  unsigned find(unsigned id) const;
  void unite(Value a, Value b);
  void scanFunction(Operation *func, bool externallyVisible);
  void scanUse(OpOperand &use);

  llvm::DenseMap<Value, unsigned> ids;
  mutable llvm::SmallVector<unsigned> parent;
  llvm::SmallVector<ClassInfo> info;
  llvm::SmallVector<std::pair<Value, Value>> copies;
  ModuleOp module;
};

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_DEVICEMEMORY_H
