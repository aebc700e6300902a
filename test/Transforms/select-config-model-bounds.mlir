// Model files whose checksum is valid but whose numbers are absurd are
// refused with the file and line (docs/model-format.md, "Bounds"), never
// used: a weight of 1e308 (infinite as a float), an output-mean of 1e38
// (which once silently changed the chosen configuration), a vanishing
// standard deviation, and a model whose every number is within bounds but
// whose predictions on the probe set are out of bounds or not finite (the
// member's line).
// Inputs/edit-model.py changes a record and re-signs the file.
//
// RUN: rm -rf %t && mkdir -p %t/w/sm_90 %t/mean/sm_90 %t/std/sm_90 %t/bias/sm_90 %t/probe/sm_90 %t/ok/sm_90
// RUN: %python %S/Inputs/edit-model.py %S/Inputs/models/sm_90/gemm-f32.mlp '^(layer 1\n)\S+' '\g<1>1e308' > %t/w/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/w" 2>&1 | FileCheck %s --check-prefix=WEIGHT
// WEIGHT: error: isaac: cannot use the trained model: {{.*}}w/sm_90/gemm-f32.mlp:35: weight '1e308' of layer 1, neuron 0 is outside [-1000, 1000] (docs/model-format.md, "Bounds")
//
// RUN: %python %S/Inputs/edit-model.py %S/Inputs/models/sm_90/gemm-f32.mlp '^output-mean .*$' 'output-mean 1e38' > %t/mean/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/mean" 2>&1 | FileCheck %s --check-prefix=MEAN
// MEAN: error: isaac: cannot use the trained model: {{.*}}mean/sm_90/gemm-f32.mlp:15: output-mean '1e38' is outside [-64, 64] (docs/model-format.md, "Bounds")
//
// RUN: %python %S/Inputs/edit-model.py %S/Inputs/models/sm_90/gemm-f32.mlp '^(input-std )\S+' '\g<1>1e-30' > %t/std/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/std" 2>&1 | FileCheck %s --check-prefix=STD
// STD: error: isaac: cannot use the trained model: {{.*}}std/sm_90/gemm-f32.mlp:14: input-std '1e-30' is outside [0.000976562, 64] (docs/model-format.md, "Bounds")
//
// The bias is the last number of a row.
// RUN: %python %S/Inputs/edit-model.py %S/Inputs/models/sm_90/gemm-f32.mlp '^(layer 2\n(?:\S+ ){16})\S+' '\g<1>-2000' > %t/bias/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/bias" 2>&1 | FileCheck %s --check-prefix=BIAS
// BIAS: error: isaac: cannot use the trained model: {{.*}}bias/sm_90/gemm-f32.mlp:52: bias '-2000' of layer 2, neuron 0 is outside [-1000, 1000]
//
// Every number within bounds (an output layer of weights 1000, an output
// standard deviation of 64), the predictions far outside any TFLOPS.
// RUN: %python %S/Inputs/edit-model.py %S/Inputs/models/sm_90/gemm-f32.mlp '^(layer 2\n).*$' '\g<1>1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000' > %t/probe.tmp
// RUN: %python %S/Inputs/edit-model.py %t/probe.tmp '^output-std .*$' 'output-std 64' > %t/probe/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/probe" 2>&1 | FileCheck %s --check-prefix=PROBE
// PROBE: error: isaac: cannot use the trained model: {{.*}}probe/sm_90/gemm-f32.mlp:17: member 0 predicts {{[0-9.e+]+}} (log2 TFLOPS) on the probe {{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}} {{nn|nt|tn|tt}} batch {{[0-9]+}} #isaac.gemm<{{[^>]*}}>; a usable model predicts finite values within [-1000, 1000]
//
// Every number within bounds, nine hidden layers of weights 1000: the
// predictions overflow to +infinity, and the loader names the network's
// first line (`layer 0` of a version-1 file). The same shape with small
// weights loads.
// RUN: mkdir -p %t/inf/sm_90 %t/deep/sm_90
// RUN: %python %S/Inputs/deep-model.py %S/Inputs/models/sm_90/gemm-f32.mlp 9 8 1000 > %t/inf/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/inf" 2>&1 | FileCheck %s --check-prefix=INF
// INF: error: isaac: cannot use the trained model: {{.*}}inf/sm_90/gemm-f32.mlp:13: member 0 predicts inf (log2 TFLOPS) on the probe 1x1x1 nn batch 1 #isaac.gemm<ml = 1, nl = 1, ms = 1, ns = 1, u = 1, ks = 1, kl = 1, kg = 1, vec = 1>; a usable model predicts finite values within [-1000, 1000]
// RUN: %python %S/Inputs/deep-model.py %S/Inputs/models/sm_90/gemm-f32.mlp 9 8 0.01 > %t/deep/sm_90/gemm-f32.mlp
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/deep" 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: remark: isaac: configuration chosen by the trained model {{.*}}deep/sm_90/gemm-f32.mlp
//
// Re-signing alone changes nothing: the same file loads.
// RUN: %python %S/Inputs/edit-model.py %S/Inputs/models/sm_90/gemm-f32.mlp '^(output-mean .*)$' '\g<1>' > %t/ok/sm_90/gemm-f32.mlp
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/ok" 2>&1 | FileCheck %s --check-prefix=OK
// OK: remark: isaac: configuration chosen by the trained model {{.*}}ok/sm_90/gemm-f32.mlp
//
// The shipped models are within the bounds.
// RUN: isaac-model-test mlp-info %isaac_src/models/sm_90/gemm-f32.mlp | FileCheck %s --check-prefix=SHIPPED
// RUN: isaac-model-test mlp-info %isaac_src/models/sm_90/gemm-f64.mlp | FileCheck %s --check-prefix=SHIPPED
// SHIPPED: members: {{[36]}}

func.func @f(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
