// Each kind of fused epilogue, visible in the PTX of its kernel: bias +
// relu, gelu in its tanh and erf forms (f32 polynomial approximations: no
// libdevice call), sigmoid, silu and clamp, f16 and bf16 outputs, a residual
// add, and a split-K kernel whose reducer applies the epilogue.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t" -o %t.mlir
// RUN: cat %t/isaac_gemm_f32_nn_ml32_nl32_*_ep*.ptx | FileCheck %s --check-prefix=RELU
// RUN: cat %t/isaac_gemm_f32_nn_ml64_nl32_*_ep*.ptx | FileCheck %s --check-prefix=GELU
// RUN: cat %t/isaac_gemm_f32_nn_ml32_nl64_*_ep*.ptx | FileCheck %s --check-prefix=SIGMOID
// RUN: cat %t/isaac_gemm_f32_nt_ml32_nl32_*_ep*.ptx | FileCheck %s --check-prefix=F16
// RUN: cat %t/isaac_gemm_f32_tn_ml32_nl32_*_ep*.ptx | FileCheck %s --check-prefix=BF16
// RUN: cat %t/isaac_gemm_f32_nn_ml16_nl32_*_ep*.ptx | FileCheck %s --check-prefix=SPLITK
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir
// RUN: %if ptxas %{ for f in %t/*.ptx; do %ptxas -arch=sm_90 $f -o %t/k.cubin || exit 1; done %}

// The header names the epilogue and its per-column input; 15 + 1 + 4
// parameters (the split-K tile counters, one input); relu is a
// NaN-propagating max.
// RELU: // isaac.kernel name=isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4_ep{{[0-9a-f]+}} {{.*}} epilogue=[[ID:[0-9a-f]+]]
// RELU-NEXT: // isaac.epilogue id=[[ID]] out=f32 inputs=1 in0=f32[n] program=x:f32, in0:f32[n]; v0 = const 0 : f32; v1 = addf x, in0 : f32; v2 = maximumf v1, v0 : f32; yield v2 : f32
// RELU: .visible .entry isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4_ep[[ID]](
// RELU: .param .u64 isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4_ep[[ID]]_param_19
// RELU-NOT: _param_20
// RELU: max.NaN.f32
// RELU-NOT: .extern
func.func @relu(%a: memref<100x70xf32>, %b: memref<70x50xf32>, %bias: memref<50xf32>, %c: memref<100x50xf32>) {
  isaac.gemm ins(%a, %b : memref<100x70xf32>, memref<70x50xf32>) inputs(%bias : memref<50xf32>) outs(%c : memref<100x50xf32>)
    attributes {input_maps = [affine_map<(m, n) -> (n)>], isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %z : f32
    isaac.yield %r : f32
  }
  return
}

// gelu, tanh form with x^3 as powf, then erf form: multiplications and
// polynomials, no libdevice call and no tanh.approx.
// GELU: .visible .entry isaac_gemm_f32_nn_ml64_nl32_
// GELU-NOT: tanh.approx
// GELU-NOT: .extern
// GELU-NOT: call
// GELU: fma.rn.f32
func.func @gelu(%a: memref<100x70xf32>, %b: memref<70x50xf32>, %c: memref<100x50xf32>) {
  isaac.gemm ins(%a, %b : memref<100x70xf32>, memref<70x50xf32>) outs(%c : memref<100x50xf32>)
    attributes {input_maps = [], isaac.config = #isaac.gemm<ml = 64, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32):
    %c3 = arith.constant 3.0 : f32
    %x3 = math.powf %x, %c3 : f32
    %k0 = arith.constant 0.044715 : f32
    %t0 = arith.mulf %k0, %x3 : f32
    %t1 = arith.addf %x, %t0 : f32
    %k1 = arith.constant 0.7978845608028654 : f32
    %t2 = arith.mulf %k1, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %one = arith.constant 1.0 : f32
    %t4 = arith.addf %one, %t3 : f32
    %half = arith.constant 0.5 : f32
    %t5 = arith.mulf %half, %x : f32
    %g = arith.mulf %t5, %t4 : f32
    %kr = arith.constant 0.7071067811865476 : f32
    %u0 = arith.mulf %g, %kr : f32
    %u1 = math.erf %u0 : f32
    %u2 = arith.addf %one, %u1 : f32
    %u3 = arith.mulf %half, %g : f32
    %u4 = arith.mulf %u3, %u2 : f32
    isaac.yield %u4 : f32
  }
  return
}

// sigmoid (exp, approximated), silu, and a clamp to 6 through cmpf/select.
// SIGMOID: .visible .entry isaac_gemm_f32_nn_ml32_nl64_
// SIGMOID-NOT: .extern
// SIGMOID: rcp.rn.f32
// SIGMOID: setp.gt.f32
// SIGMOID: selp.f32
func.func @sigmoid(%a: memref<100x70xf32>, %b: memref<70x50xf32>, %c: memref<100x50xf32>) {
  isaac.gemm ins(%a, %b : memref<100x70xf32>, memref<70x50xf32>) outs(%c : memref<100x50xf32>)
    attributes {input_maps = [], isaac.config = #isaac.gemm<ml = 32, nl = 64, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %x, %s : f32
    %six = arith.constant 6.0 : f32
    %gt = arith.cmpf ogt, %silu, %six : f32
    %r = arith.select %gt, %six, %silu : f32
    isaac.yield %r : f32
  }
  return
}

// An f16 output: converted once, stored as 16-bit values at the edges and
// as packed vectors (4 halves per thread row: v2.b32) inside.
// F16: // isaac.epilogue id={{[0-9a-f]+}} out=f16 inputs=0 program=
// F16: cvt.rn.f16.f32
// F16-DAG: st.global.b16
// F16-DAG: st.global.v2.b32
func.func @f16(%a: memref<100x70xf32>, %b: memref<50x70xf32>, %c: memref<100x50xf16>) {
  isaac.gemm ins(%a, %b : memref<100x70xf32>, memref<50x70xf32>) outs(%c : memref<100x50xf16>)
    attributes {input_maps = [], transpose_b, isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32):
    %h = arith.truncf %x : f32 to f16
    isaac.yield %h : f16
  }
  return
}

// A residual (a full M x N input) added, then a bf16 output.
// BF16: // isaac.epilogue id={{[0-9a-f]+}} out=bf16 inputs=1 in0=f32 program=
// BF16: @%p{{[0-9]+}} ld.global.f32
// BF16: cvt.rn.bf16.f32
func.func @bf16(%a: memref<70x100xf32>, %b: memref<70x50xf32>, %r: memref<100x50xf32>, %c: memref<100x50xbf16>) {
  isaac.gemm ins(%a, %b : memref<70x100xf32>, memref<70x50xf32>) inputs(%r : memref<100x50xf32>) outs(%c : memref<100x50xbf16>)
    attributes {input_maps = [affine_map<(m, n) -> (m, n)>], transpose_a, isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %h = arith.truncf %s : f32 to bf16
    isaac.yield %h : bf16
  }
  return
}

// Split-K (a per-row bias and a scale by 0.125, 0f3E000000): in atomic
// mode the GEMM kernel adds its slice into T, counts itself in, and the
// tile's last block applies the epilogue; in deterministic mode it stores
// the slice to the workspace and the reducer sums the slices and applies
// the epilogue.
// SPLITK: .visible .entry isaac_gemm_f32_nn_ml16_nl32_ms4_ns4_u16_ks1_kl1_kg8_v4_ep
// SPLITK: red.global.add.f32
// SPLITK: fence.acq_rel.gpu
// SPLITK: atom.add.acq_rel.gpu.u32
// SPLITK: ld.global.cg.f32
// SPLITK: 0f3E000000
// SPLITK: .visible .entry isaac_splitk_reduce_f32_ep
// SPLITK: 0f3E000000
func.func @splitk(%a: memref<40x3000xf32>, %b: memref<3000x30xf32>, %bias: memref<40xf32>, %c: memref<40x30xf32>) {
  isaac.gemm ins(%a, %b : memref<40x3000xf32>, memref<3000x30xf32>) inputs(%bias : memref<40xf32>) outs(%c : memref<40x30xf32>)
    attributes {input_maps = [affine_map<(m, n) -> (m)>], isaac.config = #isaac.gemm<ml = 16, nl = 32, ms = 4, ns = 4, u = 16, ks = 1, kl = 1, kg = 8, vec = 4>} {
  ^bb0(%x: f32, %y: f32):
    %k = arith.constant 0.125 : f32
    %s = arith.mulf %x, %k : f32
    %t = arith.addf %s, %y : f32
    isaac.yield %t : f32
  }
  return
}

// The host calls isaacGemmLaunchEpilogue with a stack array of the inputs'
// {pointer, batch, row, column strides}: a per-column bias has strides
// (0, 0, 1).
// HOST: llvm.func @isaacGemmLaunchEpilogue(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, i64, i64, i64, i32, f64, f64, !llvm.ptr, i32, i32, !llvm.ptr) -> i32
// HOST-LABEL: llvm.func @relu(
// HOST: %[[ARR:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x struct<(ptr, i64, i64, i64)>>
// HOST: llvm.call @isaacGemmLaunchEpilogue({{.*}}, %[[ARR]]) :
