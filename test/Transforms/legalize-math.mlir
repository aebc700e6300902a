// RUN: isaac-opt %s --pass-pipeline="builtin.module(gpu.module(isaac-legalize-math))" | FileCheck %s

// f32 transcendental functions become polynomial approximations (arith
// only); rsqrt, exp2 and powf with a small integer exponent are rewritten;
// f16 goes through f32; f64 is left for libdevice.
module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: func.func @f32_functions
    // CHECK-NOT: math.tanh
    // CHECK-NOT: math.erf
    // CHECK-NOT: math.exp
    // CHECK-NOT: math.log
    // CHECK: return
    func.func @f32_functions(%x: f32) -> (f32, f32, f32, f32) {
      %a = math.tanh %x : f32
      %b = math.erf %x : f32
      %c = math.exp %x : f32
      %d = math.log %x : f32
      return %a, %b, %c, %d : f32, f32, f32, f32
    }

    // CHECK-LABEL: func.func @rewrites
    // CHECK: %[[S:.*]] = math.sqrt %arg0 : f32
    // CHECK: arith.divf %{{.*}}, %[[S]] : f32
    // CHECK-NOT: math.exp2
    // CHECK-NOT: math.powf %arg0, %{{.*}} : f32
    // x^3 by square-and-multiply: x, then x*x.
    // CHECK: %[[X2:.*]] = arith.mulf %arg0, %arg0 : f32
    // CHECK: arith.mulf %{{.*}}, %[[X2]] : f32
    // A non-integer exponent stays (libdevice).
    // CHECK: math.powf %arg0, %{{.*}} : f32
    func.func @rewrites(%x: f32) -> (f32, f32, f32, f32) {
      %r = math.rsqrt %x : f32
      %e = math.exp2 %x : f32
      %c3 = arith.constant 3.0 : f32
      %p = math.powf %x, %c3 : f32
      %ch = arith.constant 0.5 : f32
      %q = math.powf %x, %ch : f32
      return %r, %e, %p, %q : f32, f32, f32, f32
    }

    // CHECK-LABEL: func.func @f16_and_f64
    // CHECK: arith.extf %arg0 : f16 to f32
    // CHECK-NOT: math.tanh %{{.*}} : f32
    // CHECK: arith.truncf %{{.*}} : f32 to f16
    // CHECK: math.tanh %arg1 : f64
    func.func @f16_and_f64(%h: f16, %d: f64) -> (f16, f64) {
      %a = math.tanh %h : f16
      %b = math.tanh %d : f64
      return %a, %b : f16, f64
    }
  }
}
