// RUN: geflow-opt --ge-assign-streams=mode=label %s -split-input-file | FileCheck %s --check-prefix=LABEL
// RUN: geflow-opt --ge-assign-streams=mode=auto %s -split-input-file | FileCheck %s --check-prefix=AUTO
// RUN: not geflow-opt --ge-assign-streams=mode=single %s -split-input-file 2>&1 | FileCheck %s --check-prefix=SINGLE

// torchair's example: the labels are the streams, the rest stays on the main
// stream; the wait edges are only ordering and get no stream.
// LABEL-LABEL: func.func @torchair
// LABEL: ge.add {{.*}}ge.stream = 0 : i64
// LABEL: ge.matmul {{.*}}ge.stream = 1 : i64
// LABEL: ge.matmul {{.*}}ge.stream = 0 : i64
// LABEL: ge.add {{.*}}ge.stream = 2 : i64
// SINGLE: error: node 'mm_result': _user_stream_label '1' needs its own stream, but --streams single puts every op on one stream
func.func @torchair(%in1: tensor<64x64xf32>, %in2: tensor<64x64xf32>,
                    %in3: tensor<64x64xf32>, %in4: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %add = ge.add %in1, %in2 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("add_result")
  %a3 = ge.npu_wait_tensor %in3, %add : tensor<64x64xf32>, tensor<64x64xf32>
  %mm = ge.matmul %a3, %in4 {ge.stream_label = "1"} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("mm_result")
  %mm1 = ge.matmul %in3, %in4 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("mm1")
  %b3 = ge.npu_wait_tensor %in3, %mm : tensor<64x64xf32>, tensor<64x64xf32>
  %add2 = ge.add %b3, %in4 {ge.stream_label = "2"} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("add2")
  return %add, %mm, %mm1, %add2 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// A plain chain has nothing to overlap: one stream in every mode.
// AUTO-LABEL: func.func @chain
// AUTO-SAME: ge.predicted_makespan_ns = array<i64
// AUTO-NOT: ge.stream = 1
// AUTO: return
func.func @chain(%x: tensor<128x128xf32>, %w: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %0 = ge.matmul %x, %w : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  %1 = ge.relu %0 : tensor<128x128xf32>
  %2 = ge.matmul %1, %w : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  %3 = ge.sigmoid %2 : tensor<128x128xf32>
  %4 = ge.matmul %3, %w : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  %5 = ge.tanh %4 : tensor<128x128xf32>
  return %5 : tensor<128x128xf32>
}

// -----

// Four independent branches, each too small to fill the cube cores: auto
// gives each its own stream, and the join continues the last one.
// AUTO-LABEL: func.func @four_branches
// AUTO: ge.matmul {{.*}}ge.stream = 0 : i64
// AUTO: ge.matmul {{.*}}ge.stream = 0 : i64
// AUTO: ge.matmul {{.*}}ge.stream = 1 : i64
// AUTO: ge.matmul {{.*}}ge.stream = 1 : i64
// AUTO: ge.matmul {{.*}}ge.stream = 2 : i64
// AUTO: ge.matmul {{.*}}ge.stream = 2 : i64
// AUTO: ge.matmul {{.*}}ge.stream = 3 : i64
// AUTO: ge.matmul {{.*}}ge.stream = 3 : i64
// LABEL-LABEL: func.func @four_branches
// LABEL-NOT: ge.stream = 1
// LABEL: return
func.func @four_branches(%x: tensor<32x128xf32>, %w: tensor<128x128xf32>) -> tensor<32x128xf32> {
  %a0 = ge.matmul %x, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %a1 = ge.matmul %a0, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %b0 = ge.matmul %x, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %b1 = ge.matmul %b0, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %c0 = ge.matmul %x, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %c1 = ge.matmul %c0, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %d0 = ge.matmul %x, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %d1 = ge.matmul %d0, %w : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
  %ab = ge.add %a1, %b1 : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  %cd = ge.add %c1, %d1 : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  %all = ge.add %ab, %cd : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  return %all : tensor<32x128xf32>
}
