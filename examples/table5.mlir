// The ISAAC paper's Table 5 convolutions and the convolutions of ResNet-50
// (v1.5, torchvision; batch 32), f32, NHWC input, HWCF filters, for
// isaac-select-config and the conv benchmark (docs/perf.md).
//
// Table 5 gives N, P, Q, K, C, R, S only: the inputs here are unpadded with
// stride 1 (H = P + R - 1, W = Q + S - 1). ResNet-50's layers are padded
// ("same": 1 for 3x3, 3 for the 7x7 stem); linalg convolutions take no
// padding, so their inputs are written padded (H + 2*pad). A convolution's
// configuration is chosen on its implicit GEMM (N*P*Q x K x C*R*S, and C
// for the vector width), which these forms share with the layers
// isaac-bench times (the DeepBench layers' inputs, strides and padding;
// tools/isaac-bench/README.md, "Convolutions"): gen_kernels.py
// conv-candidates lists each one's kernels under that GEMM's M N K.

func.func @table5_conv1(%I: memref<16x83x360x1xf32>, %F: memref<5x20x1x32xf32>, %O: memref<16x79x341x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x83x360x1xf32>, memref<5x20x1x32xf32>) outs(%O : memref<16x79x341x32xf32>)
  return
}

func.func @table5_conv2(%I: memref<16x42x175x32xf32>, %F: memref<5x10x32x32xf32>, %O: memref<16x38x166x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x42x175x32xf32>, memref<5x10x32x32xf32>) outs(%O : memref<16x38x166x32xf32>)
  return
}

func.func @table5_conv3(%I: memref<16x26x242x16xf32>, %F: memref<3x3x16x32xf32>, %O: memref<16x24x240x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x26x242x16xf32>, memref<3x3x16x32xf32>) outs(%O : memref<16x24x240x32xf32>)
  return
}

func.func @table5_conv4(%I: memref<16x14x122x32xf32>, %F: memref<3x3x32x64xf32>, %O: memref<16x12x120x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x14x122x32xf32>, memref<3x3x32x64xf32>) outs(%O : memref<16x12x120x64xf32>)
  return
}

func.func @table5_conv5(%I: memref<8x56x56x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<8x54x54x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x56x56x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<8x54x54x64xf32>)
  return
}

func.func @table5_conv6(%I: memref<8x29x29x128xf32>, %F: memref<3x3x128x128xf32>, %O: memref<8x27x27x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x29x29x128xf32>, memref<3x3x128x128xf32>) outs(%O : memref<8x27x27x128xf32>)
  return
}

func.func @table5_conv7(%I: memref<16x18x18x512xf32>, %F: memref<5x5x512x48xf32>, %O: memref<16x14x14x48xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x18x18x512xf32>, memref<5x5x512x48xf32>) outs(%O : memref<16x14x14x48xf32>)
  return
}

func.func @table5_conv8(%I: memref<16x11x11x832xf32>, %F: memref<5x5x832x128xf32>, %O: memref<16x7x7x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x11x11x832xf32>, memref<5x5x832x128xf32>) outs(%O : memref<16x7x7x128xf32>)
  return
}

func.func @table5_conv9(%I: memref<8x114x114x64xf32>, %F: memref<3x3x64x128xf32>, %O: memref<8x112x112x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x114x114x64xf32>, memref<3x3x64x128xf32>) outs(%O : memref<8x112x112x128xf32>)
  return
}

func.func @table5_conv10(%I: memref<8x58x58x128xf32>, %F: memref<3x3x128x256xf32>, %O: memref<8x56x56x256xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x58x58x128xf32>, memref<3x3x128x256xf32>) outs(%O : memref<8x56x56x256xf32>)
  return
}

func.func @table5_conv11(%I: memref<16x132x43x64xf32>, %F: memref<5x5x64x174xf32>, %O: memref<16x128x39x174xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x132x43x64xf32>, memref<5x5x64x174xf32>) outs(%O : memref<16x128x39x174xf32>)
  return
}

func.func @table5_conv12(%I: memref<16x260x23x128xf32>, %F: memref<5x5x128x87xf32>, %O: memref<16x256x19x87xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x260x23x128xf32>, memref<5x5x128x87xf32>) outs(%O : memref<16x256x19x87xf32>)
  return
}

func.func @table5_conv13(%I: memref<16x9x9x512xf32>, %F: memref<3x3x512x512xf32>, %O: memref<16x7x7x512xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x9x9x512xf32>, memref<3x3x512x512xf32>) outs(%O : memref<16x7x7x512xf32>)
  return
}

func.func @table5_conv14(%I: memref<16x7x7x1024xf32>, %F: memref<1x1x1024x2048xf32>, %O: memref<16x7x7x2048xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x7x7x1024xf32>, memref<1x1x1024x2048xf32>) outs(%O : memref<16x7x7x2048xf32>)
  return
}

func.func @resnet50_conv1(%I: memref<32x230x230x3xf32>, %F: memref<7x7x3x64xf32>, %O: memref<32x112x112x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x230x230x3xf32>, memref<7x7x3x64xf32>) outs(%O : memref<32x112x112x64xf32>)
  return
}

func.func @resnet50_l1_1x1_64_64(%I: memref<32x56x56x64xf32>, %F: memref<1x1x64x64xf32>, %O: memref<32x56x56x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x64xf32>, memref<1x1x64x64xf32>) outs(%O : memref<32x56x56x64xf32>)
  return
}

func.func @resnet50_l1_3x3_64(%I: memref<32x58x58x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<32x56x56x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x58x58x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<32x56x56x64xf32>)
  return
}

func.func @resnet50_l1_1x1_64_256(%I: memref<32x56x56x64xf32>, %F: memref<1x1x64x256xf32>, %O: memref<32x56x56x256xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x64xf32>, memref<1x1x64x256xf32>) outs(%O : memref<32x56x56x256xf32>)
  return
}

func.func @resnet50_l1_1x1_256_64(%I: memref<32x56x56x256xf32>, %F: memref<1x1x256x64xf32>, %O: memref<32x56x56x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x256xf32>, memref<1x1x256x64xf32>) outs(%O : memref<32x56x56x64xf32>)
  return
}

func.func @resnet50_l2_1x1_256_128(%I: memref<32x56x56x256xf32>, %F: memref<1x1x256x128xf32>, %O: memref<32x56x56x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x256xf32>, memref<1x1x256x128xf32>) outs(%O : memref<32x56x56x128xf32>)
  return
}

func.func @resnet50_l2_3x3_128_s2(%I: memref<32x58x58x128xf32>, %F: memref<3x3x128x128xf32>, %O: memref<32x28x28x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x58x58x128xf32>, memref<3x3x128x128xf32>) outs(%O : memref<32x28x28x128xf32>)
  return
}

func.func @resnet50_l2_1x1_128_512(%I: memref<32x28x28x128xf32>, %F: memref<1x1x128x512xf32>, %O: memref<32x28x28x512xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x128xf32>, memref<1x1x128x512xf32>) outs(%O : memref<32x28x28x512xf32>)
  return
}

func.func @resnet50_l2_down_256_512_s2(%I: memref<32x56x56x256xf32>, %F: memref<1x1x256x512xf32>, %O: memref<32x28x28x512xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x256xf32>, memref<1x1x256x512xf32>) outs(%O : memref<32x28x28x512xf32>)
  return
}

func.func @resnet50_l2_1x1_512_128(%I: memref<32x28x28x512xf32>, %F: memref<1x1x512x128xf32>, %O: memref<32x28x28x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x512xf32>, memref<1x1x512x128xf32>) outs(%O : memref<32x28x28x128xf32>)
  return
}

func.func @resnet50_l2_3x3_128(%I: memref<32x30x30x128xf32>, %F: memref<3x3x128x128xf32>, %O: memref<32x28x28x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x30x30x128xf32>, memref<3x3x128x128xf32>) outs(%O : memref<32x28x28x128xf32>)
  return
}

func.func @resnet50_l3_1x1_512_256(%I: memref<32x28x28x512xf32>, %F: memref<1x1x512x256xf32>, %O: memref<32x28x28x256xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x512xf32>, memref<1x1x512x256xf32>) outs(%O : memref<32x28x28x256xf32>)
  return
}

func.func @resnet50_l3_3x3_256_s2(%I: memref<32x30x30x256xf32>, %F: memref<3x3x256x256xf32>, %O: memref<32x14x14x256xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x30x30x256xf32>, memref<3x3x256x256xf32>) outs(%O : memref<32x14x14x256xf32>)
  return
}

func.func @resnet50_l3_1x1_256_1024(%I: memref<32x14x14x256xf32>, %F: memref<1x1x256x1024xf32>, %O: memref<32x14x14x1024xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x256xf32>, memref<1x1x256x1024xf32>) outs(%O : memref<32x14x14x1024xf32>)
  return
}

func.func @resnet50_l3_down_512_1024_s2(%I: memref<32x28x28x512xf32>, %F: memref<1x1x512x1024xf32>, %O: memref<32x14x14x1024xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x512xf32>, memref<1x1x512x1024xf32>) outs(%O : memref<32x14x14x1024xf32>)
  return
}

func.func @resnet50_l3_1x1_1024_256(%I: memref<32x14x14x1024xf32>, %F: memref<1x1x1024x256xf32>, %O: memref<32x14x14x256xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x1024xf32>, memref<1x1x1024x256xf32>) outs(%O : memref<32x14x14x256xf32>)
  return
}

func.func @resnet50_l3_3x3_256(%I: memref<32x16x16x256xf32>, %F: memref<3x3x256x256xf32>, %O: memref<32x14x14x256xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x16x16x256xf32>, memref<3x3x256x256xf32>) outs(%O : memref<32x14x14x256xf32>)
  return
}

func.func @resnet50_l4_1x1_1024_512(%I: memref<32x14x14x1024xf32>, %F: memref<1x1x1024x512xf32>, %O: memref<32x14x14x512xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x1024xf32>, memref<1x1x1024x512xf32>) outs(%O : memref<32x14x14x512xf32>)
  return
}

func.func @resnet50_l4_3x3_512_s2(%I: memref<32x16x16x512xf32>, %F: memref<3x3x512x512xf32>, %O: memref<32x7x7x512xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x16x16x512xf32>, memref<3x3x512x512xf32>) outs(%O : memref<32x7x7x512xf32>)
  return
}

func.func @resnet50_l4_1x1_512_2048(%I: memref<32x7x7x512xf32>, %F: memref<1x1x512x2048xf32>, %O: memref<32x7x7x2048xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x7x7x512xf32>, memref<1x1x512x2048xf32>) outs(%O : memref<32x7x7x2048xf32>)
  return
}

func.func @resnet50_l4_down_1024_2048_s2(%I: memref<32x14x14x1024xf32>, %F: memref<1x1x1024x2048xf32>, %O: memref<32x7x7x2048xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x1024xf32>, memref<1x1x1024x2048xf32>) outs(%O : memref<32x7x7x2048xf32>)
  return
}

func.func @resnet50_l4_1x1_2048_512(%I: memref<32x7x7x2048xf32>, %F: memref<1x1x2048x512xf32>, %O: memref<32x7x7x512xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x7x7x2048xf32>, memref<1x1x2048x512xf32>) outs(%O : memref<32x7x7x512xf32>)
  return
}

func.func @resnet50_l4_3x3_512(%I: memref<32x9x9x512xf32>, %F: memref<3x3x512x512xf32>, %O: memref<32x7x7x512xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x9x9x512xf32>, memref<3x3x512x512xf32>) outs(%O : memref<32x7x7x512xf32>)
  return
}
