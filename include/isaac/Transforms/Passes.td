//===- Passes.td - isaac passes ----------------------------*- tablegen -*-===//

#ifndef ISAAC_PASSES
#define ISAAC_PASSES

include "mlir/Pass/PassBase.td"

def IsaacSelectConfig : Pass<"isaac-select-config", "ModuleOp"> {
  let summary = "Attach the best legal #isaac.gemm to each static GEMM";
  let description = [{
    For every `linalg.matmul` / `linalg.batch_matmul` on static f32/f64
    memrefs that has no `isaac.config` yet, searches the whole legal
    configuration space (lib/Model) for the configuration the cost model
    ranks fastest on that input, and attaches it as `isaac.config`. A
    user-written `isaac.config` is kept as is. With `topk=N > 1` the N best
    are also recorded, best first, as `isaac.candidates`.

    The configurations are ranked by the trained MLP of ISAAC §5
    (`<model-dir>/<chip>/gemm-<dtype>.mlp`, docs/model-format.md) when that
    file exists, else by the analytic heuristic of
    lib/Model/AnalyticModel.cpp; a remark names the source of every choice.
    A model file that cannot be loaded is an error. With `cache=FILE`, an
    entry of that tuning cache (docs/tuning.md) for the operation's input
    wins over the search (a user-written `isaac.config` still wins over
    everything). Unsupported operations (tensors, dynamic shapes, other
    element types) are left untouched with a remark, or rejected with
    `strict`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_90, ...)">,
    Option<"topk", "topk", "unsigned", /*default=*/"1",
           "Record the N best configurations as isaac.candidates">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Make unsupported GEMMs an error instead of a remark">,
    Option<"modelDir", "model-dir", "std::string", /*default=*/"\"\"",
           "Directory of trained models, <dir>/<chip>/gemm-<dtype>.mlp "
           "(empty: the source tree's models/; 'none': analytic heuristic "
           "only)">,
    Option<"cache", "cache", "std::string", /*default=*/"\"\"",
           "Tuning cache file whose entries win over the search">,
  ];
  let dependentDialects = ["::mlir::isaac::IsaacDialect"];
}

def IsaacLowerToGPU : Pass<"isaac-lower-to-gpu", "ModuleOp"> {
  let summary = "Lower configured GEMMs to generated GPU kernels";
  let description = [{
    Replaces every `linalg.matmul` / `linalg.batch_matmul` carrying
    `isaac.config` (plain or with A and/or B transposed through its
    indexing maps) by an `isaac.launch_gemm` of a kernel generated for that
    configuration, element type and layout: one `gpu.module` per kernel,
    holding the GEMM `gpu.func` and, when KG > 1, the split-K helper
    kernels (docs/abi.md). Operations without a configuration, or that the
    generator cannot handle, are left untouched with a remark (an error
    with `strict`).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_90, ...)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features of the NVVM target (empty: the PTX ISA version of "
           "the chip table, include/isaac/Model/Chips.def)">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Make GEMMs that cannot be lowered an error instead of a remark">,
  ];
  let dependentDialects = [
    "::mlir::isaac::IsaacDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"
  ];
}

def IsaacLowerLaunch : Pass<"isaac-lower-launch", "ModuleOp"> {
  let summary = "Turn isaac.launch_gemm into calls to the isaac runtime";
  let description = [{
    Runs after `gpu-module-to-binary`: embeds the PTX of each kernel's
    `gpu.binary` as a global string and replaces each `isaac.launch_gemm`
    by a call to `isaacGemmLaunch` (docs/abi.md, Host ABI). With `ptx-dir`,
    also writes `<dir>/<kernel>.ptx` for every kernel, its configuration
    in a comment at the top. The `gpu.binary` ops are erased afterwards.
  }];
  let options = [
    Option<"ptxDir", "ptx-dir", "std::string", /*default=*/"\"\"",
           "Directory to write each kernel's PTX to">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // ISAAC_PASSES
