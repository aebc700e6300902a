// A GEMM or convolution of the same shape as an earlier one in the module
// (a network's repeated layers) takes that search's ranking instead of
// searching again: one search per distinct shape, across functions, with
// the same configuration and remark for every op of the shape. The
// searches are counted by their ISAAC_SEARCH_TRACE lines (one per model
// search, lib/Model/MLPSearch.cpp).
//
// RUN: env ISAAC_SEARCH_TRACE=1 isaac-opt %s --isaac-select-config="chip=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GEMMS
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90" -mlir-print-local-scope 2>/dev/null | FileCheck %s
// RUN: env ISAAC_SEARCH_TRACE=1 isaac-opt %s --isaac-select-config="chip=sm_90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVS

// Four f32 GEMMs of two shapes, three of them 256x128x512: two searches
// (then the convolutions' own, on sm_90 in the mma family alone).
// GEMMS: isaac-search:
// GEMMS-NEXT: select-config-repeated.mlir:[[#@LINE+21]]:3: remark: isaac: configuration chosen by the trained model
// GEMMS-NOT: isaac-search:
// GEMMS: select-config-repeated.mlir:[[#@LINE+21]]:3: remark: isaac: configuration chosen by the trained model
// GEMMS-NOT: isaac-search:
// GEMMS: isaac-search:
// GEMMS-NEXT: select-config-repeated.mlir:[[#@LINE+20]]:3: remark: isaac: configuration chosen by the trained model
// GEMMS-NOT: isaac-search:
// GEMMS: select-config-repeated.mlir:[[#@LINE+25]]:3: remark: isaac: configuration chosen by the trained model
// GEMMS-NOT: isaac-search:
// GEMMS: isaac-search:
// GEMMS-NEXT: remark: isaac: convolution configured as its implicit GEMM 128x64x576

// CHECK-LABEL: func.func @repeated
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<[[CFG:.*]]>} ins(%arg0, %arg1
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<[[CFG]]>} ins(%arg0, %arg1
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<{{.*}}>} ins(%arg3, %arg1
// CHECK-LABEL: func.func @again
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<[[CFG]]>} ins(%arg0, %arg1
func.func @repeated(%A: memref<256x512xf32>, %B: memref<512x128xf32>,
                    %C: memref<256x128xf32>, %D: memref<64x512xf32>,
                    %E: memref<64x128xf32>) {
  linalg.matmul ins(%A, %B : memref<256x512xf32>, memref<512x128xf32>)
                outs(%C : memref<256x128xf32>)
  linalg.matmul ins(%A, %B : memref<256x512xf32>, memref<512x128xf32>)
                outs(%C : memref<256x128xf32>)
  linalg.matmul ins(%D, %B : memref<64x512xf32>, memref<512x128xf32>)
                outs(%E : memref<64x128xf32>)
  return
}

func.func @again(%A: memref<256x512xf32>, %B: memref<512x128xf32>,
                 %C: memref<256x128xf32>) {
  linalg.matmul ins(%A, %B : memref<256x512xf32>, memref<512x128xf32>)
                outs(%C : memref<256x128xf32>)
  return
}

// Three f16 convolutions of two shapes on sm_90a: the first of each shape
// is searched in both families (the wgmma and the mma conv model), the
// repeat not at all, and it keeps the first's remark.
// CONVS: select-config-repeated.mlir:[[#@LINE-8]]:3: remark: isaac: configuration chosen by the trained model
// CONVS: isaac-search:
// CONVS-NEXT: isaac-search:
// CONVS-NEXT: remark: isaac: convolution configured as its implicit GEMM 128x64x576 (N*P*Q x K x C*R*S), [[FIRST:.*]]
// CONVS-NEXT: linalg.conv_2d_nhwc_hwcf
// CONVS-NEXT: ^
// CONVS-NEXT: remark: isaac: convolution configured as its implicit GEMM 128x64x576 (N*P*Q x K x C*R*S), [[FIRST]]
// CONVS-NEXT: linalg.conv_2d_nhwc_hwcf
// CONVS-NEXT: ^
// CONVS-NEXT: isaac-search:
// CONVS-NEXT: isaac-search:
// CONVS-NEXT: remark: isaac: convolution configured as its implicit GEMM 200x64x576
// CONVS-NOT: isaac-search:
func.func @convs(%I: memref<2x10x10x64xf16>, %F: memref<3x3x64x64xf16>,
                 %O: memref<2x8x8x64xf16>, %I2: memref<2x12x12x64xf16>,
                 %O2: memref<2x10x10x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                            strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<2x10x10x64xf16>, memref<3x3x64x64xf16>)
    outs(%O : memref<2x8x8x64xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                            strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<2x10x10x64xf16>, memref<3x3x64x64xf16>)
    outs(%O : memref<2x8x8x64xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                            strides = dense<1> : tensor<2xi64>}
    ins(%I2, %F : memref<2x12x12x64xf16>, memref<3x3x64x64xf16>)
    outs(%O2 : memref<2x10x10x64xf16>)
  return
}
