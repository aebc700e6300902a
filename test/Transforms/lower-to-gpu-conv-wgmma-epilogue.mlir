// RUN: isaac-opt %s --isaac-lower-to-gpu="chip=sm_90a" | FileCheck %s

// A wgmma convolution kernel (sm_90a) with a fused epilogue: after the
// CONV_ARG rows, the tile counters and the input's four parameters come
// the family's tensor maps (tmA: the input's im2col map, tmB: the
// filters') and useTma, last (docs/abi.md, "Tensor maps"); the two maps
// are listed for isaac-tensor-map-params.
// CHECK-LABEL: func.func @fused_wgmma
// CHECK: isaac.launch_conv @[[K:isaac_conv_f16_nhwc_hwcf_wgmma_ml128_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ep[0-9a-f]+]]::@[[K]](%arg0, %arg1, %arg3) inputs(%arg2 : memref<64xf32>)
// CHECK: gpu.func @[[K]]({{.*}}%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32) kernel attributes {isaac.tensor_map_args = array<i32: 26, 27>
module attributes {isaac.target = "sm_90a"} {
func.func @fused_wgmma(%x: memref<2x10x10x64xf16>, %w: memref<3x3x64x64xf16>, %b: memref<64xf32>, %out: memref<2x8x8x64xf16>) {
  isaac.conv ins(%x, %w : memref<2x10x10x64xf16>, memref<3x3x64x64xf16>) inputs(%b : memref<64xf32>) outs(%out : memref<2x8x8x64xf16>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
                  input_maps = [affine_map<(n, p, q, k) -> (k)>],
                  isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4>} {
  ^bb0(%acc: f32, %bias: f32):
    %s = arith.addf %acc, %bias : f32
    %h = arith.truncf %s : f32 to f16
    isaac.yield %h : f16
  }
  return
}
}
