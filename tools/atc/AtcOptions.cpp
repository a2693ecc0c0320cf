//===- AtcOptions.cpp - ATC's command line as a geflow compile job --------===//
//
// The names, values and defaults are ATC's (`atc --help`, CANN's ATC
// reference); where geflow means something else by one, its note says so.
//
//===----------------------------------------------------------------------===//

#include "tools/atc/AtcOptions.h"
#include "tools/atc/AtcSwitches.h"

#include "tools/geflow/ToolContext.h"

#include "frontends/onnx/OnnxImporter.h"
#include "runtime/soc/SocSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"

#include <optional>

using namespace llvm;
using namespace geflow;
using namespace geflow::atc;

cl::OptionCategory &atc::atcCategory() {
  static cl::OptionCategory category("ATC options geflow implements");
  return category;
}

cl::OptionCategory &atc::atcSwitchCategory() {
  static cl::OptionCategory category(
      "ATC options geflow accepts with a note on what it does instead, or "
      "refuses");
  return category;
}

namespace {

/// One of ATC's options, a string as ATC's are, checked where it is read.
struct AtcOption : cl::opt<std::string> {
  AtcOption(const char *name, const char *help, const char *valueName,
            const char *fallback = "")
      : cl::opt<std::string>(StringRef(name), cl::desc(help),
                             cl::value_desc(valueName), cl::init(fallback),
                             cl::cat(atcCategory())) {}
};

AtcOption modelPath("model", "The ONNX model file", "file");
AtcOption weightPath("weight",
                     "Caffe's weight file; an ONNX model holds its own",
                     "file");
AtcOption framework("framework",
                    "0 (Caffe), 1 (MindSpore), 3 (TensorFlow) or 5 (ONNX); "
                    "geflow imports ONNX",
                    "n");
AtcOption outputPath("output", "The OM to write, without .om (added)", "path");
AtcOption socVersion("soc_version",
                     "Ascend310*, Ascend310P*, Ascend310B*: ascend310p-sim; "
                     "Ascend910*: ascend910b-sim",
                     "chip");
AtcOption inputShape("input_shape",
                     "Input shapes, \"name:n,c,h,w;name2:...\", replacing "
                     "the model's; -1 opens a dim",
                     "shapes");
AtcOption inputFormat("input_format",
                      "NCHW, NHWC, ND, NCDHW, NDHWC or NC1HWC0; geflow keeps "
                      "the model's layout",
                      "format");
AtcOption dynamicBatchSize("dynamic_batch_size", "Batch gears, \"1,2,4\"",
                           "sizes");
AtcOption dynamicImageSize("dynamic_image_size",
                           "Image-size gears, \"h,w;h,w\"", "sizes");
AtcOption dynamicDims("dynamic_dims", "ND gears, \"d,d;d,d\"", "dims");
AtcOption inputFp16Nodes("input_fp16_nodes",
                         "Float inputs that become float16, \"name;name2\"",
                         "names");
AtcOption outputType("output_type",
                     "FP32, FP16 or UINT8 for every output, or "
                     "\"node:index:TYPE;...\"",
                     "type");
AtcOption insertOpConf("insert_op_conf",
                       "Static AIPP before an input (insert_op.cfg): a uint8 "
                       "image converted to what the model takes",
                       "file");
AtcOption outNodes("out_nodes",
                   "The outputs, \"node:index;node:index\", in order",
                   "outputs");
AtcOption logLevel("log",
                   "debug, info, warning, error or null (default); debug and "
                   "info time the phases, error drops the notes",
                   "level", "null");
AtcOption runMode("mode", "0: build an OM (the only mode geflow has)", "n",
                  "0");
AtcOption disableReuseMemory(
    "disable_reuse_memory",
    "1: every tensor its own workspace bytes (0, default: reuse)", "0|1", "0");
AtcOption enableSingleStream(
    "enable_single_stream",
    "true: one stream (default false: streams where they help)", "bool",
    "false");
AtcOption aicoreNum("aicore_num",
                    "AI cores the model may use: \"n\", or geflow's "
                    "\"aic|aiv\"",
                    "n");
AtcOption dumpGraph("dump_graph",
                    "geflow's --dump-graph: the graph after each stage, as "
                    "DUMP_GE_GRAPH writes it",
                    "dir");

Error atcError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Error invalidValue(const cl::opt<std::string> &option, StringRef expected) {
  return atcError("invalid value '" + option.getValue() + "' for '--" +
                  option.ArgStr + "': expected " + expected);
}

/// The value of a 0|1 or true|false option.
Expected<bool> flagValue(const cl::opt<std::string> &option, StringRef no,
                         StringRef yes) {
  StringRef value = StringRef(option.getValue()).trim();
  if (value != no && value != yes)
    return invalidValue(option, (no + " or " + yes).str());
  return value == yes;
}

/// ATC's --framework numbers.
std::optional<StringRef> frameworkName(StringRef number) {
  return StringSwitch<std::optional<StringRef>>(number.trim())
      .Case("0", StringRef("Caffe"))
      .Case("1", StringRef("MindSpore"))
      .Case("3", StringRef("TensorFlow"))
      .Case("5", StringRef("ONNX"))
      .Default(std::nullopt);
}

/// The model's inputs, read once; every --framework other than 5 needs them
/// to tell an ONNX file, and --input_format to compare layouts.
class ModelInputs {
public:
  explicit ModelInputs(const ImportLimits &limits) : limits_(limits) {}
  Expected<const std::vector<DeclaredInput> &> get() {
    if (!inputs_) {
      OnnxImportOptions options;
      options.limits = limits_;
      auto read = readOnnxInputSignature(modelPath, options);
      if (!read)
        return read.takeError();
      inputs_ = std::move(*read);
    }
    return *inputs_;
  }

private:
  ImportLimits limits_;
  std::optional<std::vector<DeclaredInput>> inputs_;
};

/// --framework: geflow reads ONNX whatever is said, with a note when the
/// model is ONNX all the same, an error when it is not.
Error checkFramework(ModelInputs &inputs, NoteFn note) {
  std::optional<StringRef> name = frameworkName(framework);
  if (!name)
    return invalidValue(framework, "0 (Caffe), 1 (MindSpore), 3 (TensorFlow) "
                                   "or 5 (ONNX)");
  if (*name == "ONNX")
    return Error::success();
  auto read = inputs.get();
  if (!read) {
    if (!sys::fs::exists(modelPath))
      return read.takeError(); // "cannot read 'm': No such file ..."
    consumeError(read.takeError());
    return atcError("--framework=" + framework + " (" + *name +
                    "): geflow imports ONNX models only, and '" + modelPath +
                    "' is not one");
  }
  note("--framework=" + framework + " (" + *name + ") given, but '" +
       modelPath + "' is an ONNX model: imported as --framework=5");
  return Error::success();
}

/// --weight: an ONNX model carries its weights, so the file is not read.
Error checkWeight(NoteFn note) {
  if (weightPath.getNumOccurrences() == 0 || weightPath.empty())
    return Error::success();
  if (!sys::fs::exists(weightPath))
    return atcError("--weight '" + weightPath + "': No such file or directory");
  note("--weight=" + weightPath +
       " is not read: the weights of an ONNX model are in the model");
  return Error::success();
}

/// The layout ONNX gives an input of `rank`: NCHW images, NCDHW volumes.
StringRef onnxLayout(size_t rank) {
  return rank == 4 ? "NCHW" : rank == 5 ? "NCDHW" : "ND";
}

/// --input_format: geflow keeps the model's layout; a note names the first
/// input laid out otherwise than the option says.
Error checkInputFormat(ModelInputs &inputs, NoteFn note) {
  if (inputFormat.getNumOccurrences() == 0)
    return Error::success();
  std::string format = StringRef(inputFormat.getValue()).trim().upper();
  if (!is_contained({"NCHW", "NHWC", "ND", "NCDHW", "NDHWC", "NC1HWC0"},
                    format))
    return invalidValue(inputFormat, "NCHW, NHWC, ND, NCDHW, NDHWC or NC1HWC0");
  if (format == "ND")
    return Error::success();
  auto read = inputs.get();
  if (!read)
    return read.takeError();
  bool atcDefault = format == "NCHW" || format == "NCDHW";
  for (const DeclaredInput &input : *read) {
    StringRef layout = input.hasShape ? onnxLayout(input.dims.size()) : "";
    // ATC's default format speaks of images: other inputs are ND anyway.
    if (layout.empty() || layout == format || (atcDefault && layout == "ND"))
      continue;
    note("--input_format=" + format + ": input '" + input.name + "' of '" +
         modelPath + "' is " + layout +
         " (as ONNX lays it out); geflow keeps the model's layout");
    break;
  }
  return Error::success();
}

/// --output: ATC adds ".om".
Expected<std::string> omPathFor(StringRef output) {
  if (output.ends_with("/"))
    return atcError("--output '" + output +
                    "': needs a file name (ATC adds .om to it)");
  return output.ends_with(".om") ? output.str() : (output + ".om").str();
}

/// --aicore_num: ATC's count of AI cores (the vector cores all stay), or
/// geflow's "aic|aiv".
Expected<std::string> coreLimit(StringRef soc) {
  StringRef value = StringRef(aicoreNum.getValue()).trim();
  if (value.contains('|'))
    return value.str();
  rt::SocSpec spec;
  if (rt::Status st = rt::loadSocSpec(soc.str(), spec); !st.isOk())
    return atcError("SoC '" + soc + "': " + st.message());
  unsigned cores = 0;
  if (value.getAsInteger(10, cores) || cores < 1 || cores > spec.cubeCoreCnt)
    return invalidValue(aicoreNum, ("1 to " + Twine(spec.cubeCoreCnt) +
                                    " (the AI cores of " + soc + ")")
                                       .str());
  return (value + "|" + Twine(spec.vectorCoreCnt)).str();
}

/// --mode: only 0 builds an OM; the others point at geflow's own commands.
Error checkMode() {
  StringRef mode = StringRef(runMode.getValue()).trim();
  if (mode == "0")
    return Error::success();
  if (mode == "1" || mode == "5" || mode == "6")
    return atcError("--mode=" + mode +
                    " is not implemented by geflow: 'geflow dump MODEL.om' "
                    "prints an OM's graph");
  if (mode == "3")
    return atcError("--mode=3 (pre-check) is not implemented by geflow: "
                    "'geflow import MODEL.onnx' checks a model without "
                    "compiling it, and 'geflow dump MODEL.om' prints an OM");
  return invalidValue(runMode, "0");
}

/// ATC's required options, in its order of checking.
Error checkRequired() {
  for (const cl::opt<std::string> *option :
       {&modelPath, &framework, &outputPath, &socVersion})
    if (StringRef(option->getValue()).trim().empty())
      return atcError("option '--" + option->ArgStr + "' is required");
  return Error::success();
}

/// The options that set the compile itself, after the checks.
Error readCompileOptions(cli::CompileJob &job) {
  auto soc = socForVersion(socVersion);
  if (!soc)
    return soc.takeError();
  driver::CompileOptions &options = job.options;
  options.soc = *soc;
  job.socNote = "for --soc_version=" + socVersion;
  auto omPath = omPathFor(outputPath);
  if (!omPath)
    return omPath.takeError();
  job.omPath = *omPath;
  job.makeOmFolder = true;
  job.gears = {dynamicBatchSize, dynamicImageSize, dynamicDims};
  auto edits = parseAtcModelEdits(inputFp16Nodes, outNodes, outputType);
  if (!edits)
    return edits.takeError();
  options.import.atcEdits = std::move(*edits);
  options.import.atcEdits.aippConfigPath = insertOpConf;
  // ATC's --input_shape replaces the declared shape (geflow's --input-shape
  // only fixes the dims a model leaves open): a model edit.
  if (!inputShape.empty()) {
    auto shapes = parseInputShapeOption(inputShape);
    if (!shapes)
      return shapes.takeError();
    options.import.atcEdits.inputShapes = std::move(*shapes);
  }
  auto disableReuse = flagValue(disableReuseMemory, "0", "1");
  if (!disableReuse)
    return disableReuse.takeError();
  options.reuseMemory = !*disableReuse;
  auto singleStream = flagValue(enableSingleStream, "false", "true");
  if (!singleStream)
    return singleStream.takeError();
  if (*singleStream)
    options.streamMode = passes::StreamMode::kSingle;
  if (!aicoreNum.empty()) {
    auto limit = coreLimit(options.soc);
    if (!limit)
      return limit.takeError();
    job.aicoreNum = *limit;
  }
  options.dumpGraphDir = dumpGraph;
  return Error::success();
}

} // namespace

bool atc::atcNotesWanted() { return StringRef(logLevel).trim() != "error"; }

Expected<cli::CompileJob> atc::readAtcCompileJob(NoteFn note) {
  StringRef level = StringRef(logLevel.getValue()).trim();
  if (!is_contained({"debug", "info", "warning", "error", "null"}, level))
    return invalidValue(logLevel, "debug, info, warning, error or null");
  if (Error error = checkMode())
    return std::move(error);
  if (Error error = checkAtcSwitches(note))
    return std::move(error);
  if (Error error = checkRequired())
    return std::move(error);
  cli::CompileJob job;
  job.commandName = "atc";
  job.modelPath = modelPath;
  job.timePasses = level == "debug" || level == "info";
  ModelInputs inputs(job.limits.importLimits());
  if (Error error = checkFramework(inputs, note))
    return std::move(error);
  if (Error error = checkWeight(note))
    return std::move(error);
  if (Error error = checkInputFormat(inputs, note))
    return std::move(error);
  if (Error error = readCompileOptions(job))
    return std::move(error);
  return job;
}

Expected<std::string> atc::socForVersion(StringRef version) {
  version = version.trim();
  if (is_contained(rt::socPresetNames(), version) || version.ends_with(".ini"))
    return version.str();
  std::string chip = version.lower();
  auto family = [&](StringRef prefix) {
    return StringRef(chip).starts_with(prefix);
  };
  if (chip == "ascend310" || family("ascend310p") || family("ascend310b"))
    return std::string("ascend310p-sim");
  if (family("ascend910"))
    return std::string("ascend910b-sim");
  return atcError("unknown --soc_version '" + version +
                  "': expected a chip of the Ascend310, Ascend310P, "
                  "Ascend310B (ascend310p-sim), Ascend910, Ascend910B or "
                  "Ascend910_93 (ascend910b-sim) families, or a geflow SoC "
                  "preset or .ini file");
}

std::string atc::inAtcSpelling(StringRef message) {
  static const std::pair<StringRef, StringRef> kSpellings[] = {
      {"--input-shape", "--input_shape"},
      {"--dynamic-batch-size", "--dynamic_batch_size"},
      {"--dynamic-image-size", "--dynamic_image_size"},
      {"--dynamic-dims", "--dynamic_dims"},
      {"--aicore-num", "--aicore_num"},
      {"--dump-graph", "--dump_graph"},
      {"--no-memory-reuse", "--disable_reuse_memory=1"},
  };
  std::string text = message.str();
  for (auto [geflow, atc] : kSpellings)
    for (size_t at = text.find(geflow); at != std::string::npos;
         at = text.find(geflow, at + atc.size()))
      text.replace(at, geflow.size(), atc.str());
  return text;
}
