//===- Diagnostics.h - How isaac's drivers print diagnostics ----*- C++ -*-===//
//
// MLIR attaches to every diagnostic emitted on an operation a note holding
// the whole operation in generic form ("see current operation: ..."): the
// default of --mlir-print-op-on-diagnostic. For isaac's remarks and errors
// (which configuration was chosen and why, which model file failed, which
// rule a configuration breaks) the location says which operation is meant,
// and the dump of a GEMM with its body, or of the module for a module-level
// error, buries that one line under pages. isaac-opt and the mlir-opt-22
// plugin therefore start with the dump off; --mlir-print-op-on-diagnostic
// (=true) turns it back on.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_TOOLS_DIAGNOSTICS_H
#define ISAAC_TOOLS_DIAGNOSTICS_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::isaac {

/// Makes "don't print the operation on a diagnostic" the default of
/// --mlir-print-op-on-diagnostic, unless the command line already set it.
/// Call it before the command line is parsed (isaac-opt), or while it is
/// being parsed (a plugin's registration, which mlir-opt runs when it reads
/// --load-pass-plugin / --load-dialect-plugin): an occurrence of the flag
/// that is parsed later still wins. Contexts created afterwards read the
/// flag (MLIRContext's constructor), so the change applies to every
/// diagnostic of the run, isaac's or not.
inline void defaultToNoOpOnDiagnostic() {
  // MLIR registers its context options lazily; make sure they exist.
  registerMLIRContextCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("mlir-print-op-on-diagnostic");
  if (it == options.end() || it->second->getNumOccurrences() != 0)
    return;
  // The option is declared as llvm::cl::opt<bool> in MLIRContext.cpp.
  static_cast<llvm::cl::opt<bool> *>(it->second)->setInitialValue(false);
}

} // namespace mlir::isaac

#endif // ISAAC_TOOLS_DIAGNOSTICS_H
