//===- AtcSwitches.cpp - the ATC options geflow has no use for ------------===//
//
// The names and meanings are ATC's (`atc --help`, CANN's ATC reference).
//
//===----------------------------------------------------------------------===//

#include "tools/atc/AtcSwitches.h"

#include <memory>
#include <vector>

using namespace llvm;
using namespace geflow;

namespace {

struct AtcSwitch {
  const char *name;
  /// What the option is for in ATC, in a few words: the --help text, and
  /// what an error calls it.
  const char *what;
  /// The note: what geflow does instead. Null: geflow does not implement
  /// the option, and giving it is an error.
  const char *instead;
  /// ATC's default, which asks for nothing: no note, no error ("" if any
  /// value asks for something).
  const char *quietValue = "";
};

constexpr const char *kOnePrecision =
    "is not applied: geflow runs every op in the model's own types";
constexpr const char *kNoOperatorCompiler =
    "is not applied: geflow's kernels are built with geflow, not compiled "
    "per model";
constexpr const char *kNoTuning =
    "is not applied: geflow tunes nothing; block dims come from its cost "
    "model";
constexpr const char *kPlainWeights =
    "is not applied: geflow stores the weights uncompressed, each distinct "
    "constant once";

const AtcSwitch kSwitches[] = {
    // Precision and implementation choices.
    {"precision_mode", "precision mode", kOnePrecision},
    {"precision_mode_v2", "precision mode", kOnePrecision},
    {"op_precision_mode", "per-op precision file", kOnePrecision},
    {"allow_hf32", "HF32 for float32 matmuls", kOnePrecision},
    {"keep_dtype", "ops kept in their type", kOnePrecision},
    {"customize_dtypes", "per-op compute types", kOnePrecision},
    {"modify_mixlist", "mixed-precision lists", kOnePrecision},
    {"op_select_implmode", "high_precision or high_performance",
     "is not applied: geflow has one implementation of each op"},
    {"optypelist_for_implmode", "ops of --op_select_implmode",
     "is not applied: geflow has one implementation of each op"},
    // Graph and memory optimizations.
    {"enable_small_channel", "small-channel convolutions",
     "is not applied: geflow picks channel blocks itself (ge-block-channels)",
     "0"},
    {"buffer_optimize", "L2 buffer optimization",
     "is not applied: geflow plans no L2 buffers; its memory plan reuses "
     "workspace unless --disable_reuse_memory=1",
     "l2_optimize"},
    {"fusion_switch_file", "fusion passes switched off",
     "is not read: 'geflow compile --no-fuse NAME' switches geflow's fusion "
     "passes off"},
    {"enable_scope_fusion_passes", "scope fusion passes",
     "is not applied: every geflow fusion pass runs unless 'geflow compile "
     "--no-fuse NAME' switches it off"},
    {"virtual_type", "virtual chip instances",
     "is not applied: geflow compiles for the whole simulated chip", "0"},
    // Tuning.
    {"auto_tune_mode", "operator auto tuning", kNoTuning},
    {"op_bank_path", "operator tuning repository", kNoTuning},
    {"mdl_bank_path", "model tuning repository", kNoTuning},
    // Weights.
    {"enable_compress_weight", "weight compression", kPlainWeights, "false"},
    {"compress_weight_conf", "weights to compress", kPlainWeights},
    {"sparsity", "sparse weights", kPlainWeights, "0"},
    {"external_weight", "weights beside the OM",
     "is not applied: geflow keeps the weights in the OM", "0"},
    // The host and the operator compiler.
    {"host_env_os", "host OS of the OM",
     "is not needed: a geflow OM runs wherever geflow runs"},
    {"host_env_cpu", "host CPU of the OM",
     "is not needed: a geflow OM runs wherever geflow runs"},
    {"op_debug_level", "operator compiler debug level", kNoOperatorCompiler,
     "0"},
    {"op_debug_config", "operator debug options", kNoOperatorCompiler},
    {"debug_dir", "operator compiler files", kNoOperatorCompiler},
    {"op_compiler_cache_dir", "operator compile cache", kNoOperatorCompiler},
    {"op_compiler_cache_mode", "operator compile cache", kNoOperatorCompiler,
     "disable"},
    {"status_check", "overflow status checks",
     "is not applied: geflow's kernels run on the host", "0"},
    // Reports.
    {"save_original_model", "the model before optimization",
     "is not applied: geflow writes the compiled OM only", "false"},
    {"check_report", "pre-check report",
     "is not written: a failed check is geflow's one-line error",
     "check_result.json"},
    {"display_model_info", "model information after the build",
     "adds nothing: geflow prints its summary on every compile", "0"},
    // What geflow does not implement.
    {"singleop", "single-op models", nullptr},
    {"om", "OM to JSON with --mode=1; 'geflow dump' prints an OM", nullptr},
    {"json", "OM to JSON with --mode=1; 'geflow dump' prints an OM", nullptr},
    {"dump_mode", "shapes as JSON with --mode=1", nullptr, "0"},
    {"cal_conf", "calibration", nullptr},
    {"op_name_map", "custom op names", nullptr},
    {"core_type", "vector cores only", nullptr, "AiCore"},
    {"is_input_adjust_hw_layout", "NC1HWC0 float16 inputs", nullptr, "false"},
    {"is_output_adjust_hw_layout", "NC1HWC0 float16 outputs", nullptr, "false"},
    {"compression_optimize_conf", "quantization by ATC", nullptr},
    {"encrypt_mode", "model encryption", nullptr, "-1"},
    {"encrypt_key", "model encryption", nullptr},
    {"certificate", "model encryption", nullptr},
    {"hardware_key", "model encryption", nullptr},
    {"private_key", "model encryption", nullptr},
};

/// The options made from kSwitches, in its order.
std::vector<std::unique_ptr<cl::opt<std::string>>> &options() {
  static std::vector<std::unique_ptr<cl::opt<std::string>>> all;
  return all;
}

/// True when every value given is ATC's default.
bool onlyQuietValues(const AtcSwitch &atcSwitch,
                     const cl::opt<std::string> &option) {
  return *atcSwitch.quietValue &&
         StringRef(option.getValue()).trim() == atcSwitch.quietValue;
}

} // namespace

void atc::registerAtcSwitches(cl::OptionCategory &category) {
  for (const AtcSwitch &atcSwitch : kSwitches)
    options().push_back(std::make_unique<cl::opt<std::string>>(
        StringRef(atcSwitch.name), cl::desc(atcSwitch.what),
        cl::value_desc("value"), cl::cat(category)));
}

Error atc::checkAtcSwitches(function_ref<void(const Twine &)> note) {
  for (size_t i = 0; i < options().size(); ++i) {
    const AtcSwitch &atcSwitch = kSwitches[i];
    const cl::opt<std::string> &option = *options()[i];
    if (option.getNumOccurrences() == 0 || onlyQuietValues(atcSwitch, option))
      continue;
    if (!atcSwitch.instead)
      return createStringError(inconvertibleErrorCode(),
                               Twine("option '--") + atcSwitch.name + "' (" +
                                   atcSwitch.what +
                                   ") is not implemented by geflow");
    note("--" + Twine(atcSwitch.name) + "=" + option.getValue() + " " +
         atcSwitch.instead);
  }
  return Error::success();
}
