//===- embed-main.cpp - Drives README.md's embedding example --------------===//
//
// readme-embed.test extracts the C++ block of README.md's "Embedding isaac in
// a compiler" to embed.cpp and compiles it with this driver, which does what
// a compiler around it would: parse a module, build a pass manager with the
// README's functions, run it, print the result.
//
//   embed-main pipeline|strict|gemm-passes FILE
//
//===----------------------------------------------------------------------===//

#include "embed.cpp"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: embed-main pipeline|strict|gemm-passes FILE\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  registerIsaac(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[2], sourceMgr, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  if (!std::strcmp(argv[1], "pipeline"))
    addIsaacPipeline(pm, /*strict=*/false);
  else if (!std::strcmp(argv[1], "strict"))
    addIsaacPipeline(pm, /*strict=*/true);
  else if (!std::strcmp(argv[1], "gemm-passes"))
    addIsaacGemmPasses(pm);
  else {
    llvm::errs() << "embed-main: unknown mode '" << argv[1] << "'\n";
    return 2;
  }
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
