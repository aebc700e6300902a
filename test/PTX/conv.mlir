// REQUIRES: ptxas
// The PTX of convolution kernels (both filter layouts, f32 and f64, vec 1,
// 2 and 4, KS/KL and split-K) assembles for sm_90 and sm_80, and each file
// carries the `// isaac.kernel ... op=conv` header the runtime parses.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/sm90" -o /dev/null
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_80 ptx-dir=%t/sm80" -o /dev/null
// RUN: for f in %t/sm90/*.ptx; do %ptxas -arch=sm_90 $f -o %t/out.cubin || exit 1; done
// RUN: for f in %t/sm80/*.ptx; do %ptxas -arch=sm_80 $f -o %t/out.cubin || exit 1; done
// RUN: ls %t/sm90 | count 5
// RUN: cat %t/sm90/isaac_conv_f64_nhwc_fhwc_simt_ml32_nl16_ms4_ns2_u8_ks2_kl2_kg4_v2.ptx | FileCheck %s
// CHECK: // isaac.kernel name=isaac_conv_f64_nhwc_fhwc_simt_ml32_nl16_ms4_ns2_u8_ks2_kl2_kg4_v2 op=conv dtype=f64 layout=nhwc_fhwc ml=32 nl=16 ms=4 ns=2 u=8 ks=2 kl=2 kg=4 vec=2 threads=128 smem={{[0-9]+}} dynsmem=0 chip=sm_90
// CHECK-DAG: .visible .entry isaac_conv_f64_nhwc_fhwc_simt_ml32_nl16_ms4_ns2_u8_ks2_kl2_kg4_v2(
// CHECK-DAG: .visible .entry isaac_scale_f64(
// CHECK-DAG: .visible .entry isaac_splitk_reduce_f64(

func.func @convs(%in: memref<2x17x20x8xf32>, %f: memref<3x3x8x24xf32>, %out: memref<2x8x16x24xf32>,
                 %in3: memref<1x13x13x3xf32>, %f3: memref<7x7x3x5xf32>, %out3: memref<1x7x7x5xf32>,
                 %ind: memref<3x9x9x6xf64>, %fd: memref<5x3x3x6xf64>, %outd: memref<3x7x7x5xf64>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>,
                            isaac.config = #isaac.gemm<ml = 64, nl = 32, ms = 8, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
    ins(%in, %f : memref<2x17x20x8xf32>, memref<3x3x8x24xf32>) outs(%out : memref<2x8x16x24xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>,
                            isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 16, ks = 2, kl = 2, kg = 4, vec = 2>}
    ins(%in, %f : memref<2x17x20x8xf32>, memref<3x3x8x24xf32>) outs(%out : memref<2x8x16x24xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
                            isaac.config = #isaac.gemm<ml = 16, nl = 16, ms = 2, ns = 2, u = 4, ks = 1, kl = 4, kg = 1, vec = 1>}
    ins(%in3, %f3 : memref<1x13x13x3xf32>, memref<7x7x3x5xf32>) outs(%out3 : memref<1x7x7x5xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
                            isaac.config = #isaac.gemm<ml = 32, nl = 16, ms = 4, ns = 2, u = 8, ks = 2, kl = 2, kg = 4, vec = 2>}
    ins(%ind, %fd : memref<3x9x9x6xf64>, memref<5x3x3x6xf64>) outs(%outd : memref<3x7x7x5xf64>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
                            isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>}
    ins(%ind, %fd : memref<3x9x9x6xf64>, memref<5x3x3x6xf64>) outs(%outd : memref<3x7x7x5xf64>)
  return
}
