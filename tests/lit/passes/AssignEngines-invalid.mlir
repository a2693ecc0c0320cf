// RUN: geflow-opt --ge-assign-engines=require-kernels=true %s -allow-unregistered-dialect -verify-diagnostics

// With require-kernels, an op that has no kernel is an error naming the node
// (its NameLoc; this one has none) and the op type.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{node '?' (test.mystery): no kernel for op type 'test.mystery'}}
  %0 = "test.mystery"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
