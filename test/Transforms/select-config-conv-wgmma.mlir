// 16-bit convolutions on sm_90a are searched in the wgmma family too. Its
// conv model (<model-dir>/sm_90a/conv-<dtype>.mlp, a wgmma model) ranks
// them where there is one; where both families have a conv model (sm_90a's
// wgmma one, sm_90's mma one, which sm_90a inherits) the two rankings merge
// by predicted time, the remark saying by how much the chosen family's best
// beats the other's. Without a wgmma conv model the wgmma GEMM model ranks
// the implicit GEMM. Without any model (model-dir=none) and on sm_90, the
// mma family as before. Inputs/conv-models-wgmma/sm_90a/conv-f16.mlp is a
// tiny model of the measured wgmma conv data, made with
//   python3 tools/isaac-tune/train.py data/sm_90a/conv-f16-h100.csv.xz \
//     --chip sm_90a --arch 16,16 --epochs 20 --seed 1 --out \
//     test/Transforms/Inputs/conv-models-wgmma/sm_90a/conv-f16.mlp
//
// The shipped models: f16 has both conv models; bf16 has none of its own,
// so the f16 ones rank it, choosing what they choose for f16.
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a" -mlir-print-local-scope 2>&1 | FileCheck %s --check-prefix=SHIP
// SHIP: remark: isaac: convolution configured as its implicit GEMM 25088x256x1152 (N*P*Q x K x C*R*S), [[SF:(wg)?mma]] family, by the trained model {{.*}}conv-f16.mlp (trained on measurements); predicted {{[0-9]+\.[0-9][0-9]}}x faster than the {{(wg)?mma}} family's best ({{.*}}conv-f16.mlp)
// SHIP: remark: isaac: convolution configured as its implicit GEMM 25088x256x1152 (N*P*Q x K x C*R*S), [[SF]] family, by the trained model {{.*}}conv-f16.mlp (trained on measurements; f16 timings rank bf16: no bf16 conv model, and the kernels differ only in the element type); predicted
// SHIP-LABEL: func.func @f16
// SHIP: isaac.config = [[SC:#isaac.gemm<family = (wg)?mma,[^>]*>]]
// SHIP-LABEL: func.func @bf16
// SHIP: isaac.config = [[SC]]
//
// A conv model of each family: one ranking of both by predicted time.
// RUN: rm -rf %t && mkdir -p %t/both/sm_90a %t/both/sm_90
// RUN: cp %S/Inputs/conv-models-wgmma/sm_90a/conv-f16.mlp %isaac_src/models/sm_90a/gemm-bf16.mlp %t/both/sm_90a/
// RUN: cp %S/Inputs/conv-models/sm_90/conv-f16.mlp %t/both/sm_90/
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a model-dir=%t/both" -mlir-print-local-scope 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: remark: isaac: convolution configured as its implicit GEMM 25088x256x1152 (N*P*Q x K x C*R*S), [[FAM:(wg)?mma]] family, by the trained model {{.*}}conv-f16.mlp ({{.*}}); predicted {{[0-9]+\.[0-9][0-9]}}x faster than the {{(wg)?mma}} family's best ({{.*}}conv-f16.mlp)
// BOTH: remark: isaac: convolution configured as its implicit GEMM 25088x256x1152 (N*P*Q x K x C*R*S), [[FAM]] family, by the trained model {{.*}}conv-f16.mlp ({{.*}}; f16 timings rank bf16{{.*}}
// BOTH-LABEL: func.func @f16
// BOTH: isaac.config = #isaac.gemm<family = [[FAM]],
// BOTH-LABEL: func.func @bf16
// BOTH: isaac.config = #isaac.gemm<family = [[FAM]],
//
// The merged top 10 begins with the choice.
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a topk=10 model-dir=%t/both" -mlir-print-local-scope 2>/dev/null | FileCheck %s --check-prefix=TOP10
// TOP10-LABEL: func.func @f16
// TOP10: isaac.candidates = [#isaac.gemm<[[FIRST:[^>]*]]>, {{.*}}], isaac.config = #isaac.gemm<[[FIRST]]>
//
// Only the GEMM models in the model directory: the wgmma GEMM model ranks
// the f16 convolution too.
// RUN: mkdir -p %t/gemm/sm_90a && cp %isaac_src/models/sm_90a/gemm-f16.mlp %t/gemm/sm_90a/
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a model-dir=%t/gemm" -mlir-print-local-scope 2>&1 | FileCheck %s --check-prefix=GEMM
// GEMM: remark: isaac: convolution configured as its implicit GEMM 25088x256x1152 (N*P*Q x K x C*R*S), wgmma family, by the trained GEMM model {{.*}}gemm-f16.mlp on the implicit GEMM (no wgmma conv model)
// GEMM: remark: isaac: convolution configured as its implicit GEMM 25088x256x1152 (N*P*Q x K x C*R*S), mma family, by the analytic heuristic (no conv model: no file {{.*}}conv-bf16.mlp nor {{.*}}conv-bf16.mlp)
//
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a model-dir=none" -mlir-print-local-scope 2>&1 | FileCheck %s --check-prefix=NONE
// NONE-COUNT-2: mma family, by the analytic heuristic (no conv model: model-dir=none)
// RUN: sed 's/sm_90a/sm_90/' %s | isaac-opt --isaac-select-config="chip=sm_90" -mlir-print-local-scope 2>&1 | FileCheck %s --check-prefix=SM90
// SM90: mma family, by the trained model {{.*}}sm_90{{/|\\}}conv-f16.mlp (trained on measurements){{$}}
// SM90: mma family, by the trained model {{.*}}sm_90{{/|\\}}conv-f16.mlp (trained on measurements; f16 timings rank bf16
//
// A wgmma conv model where the chip has no wgmma is refused.
// RUN: mkdir -p %t/wg/sm_90
// RUN: %python -c "import sys, zlib; t = open(sys.argv[1]).read(); b = t[:t.index('end ')].replace('chip sm_90a', 'chip sm_90'); sys.stdout.write(b + 'end %%08x\n' %% (zlib.crc32(b.encode()) & 0xffffffff))" %S/Inputs/conv-models-wgmma/sm_90a/conv-f16.mlp > %t/wg/sm_90/conv-f16.mlp
// RUN: sed 's/sm_90a/sm_90/' %s | not isaac-opt --isaac-select-config="chip=sm_90 model-dir=%t/wg" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOWG
// NOWG: error: isaac: cannot use the trained conv model: {{.*}}conv-f16.mlp: the model ranks wgmma configurations; f16 convolutions on sm_90 are searched in the mma family

module attributes {isaac.target = "sm_90a"} {
func.func @f16(%I: memref<8x58x58x128xf16>, %F: memref<3x3x128x256xf16>, %O: memref<8x56x56x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x58x58x128xf16>, memref<3x3x128x256xf16>) outs(%O : memref<8x56x56x256xf16>)
  return
}

func.func @bf16(%I: memref<8x58x58x128xbf16>, %F: memref<3x3x128x256xbf16>, %O: memref<8x56x56x256xbf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<8x58x58x128xbf16>, memref<3x3x128x256xbf16>) outs(%O : memref<8x56x56x256xbf16>)
  return
}
}
