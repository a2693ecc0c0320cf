#!/usr/bin/env bash
# Seed corpora for the fuzz targets, from the test data we already have:
#   make-seeds.sh BUILD_DIR OUT_DIR
# OUT_DIR/<target>/ gets ONNX models (libonnx's backend tests and the small
# stream models of BUILD_DIR), OM files compiled from some of them with
# BUILD_DIR's geflow, the stream plans and the SoC presets. The runtime target
# starts from nothing: its inputs are byte-coded programs.
set -euo pipefail
build=$1
out=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
testdata=/usr/share/libonnx-testdata/data
mkdir -p "$out"/{geflow-fuzz-onnx-import,geflow-fuzz-om-load,geflow-fuzz-stream-plan,geflow-fuzz-soc-spec,geflow-fuzz-runtime}

# ONNX: every backend test model under 64 KiB (larger ones only slow the
# fuzzer down; the mutations that matter are structural).
onnx=$out/geflow-fuzz-onnx-import
for model in "$testdata"/{node,simple,pytorch-operator,pytorch-converted}/*/model.onnx \
             "$build"/tests/models/streams/*.onnx; do
  [[ -f $model && $(stat -c %s "$model") -lt 65536 ]] || continue
  name=$(basename "$(dirname "$model")")
  [[ $name == streams ]] && name=$(basename "$model" .onnx)
  cp "$model" "$onnx/$name.onnx"
done

# OM: a few ops of each family (a kernel's make() reads a mutated OpDef's
# attributes), plus a multi-stream model with events.
om=$out/geflow-fuzz-om-load
geflow=$build/bin/geflow
if [[ -x $geflow ]]; then
  for test in test_add test_relu test_conv_with_strides_padding test_matmul_2d \
              test_gemm_default_no_bias test_softmax_example test_maxpool_2d_default \
              test_concat_1d_axis_0 test_transpose_default test_batchnorm_example \
              test_reshape_reordered_all_dims test_averagepool_2d_default \
              test_gather_elements_0 test_scatter_elements_with_axis test_scatternd \
              test_gathernd_example_int32 test_tril test_onehot_with_axis \
              test_depthtospace_crd_mode test_gridsample test_roialign_aligned_false \
              test_mod_mixed_sign_int32 test_bitshift_left_uint8 test_or2d test_size \
              test_isinf test_castlike_FLOAT_to_DOUBLE test_acos test_hannwindow test_dft \
              test_lstm_defaults test_gru_defaults test_simple_rnn_defaults \
              test_einsum_batch_matmul test_nllloss_NCd1 test_sce_mean \
              test_argmin_default_axis_example test_cumsum_1d_exclusive test_lrn \
              test_reduce_log_sum_exp_default_axes_keepdims_example test_hardmax_example \
              test_det_2d test_quantizelinear test_dequantizelinear test_qlinearconv \
              test_qlinearmatmul_2D test_matmulinteger test_convinteger_with_padding; do
    model=$testdata/node/$test/model.onnx
    [[ -f $model ]] || continue
    "$geflow" compile "$model" -o "$om/$test.om" >/dev/null 2>&1 || true
  done
  torchair=$build/tests/models/streams/torchair_example.onnx
  if [[ -f $torchair ]]; then
    "$geflow" compile "$torchair" --stream-plan \
      "$src/tests/models/streams/torchair_example.plan.json" \
      -o "$om/torchair_plan.om" >/dev/null 2>&1 || true
  fi
  # Gear tables: a model with a symbolic batch compiled for three gears.
  # (Node tests whose shape operands are graph inputs above already give
  # RUNTIME_SHAPES models.)
  gears=$(mktemp -d)
  if /usr/bin/python3 "$src/tests/lit/Inputs/gear_mlp.py" "$gears" >/dev/null 2>&1; then
    "$geflow" compile "$gears/gear_mlp.onnx" --dynamic-batch-size 1,2,4 \
      -o "$om/gear_mlp.om" >/dev/null 2>&1 || true
  fi
  rm -rf "$gears"
else
  echo "make-seeds: no $geflow, OM seeds skipped" >&2
fi

cp "$src"/tests/models/streams/*.json "$out/geflow-fuzz-stream-plan/"
cp "$src"/runtime/soc/presets/*.ini "$out/geflow-fuzz-soc-spec/"

for target in "$out"/*/; do
  echo "seeds: $(basename "$target"): $(find "$target" -type f | wc -l) files"
done
