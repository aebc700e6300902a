// examples/table5.mlir in f16: the ISAAC paper's Table 5 convolutions and
// the convolutions of ResNet-50 (v1.5, torchvision; batch 32) with f16
// input, filters and output (f32 accumulation), NHWC input, HWCF filters,
// for isaac-select-config and the conv benchmark (docs/perf.md). The
// shapes, and why the inputs are written padded and unstrided where the
// benchmarked layers are not, are table5.mlir's.

func.func @table5h_conv1(%I: memref<16x83x360x1xf16>, %F: memref<5x20x1x32xf16>, %O: memref<16x79x341x32xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x83x360x1xf16>, memref<5x20x1x32xf16>) outs(%O : memref<16x79x341x32xf16>)
  return
}

func.func @table5h_conv2(%I: memref<16x42x175x32xf16>, %F: memref<5x10x32x32xf16>, %O: memref<16x38x166x32xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x42x175x32xf16>, memref<5x10x32x32xf16>) outs(%O : memref<16x38x166x32xf16>)
  return
}

func.func @table5h_conv3(%I: memref<16x26x242x16xf16>, %F: memref<3x3x16x32xf16>, %O: memref<16x24x240x32xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x26x242x16xf16>, memref<3x3x16x32xf16>) outs(%O : memref<16x24x240x32xf16>)
  return
}

func.func @table5h_conv4(%I: memref<16x14x122x32xf16>, %F: memref<3x3x32x64xf16>, %O: memref<16x12x120x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x14x122x32xf16>, memref<3x3x32x64xf16>) outs(%O : memref<16x12x120x64xf16>)
  return
}

func.func @table5h_conv5(%I: memref<8x56x56x64xf16>, %F: memref<3x3x64x64xf16>, %O: memref<8x54x54x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x56x56x64xf16>, memref<3x3x64x64xf16>) outs(%O : memref<8x54x54x64xf16>)
  return
}

func.func @table5h_conv6(%I: memref<8x29x29x128xf16>, %F: memref<3x3x128x128xf16>, %O: memref<8x27x27x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x29x29x128xf16>, memref<3x3x128x128xf16>) outs(%O : memref<8x27x27x128xf16>)
  return
}

func.func @table5h_conv7(%I: memref<16x18x18x512xf16>, %F: memref<5x5x512x48xf16>, %O: memref<16x14x14x48xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x18x18x512xf16>, memref<5x5x512x48xf16>) outs(%O : memref<16x14x14x48xf16>)
  return
}

func.func @table5h_conv8(%I: memref<16x11x11x832xf16>, %F: memref<5x5x832x128xf16>, %O: memref<16x7x7x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x11x11x832xf16>, memref<5x5x832x128xf16>) outs(%O : memref<16x7x7x128xf16>)
  return
}

func.func @table5h_conv9(%I: memref<8x114x114x64xf16>, %F: memref<3x3x64x128xf16>, %O: memref<8x112x112x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x114x114x64xf16>, memref<3x3x64x128xf16>) outs(%O : memref<8x112x112x128xf16>)
  return
}

func.func @table5h_conv10(%I: memref<8x58x58x128xf16>, %F: memref<3x3x128x256xf16>, %O: memref<8x56x56x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x58x58x128xf16>, memref<3x3x128x256xf16>) outs(%O : memref<8x56x56x256xf16>)
  return
}

func.func @table5h_conv11(%I: memref<16x132x43x64xf16>, %F: memref<5x5x64x174xf16>, %O: memref<16x128x39x174xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x132x43x64xf16>, memref<5x5x64x174xf16>) outs(%O : memref<16x128x39x174xf16>)
  return
}

func.func @table5h_conv12(%I: memref<16x260x23x128xf16>, %F: memref<5x5x128x87xf16>, %O: memref<16x256x19x87xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x260x23x128xf16>, memref<5x5x128x87xf16>) outs(%O : memref<16x256x19x87xf16>)
  return
}

func.func @table5h_conv13(%I: memref<16x9x9x512xf16>, %F: memref<3x3x512x512xf16>, %O: memref<16x7x7x512xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x9x9x512xf16>, memref<3x3x512x512xf16>) outs(%O : memref<16x7x7x512xf16>)
  return
}

func.func @table5h_conv14(%I: memref<16x7x7x1024xf16>, %F: memref<1x1x1024x2048xf16>, %O: memref<16x7x7x2048xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x7x7x1024xf16>, memref<1x1x1024x2048xf16>) outs(%O : memref<16x7x7x2048xf16>)
  return
}

func.func @resnet50h_conv1(%I: memref<32x230x230x3xf16>, %F: memref<7x7x3x64xf16>, %O: memref<32x112x112x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x230x230x3xf16>, memref<7x7x3x64xf16>) outs(%O : memref<32x112x112x64xf16>)
  return
}

func.func @resnet50h_l1_1x1_64_64(%I: memref<32x56x56x64xf16>, %F: memref<1x1x64x64xf16>, %O: memref<32x56x56x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x64xf16>, memref<1x1x64x64xf16>) outs(%O : memref<32x56x56x64xf16>)
  return
}

func.func @resnet50h_l1_3x3_64(%I: memref<32x58x58x64xf16>, %F: memref<3x3x64x64xf16>, %O: memref<32x56x56x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x58x58x64xf16>, memref<3x3x64x64xf16>) outs(%O : memref<32x56x56x64xf16>)
  return
}

func.func @resnet50h_l1_1x1_64_256(%I: memref<32x56x56x64xf16>, %F: memref<1x1x64x256xf16>, %O: memref<32x56x56x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x64xf16>, memref<1x1x64x256xf16>) outs(%O : memref<32x56x56x256xf16>)
  return
}

func.func @resnet50h_l1_1x1_256_64(%I: memref<32x56x56x256xf16>, %F: memref<1x1x256x64xf16>, %O: memref<32x56x56x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x256xf16>, memref<1x1x256x64xf16>) outs(%O : memref<32x56x56x64xf16>)
  return
}

func.func @resnet50h_l2_1x1_256_128(%I: memref<32x56x56x256xf16>, %F: memref<1x1x256x128xf16>, %O: memref<32x56x56x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x256xf16>, memref<1x1x256x128xf16>) outs(%O : memref<32x56x56x128xf16>)
  return
}

func.func @resnet50h_l2_3x3_128_s2(%I: memref<32x58x58x128xf16>, %F: memref<3x3x128x128xf16>, %O: memref<32x28x28x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x58x58x128xf16>, memref<3x3x128x128xf16>) outs(%O : memref<32x28x28x128xf16>)
  return
}

func.func @resnet50h_l2_1x1_128_512(%I: memref<32x28x28x128xf16>, %F: memref<1x1x128x512xf16>, %O: memref<32x28x28x512xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x128xf16>, memref<1x1x128x512xf16>) outs(%O : memref<32x28x28x512xf16>)
  return
}

func.func @resnet50h_l2_down_256_512_s2(%I: memref<32x56x56x256xf16>, %F: memref<1x1x256x512xf16>, %O: memref<32x28x28x512xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x56x56x256xf16>, memref<1x1x256x512xf16>) outs(%O : memref<32x28x28x512xf16>)
  return
}

func.func @resnet50h_l2_1x1_512_128(%I: memref<32x28x28x512xf16>, %F: memref<1x1x512x128xf16>, %O: memref<32x28x28x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x512xf16>, memref<1x1x512x128xf16>) outs(%O : memref<32x28x28x128xf16>)
  return
}

func.func @resnet50h_l2_3x3_128(%I: memref<32x30x30x128xf16>, %F: memref<3x3x128x128xf16>, %O: memref<32x28x28x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x30x30x128xf16>, memref<3x3x128x128xf16>) outs(%O : memref<32x28x28x128xf16>)
  return
}

func.func @resnet50h_l3_1x1_512_256(%I: memref<32x28x28x512xf16>, %F: memref<1x1x512x256xf16>, %O: memref<32x28x28x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x512xf16>, memref<1x1x512x256xf16>) outs(%O : memref<32x28x28x256xf16>)
  return
}

func.func @resnet50h_l3_3x3_256_s2(%I: memref<32x30x30x256xf16>, %F: memref<3x3x256x256xf16>, %O: memref<32x14x14x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x30x30x256xf16>, memref<3x3x256x256xf16>) outs(%O : memref<32x14x14x256xf16>)
  return
}

func.func @resnet50h_l3_1x1_256_1024(%I: memref<32x14x14x256xf16>, %F: memref<1x1x256x1024xf16>, %O: memref<32x14x14x1024xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x256xf16>, memref<1x1x256x1024xf16>) outs(%O : memref<32x14x14x1024xf16>)
  return
}

func.func @resnet50h_l3_down_512_1024_s2(%I: memref<32x28x28x512xf16>, %F: memref<1x1x512x1024xf16>, %O: memref<32x14x14x1024xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x28x28x512xf16>, memref<1x1x512x1024xf16>) outs(%O : memref<32x14x14x1024xf16>)
  return
}

func.func @resnet50h_l3_1x1_1024_256(%I: memref<32x14x14x1024xf16>, %F: memref<1x1x1024x256xf16>, %O: memref<32x14x14x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x1024xf16>, memref<1x1x1024x256xf16>) outs(%O : memref<32x14x14x256xf16>)
  return
}

func.func @resnet50h_l3_3x3_256(%I: memref<32x16x16x256xf16>, %F: memref<3x3x256x256xf16>, %O: memref<32x14x14x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x16x16x256xf16>, memref<3x3x256x256xf16>) outs(%O : memref<32x14x14x256xf16>)
  return
}

func.func @resnet50h_l4_1x1_1024_512(%I: memref<32x14x14x1024xf16>, %F: memref<1x1x1024x512xf16>, %O: memref<32x14x14x512xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x1024xf16>, memref<1x1x1024x512xf16>) outs(%O : memref<32x14x14x512xf16>)
  return
}

func.func @resnet50h_l4_3x3_512_s2(%I: memref<32x16x16x512xf16>, %F: memref<3x3x512x512xf16>, %O: memref<32x7x7x512xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x16x16x512xf16>, memref<3x3x512x512xf16>) outs(%O : memref<32x7x7x512xf16>)
  return
}

func.func @resnet50h_l4_1x1_512_2048(%I: memref<32x7x7x512xf16>, %F: memref<1x1x512x2048xf16>, %O: memref<32x7x7x2048xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x7x7x512xf16>, memref<1x1x512x2048xf16>) outs(%O : memref<32x7x7x2048xf16>)
  return
}

func.func @resnet50h_l4_down_1024_2048_s2(%I: memref<32x14x14x1024xf16>, %F: memref<1x1x1024x2048xf16>, %O: memref<32x7x7x2048xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %F : memref<32x14x14x1024xf16>, memref<1x1x1024x2048xf16>) outs(%O : memref<32x7x7x2048xf16>)
  return
}

func.func @resnet50h_l4_1x1_2048_512(%I: memref<32x7x7x2048xf16>, %F: memref<1x1x2048x512xf16>, %O: memref<32x7x7x512xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x7x7x2048xf16>, memref<1x1x2048x512xf16>) outs(%O : memref<32x7x7x512xf16>)
  return
}

func.func @resnet50h_l4_3x3_512(%I: memref<32x9x9x512xf16>, %F: memref<3x3x512x512xf16>, %O: memref<32x7x7x512xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x9x9x512xf16>, memref<3x3x512x512xf16>) outs(%O : memref<32x7x7x512xf16>)
  return
}
