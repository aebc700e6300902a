//===- Passes.td - isaac passes ----------------------------*- tablegen -*-===//

#ifndef ISAAC_PASSES
#define ISAAC_PASSES

include "mlir/Pass/PassBase.td"

def IsaacConvToGemm : Pass<"isaac-conv-to-gemm", "ModuleOp"> {
  let summary = "Rewrite 1x1 stride-1 NHWC convolutions as GEMMs, NCHW and 1-D ones as NHWC 2-D ones";
  let description = [{
    A `linalg.conv_2d_nhwc_hwcf` / `linalg.conv_2d_nhwc_fhwc` with a 1x1
    filter, stride 1 and static shapes is a GEMM of the input's N·H·W rows
    of C channels by the C×K filters (K×C for fhwc): this pass rewrites it
    as a `linalg.matmul` on collapsed views (`tensor.collapse_shape` /
    `memref.collapse_shape`; on tensors the result is expanded back), so
    that the GEMM path compiles it — its trained models, its kernels and its
    fused epilogues — instead of the convolution kernel, which would spend
    instructions on filter taps and halos that do not exist. A zero or
    constant `linalg.fill` of the output (of a `tensor.empty` on tensors,
    just before the convolution on memrefs) is rewritten onto the collapsed
    output, so that the GEMM still sees its init. Memrefs must be packed.

    Before that, a `linalg.conv_2d_nchw_fchw` becomes a
    `linalg.conv_2d_nhwc_fhwc` between transposes of its input, filters and
    result (`linalg.transpose`; on memrefs into new buffers). On tensors,
    the elementwise ops on its result move before the result's transpose
    (onto the NHWC result, where isaac-fuse-epilogues fuses them), a
    constant `tensor.pad` of the input is rebuilt after the input's
    transpose, and transposes that cancel (one layer's result, the next
    layer's input) are folded. A `linalg.conv_1d_nwc_wcf` becomes the 2-D
    convolution of height 1 on 4-D views; on tensors the elementwise ops on
    its result move onto the 4-D view too (before the collapse back).
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def IsaacFuseEpilogues : Pass<"isaac-fuse-epilogues", "ModuleOp"> {
  let summary = "Form isaac.gemm ops with fused fills and elementwise epilogues";
  let description = [{
    On tensors, turns every `linalg.matmul` / `linalg.batch_matmul` that
    isaac can compile (see isaac-select-config) into an `isaac.gemm`, and
    folds into its epilogue region:

    - the `linalg.fill` of its init: a zero fill means C is never read
      (beta = 0), another constant is added to every element; any other
      init is an input added to the product (C += A·B);
    - the chain of elementwise linalg operations (`linalg.generic` with only
      parallel loops, named elementwise ops) that consume its result, as
      long as each result has no other use: their other operands become
      epilogue inputs read through broadcast maps (per-row and per-column
      bias, residual tensors, scalars), looking through `linalg.broadcast`,
      `linalg.transpose` and copy-like generics that feed them; their
      bodies (arith and math ops, include/isaac/Model/EpilogueOps.def) are
      appended to the epilogue, conversions to another output type
      included.

    A consumer whose body uses an operation epilogues do not support is
    left alone with a remark naming the operation. GEMMs isaac cannot
    compile (dynamic shapes, other element types) are not touched: they
    take the generic GPU path later in the pipeline.
  }];
  let dependentDialects = [
    "::mlir::isaac::IsaacDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
}

def IsaacSelectConfig : Pass<"isaac-select-config", "ModuleOp"> {
  let summary = "Attach the best legal #isaac.gemm to each static GEMM";
  let description = [{
    For every `linalg.matmul` / `linalg.batch_matmul` / `isaac.gemm` with
    static f32/f64 operands (memrefs or tensors) that has no `isaac.config`
    yet, searches the whole legal
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
    everything). Unsupported operations (dynamic shapes, other element
    types) are left untouched with a remark, or rejected with `strict`.

    Convolutions (`linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc`,
    static f32/f64, memrefs or tensors; lib/Transforms/ConvMatch.cpp) get
    the `#isaac.gemm` of their implicit GEMM (M = N·P·Q, N = K,
    K = C·R·S): the simt space less the conv-only rules
    (lib/Model/ConvLegality.cpp), ranked by the analytic heuristic (trained
    models and tuning caches are GEMMs'); a remark says so. A
    user-written `isaac.config` on a convolution must meet the conv rules.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_90, ...)">,
    Option<"topk", "topk", "unsigned", /*default=*/"1",
           "Record the N best configurations as isaac.candidates">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Make unsupported GEMMs an error instead of a remark">,
    Option<"remarkSkipped", "remark-skipped", "bool", /*default=*/"true",
           "Remark on each GEMM left untouched (--isaac-pipeline turns this "
           "off: the generic GPU path reports those ops)">,
    Option<"modelDir", "model-dir", "std::string", /*default=*/"\"\"",
           "Directory of trained models, <dir>/<chip>/gemm-<dtype>.mlp "
           "(empty: the source tree's models/; 'none': analytic heuristic "
           "only)">,
    Option<"cache", "cache", "std::string", /*default=*/"\"\"",
           "Tuning cache file whose entries win over the search">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Let every f32 GEMM multiply in TF32 on tensor cores (the mma "
           "family); per operation: the isaac.tf32 unit attribute. Without "
           "either, f32 GEMMs are exact IEEE f32 (the simt family)">,
  ];
  let dependentDialects = ["::mlir::isaac::IsaacDialect"];
}

def IsaacLowerToGPU : Pass<"isaac-lower-to-gpu", "ModuleOp"> {
  let summary = "Lower configured GEMMs to generated GPU kernels";
  let description = [{
    Replaces every `linalg.matmul` / `linalg.batch_matmul` / `isaac.gemm`
    on memrefs carrying `isaac.config` (A and/or B possibly transposed) by
    an `isaac.launch_gemm` of a kernel generated for that configuration,
    element type, layout and epilogue: one `gpu.module` per kernel, holding
    the GEMM `gpu.func` and, when KG > 1, the split-K helper kernels
    (docs/abi.md). An `isaac.gemm` whose epilogue is the identity or an
    in-place accumulation is a plain GEMM (beta = 0 or 1); any other
    epilogue is fused into the kernel. A zero `linalg.fill` of a
    `linalg.matmul`'s output right before it becomes beta = 0. Operations
    without a configuration, or that the generator cannot handle, are left
    untouched with a remark (an error with `strict`); an `isaac.gemm` left
    untouched is decomposed into a contraction and an elementwise
    `linalg.generic`, which the generic GPU path can run.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_90, ...)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features of the NVVM target (empty: the PTX ISA version of "
           "the chip table, include/isaac/Model/Chips.def)">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Make GEMMs that cannot be lowered an error instead of a remark">,
    Option<"remarkSkipped", "remark-skipped", "bool", /*default=*/"true",
           "Remark on each GEMM left untouched (--isaac-pipeline turns this "
           "off: the generic GPU path reports those ops)">,
  ];
  let dependentDialects = [
    "::mlir::isaac::IsaacDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect"
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

def IsaacAttachTarget : Pass<"isaac-attach-target", "ModuleOp"> {
  let summary = "Give every gpu.module without a target the NVVM target of the chip";
  let description = [{
    Kernel modules that isaac-lower-to-gpu generates carry their NVVM target;
    those `gpu-kernel-outlining` creates for the generic GPU path do not.
    This pass attaches `#nvvm.target<chip = ..., features = ...>` (the
    chip's PTX version unless `features` says otherwise) to each
    `gpu.module` that has no target yet, and leaves the others alone
    (`nvvm-attach-target` would add a second target to them).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_90, ...)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features of the NVVM target (empty: the PTX ISA version of "
           "the chip table, include/isaac/Model/Chips.def)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def IsaacTensorMapParams
    : Pass<"isaac-tensor-map-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Pass kernels' tensor maps by value, as grid constants";
  let description = [{
    Runs on kernel code after `convert-gpu-to-nvvm`. A kernel whose
    `isaac.tensor_map_args` attribute lists parameter indices (the wgmma
    GEMM kernels' `tmA` and `tmB`, isaac/Runtime/KernelABI.def) gets those
    `!llvm.ptr` parameters marked `llvm.byval = !llvm.array<128 x i8>`,
    `llvm.align = 64` and `nvvm.grid_constant`: in PTX each becomes
    `.param .align 64 .b8 p[128]`, a CUtensorMap the launch copies into
    parameter space, and the kernel's uses of the pointer read its generic
    address (`cvta.param`), which is what `cp.async.bulk.tensor` takes.
    The GPU dialect's lowering drops argument attributes it does not know,
    so they are set here rather than on the `gpu.func`; the attribute is
    removed. An index that is not a pointer parameter is an error.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def IsaacLegalizeMath : Pass<"isaac-legalize-math"> {
  let summary = "Rewrite math ops in kernels into code NVPTX can run";
  let description = [{
    Runs on kernel code (`gpu.module`s) before `convert-gpu-to-nvvm`, so
    that the math functions of fused epilogues and of the generic GPU path
    need no libdevice in single and lower precision:

    - f16 / bf16 math functions compute in f32 and round back;
    - f32 tanh, erf, erfc, exp, expm1, log, log1p, log2, sin, cos, atan,
      atan2, asin, acos and cbrt become MLIR's polynomial approximations
      (arith only; a few ulp);
    - rsqrt becomes 1 / sqrt, exp2(x) becomes exp(x · ln 2), and powf with
      a small constant integer exponent becomes multiplications;
    - f32 / f64 absf and copysign (which the approximations use too)
      become sign-bit arithmetic; fma and trunc LLVM intrinsics; scalar
      floor, ceil, roundeven and sqrt one PTX instruction each (cvt.rmi,
      cvt.rpi, cvt.rni, sqrt.rn), where convert-gpu-to-nvvm would call
      libdevice's __nv_fabsf, __nv_fmaf, ....

    Everything else (f64 transcendental functions, powf with another
    exponent) is left to `convert-gpu-to-nvvm`, which calls libdevice;
    isaac-lower-launch refuses PTX that still calls libdevice because none
    was found to link.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

//===----------------------------------------------------------------------===//
// The generic GPU path: everything isaac does not compile itself
// (docs/architecture.md, "The generic GPU path").
//===----------------------------------------------------------------------===//

def IsaacStageHostConstants : Pass<"isaac-stage-host-constants", "ModuleOp"> {
  let summary = "Copy host constants that kernels read into device buffers";
  let description = [{
    Bufferization turns `arith.constant dense<...>` tensors into
    `memref.get_global` of host globals; kernels cannot read host memory.
    For every global that a host function uses as device data (see
    isaac-device-memory for the rule), the function gets, once, at its
    entry, a `memref.alloc` of the global's type and a `memref.copy` from
    the global into it, and every device use reads that buffer instead.
    Runs after bufferization and before `buffer-deallocation-pipeline`, so
    that the deallocation pipeline frees the buffer.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def IsaacDeviceMemory : Pass<"isaac-device-memory", "ModuleOp"> {
  let summary = "Allocate host functions' device buffers with gpu.alloc";
  let description = [{
    Runs after `gpu-kernel-outlining`. In host functions, `memref.alloc`,
    `memref.alloca` and `memref.dealloc` of device data become
    `gpu.alloc` / `gpu.dealloc` (an alloca is freed at the end of its
    block), and remaining `memref.copy` of device data becomes
    `gpu.memcpy`.

    Device data: memref values that may alias each other (views, casts,
    `arith.select`, control flow, calls to functions of the module) form
    one class. A class is host-only when it holds no function argument of
    a public function, no `gpu.alloc`, is used by no kernel, no launch, no
    external call and no operation other than host loads, stores, copies,
    deallocations and metadata, and, unless the CPU itself loads or stores
    it, is not copied to or from device data. The pointer and flag arrays
    that `buffer-deallocation-pipeline` builds for its `dealloc_helper`
    are host-only and stay `memref.alloc`; every other class is device
    data.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect"
  ];
}

def IsaacOffload : Pass<"isaac-offload", "ModuleOp"> {
  let summary = "Run every remaining operation on operand data as GPU code";
  let description = [{
    After isaac-lower-to-gpu, every operation of a host function (a
    `func.func` outside `gpu.module`) that computes on operand data and
    that isaac did not compile becomes a `gpu.launch` through upstream MLIR:

    - linalg operations on memrefs (generic, named, fill, copy,
      convolutions, reductions, transposes, GEMMs isaac did not take;
      static or dynamic shapes): parallel dimensions are interchanged
      outermost, `linalgOpToParallelLoops` gives one `scf.parallel` over
      them with `scf.for` loops for the reductions inside; an operation
      without parallel dimensions runs in one thread;
    - `scf.parallel` loops written on the host (without reductions);
      nested ones run sequentially in each thread;
    - `memref.copy`: a `gpu.memcpy` when both sides have the identity
      layout, else a copy kernel; copies between host-only buffers stay.

    The parallel dimensions are collapsed into one, the innermost fastest
    (consecutive threads touch consecutive elements), tiled by
    `block-size`, and mapped to blocks (x) and threads (x) by the upstream
    SCF-to-GPU conversion; out-of-range threads are guarded, and a launch
    whose size is not known to be nonzero is skipped when empty.

    Each offloaded operation gets one remark, `isaac: '<op>' runs on the
    generic GPU path (untuned): <why>` (for matmuls: why isaac could not
    take it); with `strict` it is an error instead. Operations inside
    `gpu.module` or `gpu.launch`, and `isaac.launch_gemm`, are left alone.
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Make every operation that takes the generic GPU path an error">,
    Option<"blockSize", "block-size", "unsigned", /*default=*/"256",
           "Threads per block of the generic kernels (1 to 1024)">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::affine::AffineDialect"
  ];
}

def IsaacCheckHost : Pass<"isaac-check-host", "ModuleOp"> {
  let summary = "Verify that host functions only launch kernels and manage buffers";
  let description = [{
    An allow-list check that runs at the end of the pipeline: host
    functions may hold control flow (func, cf, scf without scf.parallel),
    scalar arith/math/index operations, memref metadata operations,
    `gpu.alloc/dealloc/memcpy/memset/launch_func/wait`,
    `isaac.launch_gemm`, the LLVM operations isaac-lower-launch creates,
    and loads, stores, copies, allocations and deallocations of host-only
    buffers (isaac-device-memory's rule). Anything else is an error,
    `isaac: host function @f would touch device memory from the CPU:
    '<op>'`; a kernel launch given host memory is an error as well.
  }];
}

def IsaacElideLaunchWaits
    : Pass<"isaac-elide-launch-waits", "::mlir::func::FuncOp"> {
  let summary = "Drop the host waits gpu-async-region puts before isaac launches";
  let description = [{
    Runs after `gpu-async-region`. That pass makes the GPU operations of a
    host function asynchronous and puts a blocking `gpu.wait` before every
    other operation with side effects, among them the calls of isaac's
    runtime that launch isaac's kernels (`isaacGemmLaunch*`,
    `isaacConvLaunch*`, isaac-lower-launch's). Such a wait makes the host
    wait for the GPU between two layers of a network (the allocation of
    the next layer's output, then its launch), so the host enqueues each
    layer only once the previous one has run. It is not needed: isaac's
    runtime runs the mgpu* functions (the asynchronous tokens' streams)
    and isaac's launches on one stream, the legacy default stream
    (docs/abi.md, "Host ABI"), so a launch is ordered after the awaited
    work on the GPU. This pass removes a blocking `gpu.wait` when the next
    operation with side effects is such a call; every other wait (the one
    at the end of the function, those before host loads, other calls)
    stays.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // ISAAC_PASSES
