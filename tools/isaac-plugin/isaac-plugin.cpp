//===- isaac-plugin.cpp - isaac as a plugin of stock mlir-opt -------------===//
//
// `mlir-opt-22 --load-dialect-plugin=libIsaacPlugin.so
//  --load-pass-plugin=libIsaacPlugin.so` gets the isaac dialect, its passes
// and --isaac-pipeline. The plugin links the shared libMLIR that mlir-opt
// uses, so both see one copy of MLIR's registries.
//
// Loading the plugin also makes --mlir-print-op-on-diagnostic default to
// false, as in isaac-opt (isaac/Tools/Diagnostics.h): mlir-opt loads plugins
// while it parses its command line, so the flag, given before or after the
// --load-*-plugin options, still wins.
//
//===----------------------------------------------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"
#include "isaac/Tools/Diagnostics.h"
#include "isaac/Transforms/Passes.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Isaac", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            mlir::isaac::defaultToNoOpOnDiagnostic();
            registry->insert<mlir::isaac::IsaacDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "IsaacPasses", LLVM_VERSION_STRING, []() {
            mlir::isaac::defaultToNoOpOnDiagnostic();
            mlir::isaac::registerAllIsaacPasses();
          }};
}
