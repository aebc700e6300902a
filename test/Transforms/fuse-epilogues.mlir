// RUN: isaac-opt %s --isaac-fuse-epilogues -split-input-file -verify-diagnostics -mlir-print-local-scope | FileCheck %s

// A zero fill of the init is beta = 0: no input, the epilogue yields the
// accumulated value.
// CHECK-LABEL: func.func @zero_fill
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: %[[R:.*]] = isaac.gemm ins(%arg0, %arg1 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%[[E]] : tensor<16x32xf32>) attributes {input_maps = []} {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: isaac.yield %[[X]] : f32
// CHECK: return %[[R]]
func.func @zero_fill(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %mm : tensor<16x32xf32>
}

// -----

// Another constant is added to every element.
// CHECK-LABEL: func.func @nonzero_fill
// CHECK: isaac.gemm
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.5
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[X]]
// CHECK-NEXT: isaac.yield %[[S]]
func.func @nonzero_fill(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %c = arith.constant 2.5 : f32
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %mm : tensor<16x32xf32>
}

// -----

// Any other init is an input added to the product (C += A·B), read in place.
// CHECK-LABEL: func.func @accumulate
// CHECK: isaac.gemm ins(%arg0, %arg1 : {{.*}}) inputs(%arg2 : tensor<16x32xf32>) outs(%arg2 : tensor<16x32xf32>) attributes {input_maps = [affine_map<(d0, d1) -> (d0, d1)>]}
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[X]]
func.func @accumulate(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %mm : tensor<16x32xf32>
}

// -----

// Per-column bias broadcast by linalg.broadcast and added by linalg.add,
// then relu in a generic: one isaac.gemm reading the bias vector itself.
// CHECK-LABEL: func.func @bias_relu
// CHECK-NOT: linalg.
// CHECK: isaac.gemm ins(%arg0, %arg1 : tensor<16x64xf32>, tensor<64x32xf32>) inputs(%arg2 : tensor<32xf32>) outs(%{{.*}} : tensor<16x32xf32>) attributes {input_maps = [affine_map<(d0, d1) -> (d1)>]}
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
func.func @bias_relu(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<16x32xf32>) dimensions = [0]
  %add = linalg.add ins(%mm, %bb : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%add : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// Per-row bias and a scale in one generic; a residual add, gelu (erf form)
// and a conversion to f16 in a second.
// CHECK-LABEL: func.func @row_residual_gelu_f16
// CHECK: isaac.gemm ins({{.*}}) inputs(%arg2, %arg3 : tensor<16xf32>, tensor<16x32xf32>) outs(%{{.*}} : tensor<16x32xf16>) attributes {input_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]}
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: math.erf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: isaac.yield %{{.*}} : f16
// CHECK: } -> tensor<16x32xf16>
func.func @row_residual_gelu_f16(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>, %b: tensor<16xf32>, %res: tensor<16x32xf32>) -> tensor<16x32xf16> {
  %e = tensor.empty() : tensor<16x32xf32>
  %h = tensor.empty() : tensor<16x32xf16>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<16x32xf32>, tensor<16xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %t = arith.mulf %v, %scale : f32
    %u = arith.addf %t, %bias : f32
    linalg.yield %u : f32
  } -> tensor<16x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %res : tensor<16x32xf32>, tensor<16x32xf32>) outs(%h : tensor<16x32xf16>) {
  ^bb0(%v: f32, %r: f32, %o: f16):
    %a = arith.addf %v, %r : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rs2 = arith.constant 0.70710678118654757 : f32
    %y = arith.mulf %a, %rs2 : f32
    %erf = math.erf %y : f32
    %p = arith.addf %erf, %one : f32
    %q = arith.mulf %a, %p : f32
    %gelu = arith.mulf %q, %half : f32
    %out = arith.truncf %gelu : f32 to f16
    linalg.yield %out : f16
  } -> tensor<16x32xf16>
  return %g : tensor<16x32xf16>
}

// -----

// sigmoid, silu and clamp (cmpf + select) chained over three generics.
// CHECK-LABEL: func.func @sigmoid_silu_clamp
// CHECK: isaac.gemm
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: isaac.yield
// CHECK-NOT: linalg.generic
func.func @sigmoid_silu_clamp(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %sig = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %v : f32
    %ex = math.exp %n : f32
    %d = arith.addf %one, %ex : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %v, %s : f32
    linalg.yield %silu : f32
  } -> tensor<16x32xf32>
  %clamp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sig : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %six = arith.constant 6.0 : f32
    %gt = arith.cmpf ogt, %v, %six : f32
    %c = arith.select %gt, %six, %v : f32
    linalg.yield %c : f32
  } -> tensor<16x32xf32>
  return %clamp : tensor<16x32xf32>
}

// -----

// A result with two uses stays a GEMM of its own; its consumers are left.
// CHECK-LABEL: func.func @two_uses
// CHECK: %[[R:.*]] = isaac.gemm
// CHECK: linalg.generic {{.*}} ins(%[[R]]
// CHECK: linalg.generic {{.*}} ins(%[[R]]
func.func @two_uses(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %e = tensor.empty() : tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.minimumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  return %a, %b : tensor<16x32xf32>, tensor<16x32xf32>
}

// -----

// An operation epilogues do not support stops the fusion, with a remark.
// CHECK-LABEL: func.func @unsupported_body
// CHECK: %[[R:.*]] = isaac.gemm
// CHECK: linalg.generic {{.*}} ins(%[[R]]
// CHECK: math.sin
func.func @unsupported_body(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  // expected-remark @below {{isaac: not fused into the epilogue of the GEMM at}}
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = math.sin %v : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  return %s : tensor<16x32xf32>
}

// -----

// batch_matmul with a per-column bias shared by all batches; the consumer
// updates the GEMM's result in place (outs(%mm)).
// CHECK-LABEL: func.func @batched_inplace_consumer
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x16x32xf32>
// CHECK: isaac.gemm ins({{.*}} : tensor<4x16x64xf32>, tensor<4x64x32xf32>) inputs(%arg2 : tensor<32xf32>) outs(%[[E]] : tensor<4x16x32xf32>) attributes {input_maps = [affine_map<(d0, d1, d2) -> (d2)>]}
func.func @batched_inplace_consumer(%x: tensor<4x16x64xf32>, %w: tensor<4x64x32xf32>, %b: tensor<32xf32>) -> tensor<4x16x32xf32> {
  %e = tensor.empty() : tensor<4x16x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  %mm = linalg.batch_matmul ins(%x, %w : tensor<4x16x64xf32>, tensor<4x64x32xf32>) outs(%f : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<32xf32>) outs(%mm : tensor<4x16x32xf32>) {
  ^bb0(%bias: f32, %o: f32):
    %s = arith.addf %o, %bias : f32
    linalg.yield %s : f32
  } -> tensor<4x16x32xf32>
  return %r : tensor<4x16x32xf32>
}

// -----

// GEMMs isaac cannot compile are not touched (the generic GPU path takes
// them later): dynamic shapes, f16 operands into an f64 output.
// CHECK-LABEL: func.func @not_compiled
// CHECK-NOT: isaac.gemm
// CHECK: linalg.matmul
// CHECK: linalg.matmul
func.func @not_compiled(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %c: tensor<?x32xf32>,
                        %h: tensor<16x64xf16>, %hw: tensor<64x32xf16>, %hc: tensor<16x32xf64>) -> (tensor<?x32xf32>, tensor<16x32xf64>) {
  %mm = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%c : tensor<?x32xf32>) -> tensor<?x32xf32>
  %mh = linalg.matmul ins(%h, %hw : tensor<16x64xf16>, tensor<64x32xf16>) outs(%hc : tensor<16x32xf64>) -> tensor<16x32xf64>
  return %mm, %mh : tensor<?x32xf32>, tensor<16x32xf64>
}

// -----

// 16-bit operands accumulate in f32: the epilogue's value is f32, the old
// C is extended to it and the result rounded once to C's type.
// CHECK-LABEL: func.func @f16_accumulate
// CHECK: isaac.gemm ins(%arg0, %arg1 : tensor<16x64xf16>, tensor<64x32xf16>) inputs(%arg2 : tensor<16x32xf16>) outs(%arg2 : tensor<16x32xf16>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[C:.*]]: f16):
// CHECK: %[[E:.*]] = arith.extf %[[C]] : f16 to f32
// CHECK: %[[S:.*]] = arith.addf %[[E]], %[[X]] : f32
// CHECK: %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK: isaac.yield %[[T]] : f16
func.func @f16_accumulate(%h: tensor<16x64xf16>, %hw: tensor<64x32xf16>, %hc: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %mh = linalg.matmul ins(%h, %hw : tensor<16x64xf16>, tensor<64x32xf16>) outs(%hc : tensor<16x32xf16>) -> tensor<16x32xf16>
  return %mh : tensor<16x32xf16>
}

// -----

// bf16 operands, f32 output, zero fill, and a bias + relu in f32: the
// accumulated value is the f32 result itself.
// CHECK-LABEL: func.func @bf16_bias_relu
// CHECK: isaac.gemm ins(%arg0, %arg1 : tensor<16x64xbf16>, tensor<64x32xbf16>) inputs(%arg2 : tensor<32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NOT: arith.extf
// CHECK: arith.addf %[[X]], %[[B]] : f32
// CHECK: arith.maximumf
func.func @bf16_bias_relu(%x: tensor<16x64xbf16>, %w: tensor<64x32xbf16>, %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %relu = arith.maximumf %s, %z : f32
    linalg.yield %relu : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
