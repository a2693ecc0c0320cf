// RUN: geflow-opt --ge-plan-memory %s -split-input-file -verify-diagnostics

// expected-error @+1 {{memory planning needs a static tensor shape}}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = ge.relu %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
