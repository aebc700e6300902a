// RUN: isaac-opt %s --isaac-lower-to-gpu -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not isaac-opt %s --isaac-lower-to-gpu="strict=true" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// A configured convolution becomes an isaac.launch_conv of its conv kernel
// (the simt GEMM body on the implicit GEMM): memref linalg convolutions
// accumulate, beta = 1; the kernel takes KernelABI.def's CONV_ARG rows.
// CHECK-LABEL: func.func @hwcf
// CHECK: isaac.launch_conv @[[K:isaac_conv_f32_nhwc_hwcf_simt_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4]]::@[[K]](%arg0, %arg1, %arg2)
// CHECK-SAME: alpha = 1.0{{.*}}beta = 1.0{{.*}}dilations = array<i64: 1, 2>{{.*}}layout = "nhwc_hwcf", padding = array<i64: 0, 0>, strides = array<i64: 2, 1>
// CHECK-NOT: linalg.conv
// CHECK: gpu.module @[[K]]
// CHECK: gpu.func @[[K]](%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1>, {{(%[^:]*: i32, )+}}%{{.*}}: f32, %{{.*}}: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>}
// CHECK-NOT: isaac_scale
func.func @hwcf(%in: memref<2x17x20x8xf32>, %f: memref<3x3x8x24xf32>, %out: memref<2x8x16x24xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>,
                            isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
    ins(%in, %f : memref<2x17x20x8xf32>, memref<3x3x8x24xf32>) outs(%out : memref<2x8x16x24xf32>)
  return
}

// -----

// A zero fill of the output before it makes beta = 0 and goes; split over
// C*R*S (KG = 4) the module has the implicit GEMM's helpers.
// CHECK-LABEL: func.func @fhwc_zero_split
// CHECK-NOT: linalg.fill
// CHECK: isaac.launch_conv @[[K:isaac_conv_f64_nhwc_fhwc_simt_ml16_nl16_ms2_ns2_u4_ks1_kl1_kg4_v2]]::@[[K]]
// CHECK-SAME: beta = 0.0
// CHECK: gpu.module @[[K]]
// CHECK-DAG: gpu.func @[[K]](
// CHECK-DAG: gpu.func @isaac_scale_f64(
// CHECK-DAG: gpu.func @isaac_splitk_reduce_f64(
func.func @fhwc_zero_split(%in: memref<1x9x9x6xf64>, %f: memref<5x3x3x6xf64>, %out: memref<1x7x7x5xf64>) {
  %z = arith.constant 0.0 : f64
  linalg.fill ins(%z : f64) outs(%out : memref<1x7x7x5xf64>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
                            isaac.config = #isaac.gemm<ml = 16, nl = 16, ms = 2, ns = 2, u = 4, ks = 1, kl = 1, kg = 4, vec = 2>}
    ins(%in, %f : memref<1x9x9x6xf64>, memref<5x3x3x6xf64>) outs(%out : memref<1x7x7x5xf64>)
  return
}

// -----

// Two convolutions of one configuration share one kernel module.
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-2: isaac.launch_conv @isaac_conv_f32_nhwc_hwcf_simt_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v1::
// CHECK-COUNT-1: gpu.module
// CHECK-NOT: gpu.module
func.func @shared(%in: memref<1x8x8x3xf32>, %f: memref<1x1x3x4xf32>, %out: memref<1x8x8x4xf32>,
                  %in2: memref<4x6x6x3xf32>, %f2: memref<3x3x3x4xf32>, %out2: memref<4x4x4x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 1>}
    ins(%in, %f : memref<1x8x8x3xf32>, memref<1x1x3x4xf32>) outs(%out : memref<1x8x8x4xf32>)
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 1>}
    ins(%in2, %f2 : memref<4x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%out2 : memref<4x4x4x4xf32>)
  return
}

// -----

// A configuration the conv rules refuse is an error: a 4-wide input load
// would cross from one filter tap into the next with C = 3.
func.func @vec_crosses_taps(%in: memref<1x8x8x3xf32>, %f: memref<3x3x3x4xf32>, %out: memref<1x6x6x4xf32>) {
  // expected-error @below {{isaac: the isaac.config of this convolution is illegal for it on sm_90 (rule conv-vector-channels)}}
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
    ins(%in, %f : memref<1x8x8x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<1x6x6x4xf32>)
  return
}

// -----

// Convolutions isaac does not compile are left for isaac-offload's generic
// path (whose remark says why); strict=true makes them errors here.
// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: isaac.launch_conv
// STRICT: error: isaac cannot lower this operation: operand memref<1x8x8x3xf32, strided<[256, 32, 4, 1]>> is not packed
func.func @left_alone(%in: memref<1x8x8x3xf32, strided<[256, 32, 4, 1]>>, %f: memref<3x3x3x4xf32>, %out: memref<1x6x6x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 1>}
    ins(%in, %f : memref<1x8x8x3xf32, strided<[256, 32, 4, 1]>>, memref<3x3x3x4xf32>) outs(%out : memref<1x6x6x4xf32>)
  return
}
