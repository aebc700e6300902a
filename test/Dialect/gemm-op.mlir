// RUN: isaac-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s -split-input-file -verify-diagnostics | isaac-opt -split-input-file | FileCheck %s

// isaac.gemm on tensors: a bias + relu epilogue round-trips.
// CHECK-LABEL: func.func @bias_relu
// CHECK: %[[R:.*]] = isaac.gemm ins(%{{.*}}, %{{.*}} : tensor<16x512xf32>, tensor<512x256xf32>) inputs(%{{.*}} : tensor<256xf32>) outs(%{{.*}} : tensor<16x256xf32>) attributes {input_maps = [#{{.*}}]} {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK: arith.maximumf
// CHECK: isaac.yield %{{.*}} : f32
// CHECK: } -> tensor<16x256xf32>
#col = affine_map<(m, n) -> (n)>
func.func @bias_relu(%x: tensor<16x512xf32>, %w: tensor<512x256xf32>,
                     %b: tensor<256xf32>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<16x256xf32>
  %r = isaac.gemm ins(%x, %w : tensor<16x512xf32>, tensor<512x256xf32>)
         inputs(%b : tensor<256xf32>) outs(%e : tensor<16x256xf32>)
         attributes {input_maps = [#col]} {
  ^bb0(%acc: f32, %bias: f32):
    %s = arith.addf %acc, %bias : f32
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %z : f32
    isaac.yield %m : f32
  } -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

// On memrefs: no result; a batched GEMM with transposed operands, an f16
// output and a configuration.
// CHECK-LABEL: func.func @batched_f16_out
// CHECK: isaac.gemm ins(%{{.*}}, %{{.*}} : memref<4x32x16xf32>, memref<4x8x32xf32>) outs(%{{.*}} : memref<4x16x8xf16>) attributes {input_maps = [], isaac.config = #isaac.gemm<{{.*}}>, transpose_a, transpose_b}
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @batched_f16_out(%a: memref<4x32x16xf32>, %b: memref<4x8x32xf32>,
                           %c: memref<4x16x8xf16>) {
  isaac.gemm ins(%a, %b : memref<4x32x16xf32>, memref<4x8x32xf32>)
    outs(%c : memref<4x16x8xf16>)
    attributes {input_maps = [], transpose_a, transpose_b,
                isaac.config = #isaac.gemm<ml = 16, nl = 8, ms = 2, ns = 1, u = 8,
                                           ks = 1, kl = 1, kg = 1, vec = 1>} {
  ^bb0(%acc: f32):
    %h = arith.truncf %acc : f32 to f16
    isaac.yield %h : f16
  }
  return
}

// -----

func.func @mixed(%a: tensor<8x8xf32>, %b: memref<8x8xf32>, %c: tensor<8x8xf32>) {
  // expected-error @below {{expects all operands to be ranked tensors or all to be memrefs}}
  %r = isaac.gemm ins(%a, %b : tensor<8x8xf32>, memref<8x8xf32>)
         outs(%c : tensor<8x8xf32>) attributes {input_maps = []} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  } -> tensor<8x8xf32>
  return
}

// -----

func.func @shapes(%a: memref<8x4xf32>, %b: memref<5x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @below {{operand shapes do not form a GEMM: C is 8x8, op(A) is 8x4, op(B) is 5x8}}
  isaac.gemm ins(%a, %b : memref<8x4xf32>, memref<5x8xf32>)
    outs(%c : memref<8x8xf32>) attributes {input_maps = []} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  }
  return
}

// -----

func.func @map_count(%a: memref<8x8xf32>, %c: memref<8x8xf32>, %x: memref<8xf32>) {
  // expected-error @below {{has 1 inputs but 0 input_maps}}
  isaac.gemm ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>)
    inputs(%x : memref<8xf32>) outs(%c : memref<8x8xf32>)
    attributes {input_maps = []} {
  ^bb0(%acc: f32, %v: f32):
    isaac.yield %acc : f32
  }
  return
}

// -----

#bad = affine_map<(m, n) -> (m + n)>
func.func @map_kind(%a: memref<8x8xf32>, %c: memref<8x8xf32>, %x: memref<8xf32>) {
  // expected-error @below {{input_maps[0] must be a projected permutation of the 2-D output space}}
  isaac.gemm ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>)
    inputs(%x : memref<8xf32>) outs(%c : memref<8x8xf32>)
    attributes {input_maps = [#bad]} {
  ^bb0(%acc: f32, %v: f32):
    isaac.yield %acc : f32
  }
  return
}

// -----

#row = affine_map<(m, n) -> (m)>
func.func @map_size(%a: memref<8x8xf32>, %c: memref<8x8xf32>, %x: memref<7xf32>) {
  // expected-error @below {{input 0 has size 7 along dimension 0, which its map ties to output dimension 0 of size 8}}
  isaac.gemm ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>)
    inputs(%x : memref<7xf32>) outs(%c : memref<8x8xf32>)
    attributes {input_maps = [#row]} {
  ^bb0(%acc: f32, %v: f32):
    isaac.yield %acc : f32
  }
  return
}

// -----

func.func @region_args(%a: memref<8x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @below {{epilogue's first argument must have the accumulation type 'f32'}}
  isaac.gemm ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>)
    outs(%c : memref<8x8xf32>) attributes {input_maps = []} {
  ^bb0(%acc: f64):
    %t = arith.truncf %acc : f64 to f32
    isaac.yield %t : f32
  }
  return
}

// -----

func.func @yield_type(%a: memref<8x8xf32>, %c: memref<8x8xf16>) {
  // expected-error @below {{epilogue yields 'f32' but the output elements are 'f16'}}
  isaac.gemm ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>)
    outs(%c : memref<8x8xf16>) attributes {input_maps = []} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  }
  return
}

// -----

func.func @isolated(%a: memref<8x8xf32>, %c: memref<8x8xf32>, %s: f32) {
  // expected-note @below {{required by region isolation constraints}}
  isaac.gemm ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>)
    outs(%c : memref<8x8xf32>) attributes {input_maps = []} {
  ^bb0(%acc: f32):
    // expected-error @below {{using value defined outside the region}}
    %m = arith.mulf %acc, %s : f32
    isaac.yield %m : f32
  }
  return
}

// -----

func.func @config_on_gemm(%a: memref<8x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @below {{illegal isaac.config for f32 on sm_90 (rule shared-memory)}}
  // expected-note @below {{also breaks rule registers}}
  isaac.gemm ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>)
    outs(%c : memref<8x8xf32>)
    attributes {input_maps = [],
                isaac.config = #isaac.gemm<ml = 256, nl = 256, ms = 8, ns = 8, u = 32,
                                           ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  }
  return
}
