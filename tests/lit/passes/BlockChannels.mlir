// RUN: geflow-opt --ge-block-channels %s | FileCheck %s
// RUN: geflow-opt --ge-block-channels=max-positions=784 %s | FileCheck %s --check-prefix=WIDE

// A MobileNet block on a 14x14 map: 1x1 expand, depthwise 3x3, a
// squeeze-and-excite scale, 1x1 project with the block's input as residual.
// One trans_data in, one out; the ops between take NC1HWC0.
// CHECK-LABEL: func.func @inverted_residual
func.func @inverted_residual(%x: tensor<1x24x14x14xf32>) -> tensor<1x24x14x14xf32> {
  %w1 = ge.constant dense<0.1> : tensor<72x24x1x1xf32>
  %w2 = ge.constant dense<0.1> : tensor<72x1x3x3xf32>
  %w3 = ge.constant dense<0.1> : tensor<24x72x1x1xf32>
  %b72 = ge.constant dense<0.0> : tensor<72xf32>
  %b24 = ge.constant dense<0.0> : tensor<24xf32>
  // CHECK: %[[IN:.*]] = ge.trans_data %arg0 {dst_format = "NC1HWC0", src_format = "NCHW"} : (tensor<1x24x14x14xf32>) -> tensor<1x2x14x14x16xf32>
  // CHECK: %[[E:.*]] = ge.fused_conv %[[IN]], {{.*}}data_format = "NC1HWC0"{{.*}} -> tensor<1x5x14x14x16xf32>
  %0 = ge.fused_conv %x, %w1, %b72 {activation = "relu", kernel_shape = array<i64: 1, 1>} : (tensor<1x24x14x14xf32>, tensor<72x24x1x1xf32>, tensor<72xf32>) -> tensor<1x72x14x14xf32>
  // CHECK: %[[D:.*]] = ge.fused_conv %[[E]], {{.*}}data_format = "NC1HWC0", group = 72{{.*}} -> tensor<1x5x14x14x16xf32>
  %1 = ge.fused_conv %0, %w2, %b72 {activation = "relu", group = 72 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x72x14x14xf32>, tensor<72x1x3x3xf32>, tensor<72xf32>) -> tensor<1x72x14x14xf32>
  // CHECK: %[[P:.*]] = ge.global_average_pool %[[D]] {data_format = "NC1HWC0"} : (tensor<1x5x14x14x16xf32>) -> tensor<1x5x1x1x16xf32>
  %2 = ge.global_average_pool %1 : (tensor<1x72x14x14xf32>) -> tensor<1x72x1x1xf32>
  // CHECK: %[[S:.*]] = ge.sigmoid %[[P]] : tensor<1x5x1x1x16xf32>
  %3 = ge.sigmoid %2 : tensor<1x72x1x1xf32>
  // CHECK: %[[M:.*]] = ge.mul %[[D]], %[[S]] : (tensor<1x5x14x14x16xf32>, tensor<1x5x1x1x16xf32>) -> tensor<1x5x14x14x16xf32>
  %4 = ge.mul %1, %3 : (tensor<1x72x14x14xf32>, tensor<1x72x1x1xf32>) -> tensor<1x72x14x14xf32>
  // CHECK: %[[O:.*]] = ge.fused_conv %[[M]], {{.*}} residual %[[IN]] {{{.*}}data_format = "NC1HWC0"{{.*}} -> tensor<1x2x14x14x16xf32>
  %5 = ge.fused_conv %4, %w3, %b24 residual %x {kernel_shape = array<i64: 1, 1>} : (tensor<1x72x14x14xf32>, tensor<24x72x1x1xf32>, tensor<24xf32>, tensor<1x24x14x14xf32>) -> tensor<1x24x14x14xf32>
  // CHECK: %[[OUT:.*]] = ge.trans_data %[[O]] {dst_format = "NCHW", src_format = "NC1HWC0"} : (tensor<1x2x14x14x16xf32>) -> tensor<1x24x14x14xf32>
  // CHECK: return %[[OUT]]
  return %5 : tensor<1x24x14x14xf32>
}

// Without a depthwise conv there is nothing to gain: 1x1 convs stay NCHW.
// CHECK-LABEL: func.func @pointwise_only
// CHECK-NOT: trans_data
// CHECK-NOT: NC1HWC0
func.func @pointwise_only(%x: tensor<1x24x14x14xf32>) -> tensor<1x72x14x14xf32> {
  %w1 = ge.constant dense<0.1> : tensor<72x24x1x1xf32>
  %w2 = ge.constant dense<0.1> : tensor<72x72x1x1xf32>
  %0 = ge.conv %x, %w1 {kernel_shape = array<i64: 1, 1>} : (tensor<1x24x14x14xf32>, tensor<72x24x1x1xf32>) -> tensor<1x72x14x14xf32>
  %1 = ge.relu %0 : tensor<1x72x14x14xf32>
  %2 = ge.conv %1, %w2 {kernel_shape = array<i64: 1, 1>} : (tensor<1x72x14x14xf32>, tensor<72x72x1x1xf32>) -> tensor<1x72x14x14xf32>
  return %2 : tensor<1x72x14x14xf32>
}

// A value the run hands to an op outside it (a softmax over channels) leaves
// through a trans_data; the run's own readers keep the blocked value. (Four
// depthwise convs save twice what the three edges move.)
// CHECK-LABEL: func.func @edges
func.func @edges(%x: tensor<1x32x7x7xf32>) -> (tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>) {
  %wd = ge.constant dense<0.1> : tensor<32x1x3x3xf32>
  %wp = ge.constant dense<0.1> : tensor<32x32x1x1xf32>
  // CHECK: ge.trans_data %arg0 {dst_format = "NC1HWC0"
  // CHECK: %[[D:.*]] = ge.conv {{.*}}data_format = "NC1HWC0"{{.*}} -> tensor<1x2x7x7x16xf32>
  %0 = ge.conv %x, %wd {group = 32 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x7x7xf32>
  // CHECK: %[[BACK:.*]] = ge.trans_data %[[D]] {dst_format = "NCHW"
  // CHECK: ge.softmax %[[BACK]]
  %1 = ge.softmax %0 {axis = 1 : i64} : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  // CHECK: ge.conv %[[D]], {{.*}}data_format = "NC1HWC0"
  %2 = ge.conv %0, %wp {kernel_shape = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x7x7xf32>
  %3 = ge.relu %2 : tensor<1x32x7x7xf32>
  %4 = ge.conv %3, %wd {group = 32 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x7x7xf32>
  %5 = ge.conv %4, %wd {group = 32 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x7x7xf32>
  %6 = ge.conv %5, %wd {group = 32 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x7x7xf32>
  return %1, %6 : tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>
}

// A 28x28 map is above the default max-positions (196): its 1x1 GEMMs run
// faster in NCHW. With max-positions=784 it is blocked.
// CHECK-LABEL: func.func @wide_map
// CHECK-NOT: trans_data
// WIDE-LABEL: func.func @wide_map
// WIDE: ge.trans_data %arg0 {dst_format = "NC1HWC0"
// WIDE: ge.trans_data {{.*}}dst_format = "NCHW"
func.func @wide_map(%x: tensor<1x8x28x28xf32>) -> tensor<1x8x28x28xf32> {
  %wd = ge.constant dense<0.1> : tensor<32x1x3x3xf32>
  %we = ge.constant dense<0.1> : tensor<32x8x1x1xf32>
  %wp = ge.constant dense<0.1> : tensor<8x32x1x1xf32>
  %0 = ge.conv %x, %we {kernel_shape = array<i64: 1, 1>} : (tensor<1x8x28x28xf32>, tensor<32x8x1x1xf32>) -> tensor<1x32x28x28xf32>
  %1 = ge.conv %0, %wd {group = 32 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x28x28xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x28x28xf32>
  %2 = ge.conv %1, %wp {kernel_shape = array<i64: 1, 1>} : (tensor<1x32x28x28xf32>, tensor<8x32x1x1xf32>) -> tensor<1x8x28x28xf32>
  return %2 : tensor<1x8x28x28xf32>
}

// A max pool between depthwise convs joins their run and, like them, saves
// its kernel's transposes; a pool alone (its edges move what it saves, not
// half of it) stays NCHW.
// CHECK-LABEL: func.func @pools
// CHECK: ge.trans_data %arg0 {dst_format = "NC1HWC0"
// CHECK: ge.max_pool {{.*}}{data_format = "NC1HWC0"{{.*}} : (tensor<1x2x14x14x16xf32>) -> tensor<1x2x7x7x16xf32>
// CHECK: ge.trans_data {{.*}}{dst_format = "NCHW"{{.*}} -> tensor<1x32x7x7xf32>
// CHECK: ge.average_pool %arg1 {kernel_shape
// CHECK-NOT: trans_data
// CHECK: return
func.func @pools(%x: tensor<1x32x14x14xf32>, %y: tensor<1x8x14x14xf32>) -> (tensor<1x32x7x7xf32>, tensor<1x8x14x14xf32>) {
  %wd = ge.constant dense<0.1> : tensor<32x1x3x3xf32>
  %0 = ge.conv %x, %wd {group = 32 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x14x14xf32>
  %1 = ge.max_pool %0 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x32x14x14xf32>) -> tensor<1x32x7x7xf32>
  %2 = ge.conv %1, %wd {group = 32 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x7x7xf32>
  %3 = ge.average_pool %y {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
  return %2, %3 : tensor<1x32x7x7xf32>, tensor<1x8x14x14xf32>
}
