//===- isaac-opt.cpp - mlir-opt with the isaac dialect and passes ---------===//

#include "isaac/Dialect/IsaacDialect.h"
#include "isaac/Tools/Diagnostics.h"
#include "isaac/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::isaac::registerAllIsaacPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::isaac::IsaacDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates the device module to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  // One line per diagnostic, at the operation's location; the operation
  // itself only with --mlir-print-op-on-diagnostic (isaac/Tools/Diagnostics.h).
  mlir::isaac::defaultToNoOpOnDiagnostic();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "isaac optimizer driver\n", registry));
}
