//===- Passes.h - isaac passes ----------------------------------*- C++ -*-===//

#ifndef ISAAC_TRANSFORMS_PASSES_H
#define ISAAC_TRANSFORMS_PASSES_H

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::isaac {

#define GEN_PASS_DECL
#include "isaac/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "isaac/Transforms/Passes.h.inc"

/// The gpu.func attribute listing a kernel's tensor-map parameters (a
/// DenseI32ArrayAttr of indices), which isaac-tensor-map-params reads after
/// convert-gpu-to-nvvm.
inline constexpr llvm::StringLiteral kTensorMapArgsAttrName =
    "isaac.tensor_map_args";

/// Options of --isaac-pipeline.
struct IsaacPipelineOptions : public PassPipelineOptions<IsaacPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target chip"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features of the NVVM target (empty: the chip "
                     "table's PTX ISA version)"),
      llvm::cl::init("")};
  Option<std::string> ptxDir{
      *this, "ptx-dir",
      llvm::cl::desc("Write each kernel's PTX to this directory"),
      llvm::cl::init("")};
  Option<std::string> modelDir{
      *this, "model-dir",
      llvm::cl::desc("Directory of trained models (<dir>/<chip>/gemm-"
                     "<dtype>.mlp); 'none' forces the analytic heuristic"),
      llvm::cl::init("")};
  Option<std::string> cache{
      *this, "cache", llvm::cl::desc("Tuning cache file (docs/tuning.md)"),
      llvm::cl::init("")};
  Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("Let every f32 GEMM multiply in TF32 on tensor cores "
                     "(default: exact IEEE f32; per operation: isaac.tf32)"),
      llvm::cl::init(false)};
  Option<unsigned> topk{*this, "topk",
                        llvm::cl::desc("Record the N best configurations"),
                        llvm::cl::init(1)};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose nvvm/libdevice is linked into "
                     "kernels that need it (default: $CUDA_HOME, else "
                     "/usr/local/cuda)"),
      llvm::cl::init("")};
  Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("Unsupported GEMMs are errors instead of remarks"),
      llvm::cl::init(false)};
};

/// linalg -> isaac.config -> gpu kernels -> NVVM -> PTX -> runtime calls.
void buildIsaacPipeline(OpPassManager &pm, const IsaacPipelineOptions &opts);

/// Registers --isaac-pipeline.
void registerIsaacPipeline();

/// Registers every isaac pass and the pipeline.
inline void registerAllIsaacPasses() {
  registerIsaacPasses();
  registerIsaacPipeline();
}

} // namespace mlir::isaac

#endif // ISAAC_TRANSFORMS_PASSES_H
