// RUN: isaac-opt %s --isaac-lower-to-gpu -split-input-file | FileCheck %s
// RUN: isaac-opt %s --isaac-lower-to-gpu="remark-skipped=true" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not isaac-opt %s --isaac-lower-to-gpu="strict=true" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// An isaac.conv on memrefs with a fused epilogue becomes an
// isaac.launch_conv of a conv kernel named for it (_ep<ID>): its inputs are
// addressed in the implicit GEMM's (m, n) = (N*P*Q, K) space, a residual
// viewed as an (N*P*Q) x K matrix, a bias along n. The kernel takes the
// CONV_ARG rows, the tile counters, then four parameters per input; with
// KG > 1 the module holds the epilogue's split-K reducer.
// CHECK-LABEL: func.func @fused
// CHECK: %[[RES:.*]] = memref.collapse_shape %arg3 {{\[\[}}0, 1, 2], [3]] : memref<2x8x8x16xf32> into memref<128x16xf32>
// CHECK: isaac.launch_conv @[[K:isaac_conv_f32_nhwc_hwcf_simt_ml32_nl16_ms4_ns2_u8_ks1_kl1_kg2_v2_ep[0-9a-f]+]]::@[[K]](%arg0, %arg1, %arg4) inputs(%arg2, %[[RES]] : memref<16xf32>, memref<128x16xf32>)
// CHECK-SAME: beta = 0.0
// CHECK-SAME: epilogue = "x:f32, in0:f32[n], in1:f32; v0 = addf x, in0 : f32; v1 = addf v0, in1 : f32; v2 = const 0 : f32; v3 = maximumf v1, v2 : f32; yield v3 : f32"
// CHECK-SAME: input_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}]
// CHECK: gpu.module @[[K]]
// CHECK-SAME: isaac.epilogue = "x:f32, in0:f32[n], in1:f32;
// CHECK: gpu.func @[[K]](%{{.*}}: !llvm.ptr<1>, {{.*}}%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) kernel
// CHECK: gpu.func @isaac_splitk_reduce_f32_ep
func.func @fused(%x: memref<2x10x10x8xf32>, %w: memref<3x3x8x16xf32>, %b: memref<16xf32>, %res: memref<2x8x8x16xf32>, %out: memref<2x8x8x16xf32>) {
  isaac.conv ins(%x, %w : memref<2x10x10x8xf32>, memref<3x3x8x16xf32>) inputs(%b, %res : memref<16xf32>, memref<2x8x8x16xf32>) outs(%out : memref<2x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
                  input_maps = [affine_map<(n, p, q, k) -> (k)>, affine_map<(n, p, q, k) -> (n, p, q, k)>],
                  isaac.config = #isaac.gemm<ml = 32, nl = 16, ms = 4, ns = 2, u = 8, ks = 1, kl = 1, kg = 2, vec = 2>} {
  ^bb0(%acc: f32, %bias: f32, %r: f32):
    %s = arith.addf %acc, %bias : f32
    %t = arith.addf %s, %r : f32
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %t, %zero : f32
    isaac.yield %relu : f32
  }
  return
}

// -----

// An identity epilogue (a zero-filled output) is a plain kernel with beta = 0,
// here an f16 mma one writing f32.
// CHECK-LABEL: func.func @plain
// CHECK: isaac.launch_conv @[[K:isaac_conv_f16f32_nhwc_fhwc_mma_ml64_nl64_wm32_wn32_u32_kl1_kg1_v8_st3]]::@[[K]](%arg0, %arg1, %arg2)
// CHECK-SAME: beta = 0.0
// CHECK-NOT: epilogue =
func.func @plain(%x: memref<1x10x10x16xf16>, %w: memref<32x3x3x16xf16>, %out: memref<1x8x8x32xf32>) {
  isaac.conv ins(%x, %w : memref<1x10x10x16xf16>, memref<32x3x3x16xf16>) outs(%out : memref<1x8x8x32xf32>)
      attributes {layout = "nhwc_fhwc", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, input_maps = [],
                  isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 3>} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  }
  return
}

// -----

// Without a configuration the isaac.conv goes back to linalg for the
// generic GPU path: the convolution into an accumulator-typed temporary,
// then the epilogue as an elementwise generic. strict=true refuses it.
// REMARK: remark: isaac: left untouched: no isaac.config (isaac-select-config chooses one)
// CHECK-LABEL: func.func @unconfigured
// CHECK: %[[T:.*]] = memref.alloc() : memref<1x8x8x16xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[T]] : memref<1x8x8x16xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : memref<1x10x10x8xf32>, memref<3x3x8x16xf32>) outs(%[[T]] : memref<1x8x8x16xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[T]], %arg2 : memref<1x8x8x16xf32>, memref<16xf32>) outs(%arg3 : memref<1x8x8x16xf32>)
// CHECK: arith.addf
// CHECK: memref.dealloc %[[T]]
// CHECK-NOT: isaac.conv
// STRICT: error: isaac cannot lower this operation: no isaac.config (isaac-select-config chooses one)
func.func @unconfigured(%x: memref<1x10x10x8xf32>, %w: memref<3x3x8x16xf32>, %b: memref<16xf32>, %out: memref<1x8x8x16xf32>) {
  isaac.conv ins(%x, %w : memref<1x10x10x8xf32>, memref<3x3x8x16xf32>) inputs(%b : memref<16xf32>) outs(%out : memref<1x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
                  input_maps = [affine_map<(n, p, q, k) -> (k)>]} {
  ^bb0(%acc: f32, %bias: f32):
    %s = arith.addf %acc, %bias : f32
    isaac.yield %s : f32
  }
  return
}

// -----

// A padded isaac.conv left to the generic path reads a zero-padded copy of
// its input; a configured one passes its padding to the launch.
// CHECK-LABEL: func.func @padded_unconfigured
// CHECK: %[[PAD:.*]] = memref.alloc() : memref<1x10x10x8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[PAD]] : memref<1x10x10x8xf32>)
// CHECK: %[[IN:.*]] = memref.subview %[[PAD]][0, 1, 1, 0] [1, 8, 8, 8] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%arg0 : memref<1x8x8x8xf32>) outs(%[[IN]] :
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD]], %arg1
// CHECK: memref.dealloc %[[PAD]]
// CHECK-LABEL: func.func @padded
// CHECK: isaac.launch_conv {{.*}}padding = array<i64: 1, 1>
func.func @padded_unconfigured(%x: memref<1x8x8x8xf32>, %w: memref<3x3x8x16xf32>, %out: memref<1x8x8x16xf32>) {
  isaac.conv ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8x16xf32>) outs(%out : memref<1x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, input_maps = [],
                  padding = array<i64: 1, 1>} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  }
  return
}
func.func @padded(%x: memref<1x8x8x8xf32>, %w: memref<3x3x8x16xf32>, %out: memref<1x8x8x16xf32>) {
  isaac.conv ins(%x, %w : memref<1x8x8x8xf32>, memref<3x3x8x16xf32>) outs(%out : memref<1x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, input_maps = [],
                  padding = array<i64: 1, 1>,
                  isaac.config = #isaac.gemm<ml = 32, nl = 16, ms = 4, ns = 2, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  }
  return
}
