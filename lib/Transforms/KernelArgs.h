//===- KernelArgs.h - Kernel parameter types from KernelABI.def -*- C++ -*-===//
//
// The generator declares its kernels' parameters from the table of
// isaac/Runtime/KernelABI.def, which the runtime reads too, and reads them
// by name (abi::gemm::M, ...), instead of positions kept in step by hand.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_KERNELARGS_H
#define ISAAC_LIB_TRANSFORMS_KERNELARGS_H

#include "KernelEmitter.h"

#include "isaac/Runtime/KernelABI.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::isaac {

/// The MLIR type of an argument of type `t`; Scalar is `scalar` (the
/// kernel's accumulator type).
inline Type abiArgType(const KernelEmitter &e, ::isaac::abi::ArgType t,
                       Type scalar) {
  switch (t) {
  case ::isaac::abi::ArgType::Ptr:
    return e.gptr;
  case ::isaac::abi::ArgType::U32:
    return e.i32;
  case ::isaac::abi::ArgType::U64:
    return e.i64;
  case ::isaac::abi::ArgType::Scalar:
    return scalar;
  }
  return Type();
}

/// Appends the types of `args`, in order.
template <size_t N>
void appendABITypes(const KernelEmitter &e,
                    const ::isaac::abi::ArgInfo (&args)[N], Type scalar,
                    SmallVectorImpl<Type> &out) {
  for (const ::isaac::abi::ArgInfo &a : args)
    out.push_back(abiArgType(e, a.type, scalar));
}

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_KERNELARGS_H
