// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  // CHECK: ge.abs %{{.*}} : tensor<4xi32>
  %0 = ge.abs %i : tensor<4xi32>
  // CHECK: ge.ceil %{{.*}} : tensor<2x3xf32>
  %1 = ge.ceil %x : tensor<2x3xf32>
  // CHECK: ge.cos
  %2 = ge.cos %x : tensor<2x3xf32>
  // CHECK: ge.elu %{{.*}} {alpha = 2.000000e+00 : f32} : tensor<2x3xf32>
  %3 = ge.elu %x {alpha = 2.0 : f32} : tensor<2x3xf32>
  // CHECK: ge.erf
  %4 = ge.erf %x : tensor<2x3xf32>
  // CHECK: ge.exp
  %5 = ge.exp %x : tensor<2x3xf32>
  // CHECK: ge.floor
  %6 = ge.floor %x : tensor<2x3xf32>
  // CHECK: ge.hard_sigmoid %{{.*}} : tensor<2x3xf32>
  %7 = ge.hard_sigmoid %x : tensor<2x3xf32>
  // CHECK: ge.hard_swish
  %8 = ge.hard_swish %x : tensor<2x3xf32>
  // CHECK: ge.identity %{{.*}} : tensor<4xi1>
  %9 = ge.identity %b : tensor<4xi1>
  // CHECK: ge.leaky_relu %{{.*}} {alpha = 1.000000e-01 : f32}
  %10 = ge.leaky_relu %x {alpha = 0.1 : f32} : tensor<2x3xf32>
  // CHECK: ge.log
  %11 = ge.log %x : tensor<2x3xf32>
  // CHECK: ge.neg %{{.*}} : tensor<4xi32>
  %12 = ge.neg %i : tensor<4xi32>
  // CHECK: ge.not %{{.*}} : tensor<4xi1>
  %13 = ge.not %b : tensor<4xi1>
  // CHECK: ge.reciprocal
  %14 = ge.reciprocal %x : tensor<2x3xf32>
  // CHECK: ge.relu
  %15 = ge.relu %x : tensor<2x3xf32>
  // CHECK: ge.selu
  %16 = ge.selu %x : tensor<2x3xf32>
  // CHECK: ge.sigmoid
  %17 = ge.sigmoid %x : tensor<2x3xf32>
  // CHECK: ge.sign
  %18 = ge.sign %i : tensor<4xi32>
  // CHECK: ge.sin
  %19 = ge.sin %x : tensor<2x3xf32>
  // CHECK: ge.softplus
  %20 = ge.softplus %x : tensor<2x3xf32>
  // CHECK: ge.softsign
  %21 = ge.softsign %x : tensor<2x3xf32>
  // CHECK: ge.sqrt
  %22 = ge.sqrt %x : tensor<2x3xf32>
  // CHECK: ge.tanh
  %23 = ge.tanh %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @clip
func.func @clip(%x: tensor<2x3xf32>, %lo: tensor<f32>, %hi: tensor<f32>) {
  // CHECK: ge.clip %{{.*}} min %{{.*}} max %{{.*}} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = ge.clip %x min %lo max %hi : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: ge.clip %{{.*}} max %{{.*}} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = ge.clip %x max %hi : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: ge.clip %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ge.clip %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @binary
func.func @binary(%a: tensor<2x3xf32>, %row: tensor<3xf32>, %col: tensor<2x1xf32>,
                  %i: tensor<4xi64>, %e: tensor<i32>, %slope: tensor<1xf32>) {
  // CHECK: ge.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = ge.add %a, %row : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ge.sub %{{.*}} : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = ge.sub %col, %row : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ge.mul
  %2 = ge.mul %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ge.div {{.*}} -> tensor<4xi64>
  %3 = ge.div %i, %i : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  // CHECK: ge.pow {{.*}} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  %4 = ge.pow %a, %e : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  // CHECK: ge.prelu {{.*}} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %5 = ge.prelu %a, %slope : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  // CHECK: ge.equal {{.*}} -> tensor<2x3xi1>
  %6 = ge.equal %a, %col : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xi1>
  // CHECK: ge.greater {{.*}} -> tensor<2x3xi1>
  %7 = ge.greater %a, %row : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: ge.less {{.*}} -> tensor<4xi1>
  %8 = ge.less %i, %i : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  // CHECK: ge.where {{.*}} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %9 = ge.where %6, %a, %row : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @variadic
func.func @variadic(%a: tensor<2x3xf32>, %row: tensor<3xf32>, %col: tensor<2x1xf32>) {
  // CHECK: ge.max {{.*}} : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %0 = ge.max %a, %row, %col : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: ge.min {{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.min %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ge.mean
  %2 = ge.mean %row, %col : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: ge.sum
  %3 = ge.sum %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// Dynamic dims are accepted where the verifier cannot decide.
// CHECK-LABEL: func @dynamic
func.func @dynamic(%a: tensor<?x3xf32>, %b: tensor<4x1xf32>) {
  // CHECK: ge.add {{.*}} -> tensor<4x3xf32>
  %0 = ge.add %a, %b : (tensor<?x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  // CHECK: ge.add {{.*}} -> tensor<?x3xf32>
  %1 = ge.add %a, %b : (tensor<?x3xf32>, tensor<4x1xf32>) -> tensor<?x3xf32>
  return
}
