// The chip table (include/isaac/Model/Chips.def) is the one list of chips:
// every pass refuses another chip with that list, and the NVVM target's PTX
// version derives from it unless `features` is given.
//
// RUN: not isaac-opt %s --isaac-select-config="chip=sm_70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not isaac-opt %s --isaac-lower-to-gpu="chip=sm_70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not isaac-opt %s --isaac-pipeline="chip=sm_120" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN120
// UNKNOWN: error: unknown target chip 'sm_70'; known chips: sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_100a{{$}}
// UNKNOWN120: error: unknown target chip 'sm_120'; known chips: sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_100a{{$}}
//
// Default features: the row's PTX version.
// RUN: isaac-opt %s --isaac-lower-to-gpu="chip=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: isaac-opt %s --isaac-lower-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=SM90A
// RUN: isaac-opt %s --isaac-lower-to-gpu="chip=sm_100" | FileCheck %s --check-prefix=SM100
// RUN: isaac-opt %s --isaac-lower-to-gpu="chip=sm_100a" | FileCheck %s --check-prefix=SM100A
// SM80: gpu.module @{{.*}} [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// SM90A: gpu.module @{{.*}} [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx81">]
// SM100: gpu.module @{{.*}} [#nvvm.target<O = 3, chip = "sm_100", features = "+ptx86">]
// SM100A: gpu.module @{{.*}} [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">]
//
// An explicit `features` wins, in the pass and in the pipeline.
// RUN: isaac-opt %s --isaac-lower-to-gpu="chip=sm_100 features=+ptx88" | FileCheck %s --check-prefix=EXPLICIT
// EXPLICIT: gpu.module @{{.*}} [#nvvm.target<O = 3, chip = "sm_100", features = "+ptx88">]
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 features=+ptx87 ptx-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX87
// PTX87: .version 8.7
// PTX87: .target sm_90
//
// A PTX version older than the chip is a diagnostic, not LLVM's abort
// ("PTX version 8.0 does not support target 'sm_100'").
// RUN: not isaac-opt %s --isaac-pipeline="chip=sm_100 features=+ptx80" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not isaac-opt %s --isaac-lower-to-gpu="chip=sm_90a features=+ptx60,+ptx78" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD90A
// OLD: error: isaac-lower-to-gpu: features '+ptx80' select PTX ISA 8.0 (+ptx80); sm_100 needs PTX ISA 8.6 or later (isaac's default for it: +ptx86)
// OLD-NOT: LLVM ERROR
// OLD90A: error: isaac-lower-to-gpu: features '+ptx60,+ptx78' select PTX ISA 7.8 (+ptx78); sm_90a needs PTX ISA 8.0 or later (isaac's default for it: +ptx81)

func.func @gemm(%A: memref<256x128xf32>, %B: memref<128x64xf32>, %C: memref<256x64xf32>) {
  linalg.matmul ins(%A, %B : memref<256x128xf32>, memref<128x64xf32>) outs(%C : memref<256x64xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}
