//===- LaunchNames.h - The runtime entry points host code calls -*- C++ -*-===//
//
// Private to lib/Transforms: the runtime functions through which
// isaac-lower-launch's host code launches isaac's kernels (docs/abi.md,
// "Host ABI"), named once for the passes that make and recognize the calls.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_LAUNCHNAMES_H
#define ISAAC_LIB_TRANSFORMS_LAUNCHNAMES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::isaac {

inline constexpr llvm::StringLiteral kLaunchFn = "isaacGemmLaunch";
inline constexpr llvm::StringLiteral kLaunchEpilogueFn =
    "isaacGemmLaunchEpilogue";
inline constexpr llvm::StringLiteral kLaunchConvFn = "isaacConvLaunch";
inline constexpr llvm::StringLiteral kLaunchConvEpilogueFn =
    "isaacConvLaunchEpilogue";

/// Whether `callee` is one of the launch entry points above.
inline bool isLaunchEntry(llvm::StringRef callee) {
  return callee == kLaunchFn || callee == kLaunchEpilogueFn ||
         callee == kLaunchConvFn || callee == kLaunchConvEpilogueFn;
}

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_LAUNCHNAMES_H
