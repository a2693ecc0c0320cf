//===- ModelLoader.cpp - parse, convert and infer an ONNX model -----------===//

#include "frontends/onnx/ModelLoader.h"
#include "frontends/onnx/ContainedLibOnnx.h"
#include "frontends/onnx/DetachedWeights.h"
#include "frontends/onnx/EinsumShapes.h"
#include "frontends/onnx/LibOnnxConverter.h"
#include "frontends/onnx/ModelChecks.h"
#include "frontends/onnx/OpTable.h"
#include "frontends/onnx/PiecewiseConversion.h"
#include "frontends/onnx/ShapeCompletion.h"

#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <exception>
#include <limits>
#include <optional>

using namespace geflow;
using namespace geflow::onnxfe;

static int64_t getDomainOpset(const onnx::ModelProto &model,
                              llvm::StringRef domain) {
  if (isDefaultDomain(domain))
    return getDefaultOpset(model);
  for (const auto &opset : model.opset_import())
    if (opset.domain() == domain)
      return opset.version();
  return -1;
}

llvm::Expected<onnx::ModelProto>
onnxfe::parseModel(llvm::StringRef bytes, llvm::StringRef sourceName) {
  onnx::ModelProto model;
  bool parsed = false;
  try {
    if (bytes.size() <= static_cast<size_t>(std::numeric_limits<int>::max()))
      parsed =
          model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  } catch (const std::exception &e) {
    parsed = false;
  }
  if (!parsed)
    return makeError(
        "'" + sourceName +
        "': not an ONNX model (protobuf parse failed; truncated or "
        "not a ModelProto)");
  if (!model.has_graph() || model.ir_version() <= 0)
    return makeError("'" + sourceName +
                     "': not an ONNX model (no graph or no ir_version)");
  return std::move(model);
}

/// Moves tensors stored beside the model (data_location = EXTERNAL) into
/// raw_data, which is what the rest of the frontend reads.
static llvm::Error loadExternalData(onnx::GraphProto &graph,
                                    llvm::StringRef baseDir,
                                    uint64_t maxTensorBytes) {
  for (onnx::TensorProto &tensor : *graph.mutable_initializer()) {
    if (tensor.data_location() != onnx::TensorProto::EXTERNAL)
      continue;
    std::string location;
    uint64_t offset = 0;
    int64_t length = -1;
    for (const auto &entry : tensor.external_data()) {
      if (entry.key() == "location")
        location = entry.value();
      else if (entry.key() == "offset")
        offset = std::strtoull(entry.value().c_str(), nullptr, 10);
      else if (entry.key() == "length")
        length = std::strtoll(entry.value().c_str(), nullptr, 10);
    }
    if (location.empty() || llvm::sys::path::is_absolute(location) ||
        llvm::StringRef(location).contains(".."))
      return makeError("initializer '" + tensor.name() +
                       "': external data location '" + location +
                       "' must be a relative path beside the model");
    llvm::SmallString<256> file(baseDir);
    llvm::sys::path::append(file, location);
    uint64_t fileSize = 0;
    if (llvm::sys::fs::file_size(file, fileSize) || offset > fileSize)
      return makeError("initializer '" + tensor.name() +
                       "': cannot read external data '" + file + "'");
    uint64_t size =
        length < 0 ? fileSize - offset : static_cast<uint64_t>(length);
    if (offset + size > fileSize)
      return makeError("initializer '" + tensor.name() + "': external data '" +
                       file + "' is shorter than offset + length");
    if (size > maxTensorBytes)
      return makeError(
          "initializer '" + tensor.name() + "': external data of " +
          std::to_string(size) + " bytes, over the limit of " +
          std::to_string(maxTensorBytes) + " (--max-tensor-bytes)");
    auto buffer = llvm::MemoryBuffer::getFileSlice(file, size, offset);
    if (!buffer)
      return makeError("initializer '" + tensor.name() + "': cannot read '" +
                       file + "': " + buffer.getError().message());
    tensor.set_raw_data((*buffer)->getBufferStart(),
                        (*buffer)->getBufferSize());
    tensor.clear_external_data();
    tensor.set_data_location(onnx::TensorProto::DEFAULT);
  }
  return llvm::Error::success();
}

llvm::Expected<onnx::ModelProto>
onnxfe::readModelFile(llvm::StringRef path, MappedTensors *mapped,
                      const ImportLimits &limits) {
  uint64_t fileSize = 0;
  if (!llvm::sys::fs::file_size(path, fileSize) &&
      fileSize > limits.maxModelBytes)
    return makeError("'" + path + "' is " + std::to_string(fileSize) +
                     " bytes, over the limit of " +
                     std::to_string(limits.maxModelBytes) +
                     " (--max-model-bytes)");
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  std::optional<std::string> slim;
  if (mapped)
    slim = cutLargeRawData((*buffer)->getBuffer(), *mapped);
  auto model =
      parseModel(slim ? llvm::StringRef(*slim) : (*buffer)->getBuffer(), path);
  if (!model)
    return model.takeError();
  if (slim)
    mapped->file = std::move(*buffer);
  else
    buffer->reset();
  llvm::SmallString<256> baseDir(path);
  llvm::sys::path::remove_filename(baseDir);
  if (auto err = loadExternalData(*model->mutable_graph(), baseDir,
                                  limits.maxTensorBytes))
    return std::move(err);
  return model;
}

llvm::Expected<onnx::ModelProto>
onnxfe::readModelFileToImport(llvm::StringRef path, MappedTensors *mapped,
                              const OnnxImportOptions &options) {
  auto model = readModelFile(path, mapped, options.limits);
  if (!model)
    return model.takeError();
  if (auto err = applyAtcModelEdits(*model, options.atcEdits))
    return std::move(err);
  return model;
}

// --- checks before conversion ------------------------------------------------

/// Op types the version converter rewrites into a supported op on the way up
/// (Upsample becomes Resize at opset 10, Scatter ScatterElements at 11).
static bool isRenamedByConverter(llvm::StringRef opType) {
  return opType == "Upsample" || opType == "Scatter";
}

static llvm::Error checkOpsSupported(const onnx::ModelProto &model,
                                     bool allowConverterRenames,
                                     const OnnxImportOptions &options) {
  for (int i = 0; i < model.graph().node_size(); ++i) {
    const onnx::NodeProto &node = model.graph().node(i);
    int64_t opset = getDomainOpset(model, node.domain());
    if (!isDefaultDomain(node.domain()))
      return makeError(describeNode(node, opset, i) +
                       ": unsupported op (domain '" + node.domain() +
                       "' is not ai.onnx)");
    if (lookupOpSpec(node.op_type()) ||
        (options.alsoAccept && options.alsoAccept(node.op_type())))
      continue;
    if (allowConverterRenames && isRenamedByConverter(node.op_type()))
      continue;
    return makeError(describeNode(node, opset, i) + ": unsupported op");
  }
  return llvm::Error::success();
}

/// libonnx's converter also indexes a node's inputs and outputs as its schema
/// promises (the broadcasting adapter reads a Mul's second input unchecked), so
/// their counts are checked against the schema at the model's opset first.
static llvm::Error checkArities(const onnx::ModelProto &model) {
  for (int i = 0; i < model.graph().node_size(); ++i) {
    const onnx::NodeProto &node = model.graph().node(i);
    int64_t opset = getDomainOpset(model, node.domain());
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(
        node.op_type(), static_cast<int>(opset), node.domain());
    if (!schema) // converter renames; an op unknown at its opset fails later
      continue;
    auto check = [&](int count, int lo, int hi,
                     const char *what) -> llvm::Error {
      if (count >= lo && count <= hi)
        return llvm::Error::success();
      std::string range = lo == hi ? std::to_string(lo)
                                   : std::to_string(lo) + " to " +
                                         (hi == std::numeric_limits<int>::max()
                                              ? std::string("any")
                                              : std::to_string(hi));
      return makeError(describeNode(node, opset, i) + ": has " +
                       std::to_string(count) + " " + what +
                       (count == 1 ? "" : "s") + ", " + node.op_type() +
                       " takes " + range);
    };
    if (auto err = check(node.input_size(), schema->min_input(),
                         schema->max_input(), "input"))
      return err;
    if (auto err = check(node.output_size(), schema->min_output(),
                         schema->max_output(), "output"))
      return err;
  }
  return llvm::Error::success();
}

/// libonnx's converter assumes a well-formed graph (it dereferences undefined
/// values), so the wiring is checked first: ONNX graphs are topologically
/// sorted and define every value once.
static llvm::Error checkGraphWiring(const onnx::ModelProto &model) {
  const onnx::GraphProto &graph = model.graph();
  llvm::StringSet<> defined;
  for (const auto &input : graph.input())
    defined.insert(input.name());
  // Before IR version 4 an initializer is only a value of the graph when it
  // is also a graph input; the converter's IR dereferences it otherwise.
  for (const auto &tensor : graph.initializer())
    if (!defined.contains(tensor.name()) && model.ir_version() < 4)
      return makeError("initializer '" + tensor.name() +
                       "' is not a graph input, as IR version " +
                       std::to_string(model.ir_version()) + " requires");
  for (const auto &tensor : graph.initializer())
    defined.insert(tensor.name());
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    std::string where =
        describeNode(node, getDomainOpset(model, node.domain()), i);
    for (const std::string &input : node.input())
      if (!input.empty() && !defined.contains(input))
        return makeError(where + ": input '" + input +
                         "' is not a graph input, an initializer or the output "
                         "of an earlier node");
    for (const std::string &output : node.output())
      if (!output.empty() && !defined.insert(output).second)
        return makeError(where + ": output '" + output +
                         "' is defined more than once");
  }
  for (const auto &output : graph.output())
    if (!defined.contains(output.name()))
      return makeError("graph output '" + output.name() +
                       "' is not produced by any node");
  return llvm::Error::success();
}

/// The ge dialect has tensors only; sequences, maps and optionals are refused
/// by name before libonnx meets them.
static llvm::Error checkTensorValues(const onnx::GraphProto &graph) {
  auto check = [](const onnx::ValueInfoProto &info,
                  llvm::StringRef what) -> llvm::Error {
    const onnx::TypeProto &type = info.type();
    if (type.has_tensor_type() ||
        type.value_case() == onnx::TypeProto::VALUE_NOT_SET)
      return llvm::Error::success();
    llvm::StringRef kind = type.has_sequence_type()   ? "a sequence"
                           : type.has_map_type()      ? "a map"
                           : type.has_optional_type() ? "an optional"
                                                      : "a sparse tensor";
    return makeError(what + " '" + info.name() + "' is " + kind +
                     "; only tensors are supported");
  };
  for (const auto &input : graph.input())
    if (auto err = check(input, "graph input"))
      return err;
  for (const auto &output : graph.output())
    if (auto err = check(output, "graph output"))
      return err;
  return llvm::Error::success();
}

/// Opset < 9 models list initializers among the graph inputs; they are
/// constants.
static void dropInitializerInputs(onnx::GraphProto &graph) {
  llvm::StringSet<> initializers;
  for (const auto &tensor : graph.initializer())
    initializers.insert(tensor.name());
  auto *inputs = graph.mutable_input();
  inputs->erase(std::remove_if(inputs->begin(), inputs->end(),
                               [&](const onnx::ValueInfoProto &input) {
                                 return initializers.contains(input.name());
                               }),
                inputs->end());
}

static std::string listInputNames(const onnx::GraphProto &graph) {
  std::string names;
  for (const auto &input : graph.input()) {
    if (!names.empty())
      names += ", ";
    names += input.name();
  }
  return names;
}

llvm::Error onnxfe::applyInputShapes(onnx::GraphProto &graph,
                                     const std::vector<InputShape> &shapes) {
  for (const InputShape &requested : shapes) {
    const std::string &name = requested.first;
    const std::vector<int64_t> &dims = requested.second;
    auto it =
        llvm::find_if(graph.input(), [&](const onnx::ValueInfoProto &input) {
          return input.name() == name;
        });
    if (it == graph.input().end())
      return makeError("--input-shape: the model has no input named '" + name +
                       "' (inputs: " + listInputNames(graph) + ")");
    onnx::ValueInfoProto &input =
        graph.mutable_input()->at(std::distance(graph.input().begin(), it));
    if (!input.type().has_tensor_type())
      return makeError("--input-shape: input '" + name + "' is not a tensor");
    auto *tensorType = input.mutable_type()->mutable_tensor_type();
    // The driver fills the -1s per gear; one left here has no value.
    for (size_t i = 0; i < dims.size(); ++i)
      if (dims[i] == -1)
        return makeError("--input-shape: input '" + name + "' dim " +
                         std::to_string(i) +
                         " is -1; give its values with --dynamic-batch-size, "
                         "--dynamic-image-size or --dynamic-dims");
    if (tensorType->has_shape()) {
      const auto &declared = tensorType->shape();
      if (declared.dim_size() != static_cast<int>(dims.size()))
        return makeError("--input-shape: input '" + name + "' has rank " +
                         std::to_string(declared.dim_size()) + ", but " +
                         std::to_string(dims.size()) + " dims were given");
      for (int i = 0; i < declared.dim_size(); ++i)
        if (declared.dim(i).has_dim_value() &&
            declared.dim(i).dim_value() != dims[i])
          return makeError("--input-shape: input '" + name + "' dim " +
                           std::to_string(i) + " is fixed to " +
                           std::to_string(declared.dim(i).dim_value()) +
                           " by the model, not " + std::to_string(dims[i]));
    }
    auto *shape = tensorType->mutable_shape();
    shape->clear_dim();
    for (int64_t dim : dims)
      shape->add_dim()->set_dim_value(dim);
  }
  return llvm::Error::success();
}

/// Recorded value_info and output shapes are hints that may still hold symbolic
/// or stale dims (exporters write them before --input-shape changed anything);
/// shape inference recomputes all of them.
void onnxfe::dropShapeHints(onnx::GraphProto &graph) {
  graph.clear_value_info();
  for (auto &output : *graph.mutable_output())
    if (output.type().has_tensor_type())
      output.mutable_type()->mutable_tensor_type()->clear_shape();
}

// --- version conversion
// --------------------------------------------------------

static void fixLegacyPRelu(onnx::ModelProto &model);

static std::string describeConversion(int64_t from, int64_t to) {
  return "converting the model from opset " + std::to_string(from) + " to " +
         std::to_string(to);
}

/// libonnx's version converter, run contained (ContainedLibOnnx.h).
static llvm::Error convertWithLibOnnx(onnx::ModelProto &model, int64_t target) {
  // Some adapters (Softmax 12->13, broadcasting Add 6->7) need shapes; infer
  // them leniently at the model's own opset first. Failures here surface
  // later, in the strict inference at the target opset.
  try {
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(),
        onnx::ShapeInferenceOptions(false, 0, false));
  } catch (const std::exception &) {
  }
  fixLegacyPRelu(model);
  int64_t opset = getDefaultOpset(model);
  DetachedWeights weights;
  weights.detach(*model.mutable_graph());
  // Large graphs go to the converter in pieces (PiecewiseConversion.h).
  llvm::Error converted = convertPiecewise(
      model, target, [&](onnx::ModelProto &piece) -> llvm::Error {
        std::string failure;
        try {
          onnx::ModelProto result = LibOnnxConverter::get().convert_version(
              piece, onnx::OpSetID(getDefaultOpset(piece)),
              onnx::OpSetID(target));
          piece.Swap(&result);
        } catch (const std::exception &e) {
          failure = e.what();
        } catch (...) {
          failure = "unknown exception";
        }
        if (!failure.empty())
          return makeError(describeConversion(opset, target) +
                           " failed: " + failure);
        return llvm::Error::success();
      });
  weights.reattach(*model.mutable_graph());
  return converted;
}

static llvm::Error convertOpset(onnx::ModelProto &model, int64_t target) {
  int64_t opset = getDefaultOpset(model);
  if (opset == target)
    return llvm::Error::success();
  // Nothing for an adapter to change: the opset number is the conversion
  // (after the legacy PRelu slope the converter's path also fixes).
  if (!LibOnnxConverter::get().adaptsAny(model, opset, target)) {
    fixLegacyPRelu(model);
    setDefaultOpset(model, target);
    return llvm::Error::success();
  }
  return runContained(model, describeConversion(opset, target),
                      convertWithLibOnnx, target);
}

/// Before opset 7, PRelu broadcast a 1-D slope along the channel axis (axis 1);
/// from opset 7 on it broadcasts numpy-style, from the right. The converter
/// keeps the node as it is, so a per-channel slope initializer gets its
/// trailing 1s here.
static void fixLegacyPRelu(onnx::ModelProto &model) {
  if (getDefaultOpset(model) >= 7)
    return;
  onnx::GraphProto &graph = *model.mutable_graph();
  const DeclaredRanks ranks(graph);
  for (const onnx::NodeProto &node : graph.node()) {
    if (node.op_type() != "PRelu" || node.input_size() < 2)
      continue;
    int rank = ranks.lookup(node.input(0)).value_or(-1);
    if (rank < 3)
      continue;
    for (onnx::TensorProto &slope : *graph.mutable_initializer()) {
      if (slope.name() != node.input(1) || slope.dims_size() != 1 ||
          slope.dims(0) == 1)
        continue;
      for (int64_t i = 2; i < rank; ++i)
        slope.add_dims(1);
      // An opset < 9 model may also list the initializer as an input.
      for (auto &input : *graph.mutable_input())
        if (input.name() == slope.name() && input.type().has_tensor_type()) {
          auto *shape =
              input.mutable_type()->mutable_tensor_type()->mutable_shape();
          for (int64_t i = 2; i < rank; ++i)
            shape->add_dim()->set_dim_value(1);
        }
    }
  }
}

/// libonnx 1.12's STFT shape inference reads an absent `onesided` as 0 where
/// the schema's default is 1, and would type the result with every DFT bin;
/// spelled out, inference and the import agree.
static void spellOutStftOnesided(onnx::GraphProto &graph) {
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    if (node.op_type() != "STFT" || !isDefaultDomain(node.domain()) ||
        llvm::any_of(node.attribute(), [](const onnx::AttributeProto &attr) {
          return attr.name() == "onesided";
        }))
      continue;
    onnx::AttributeProto &onesided = *node.add_attribute();
    onesided.set_name("onesided");
    onesided.set_type(onnx::AttributeProto::INT);
    onesided.set_i(1);
  }
}

/// libonnx's strict shape inference, run contained (ContainedLibOnnx.h).
static llvm::Error inferWithLibOnnx(onnx::ModelProto &model, int64_t) {
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/true, /*error_mode=*/1,
                                        /*enable_data_propagation=*/true);
    // Again while Einsum outputs gain their dims (EinsumShapes.h): each
    // round reaches one more Einsum of a chain.
    do
      onnx::shape_inference::InferShapes(
          model, onnx::OpSchemaRegistry::Instance(), options);
    while (completeEinsumShapes(*model.mutable_graph()));
  } catch (const std::exception &e) {
    return makeError(describeInferenceFailure(e.what()));
  } catch (...) {
    return makeError("shape inference failed: unknown exception");
  }
  return llvm::Error::success();
}

llvm::Error onnxfe::inferShapes(onnx::ModelProto &model,
                                llvm::function_ref<void()> whileInferring) {
  if (auto err = runContained(model, "shape inference", inferWithLibOnnx,
                              /*argument=*/0, ContainedChanges::kShapes,
                              whileInferring))
    return err;
  // Dims that are a constant operand's value (ShapeCompletion.h); inferring
  // again carries them to the readers.
  if (!completeShapesFromConstants(*model.mutable_graph()))
    return llvm::Error::success();
  return runContained(model, "shape inference", inferWithLibOnnx,
                      /*argument=*/0, ContainedChanges::kShapes);
}

llvm::Error onnxfe::prepareModel(onnx::ModelProto &model,
                                 const OnnxImportOptions &options,
                                 llvm::StringRef sourceName,
                                 llvm::function_ref<void()> whileInferring) {
  mlir::TimingScope checks(options.timing ? options.timing->nest("checks")
                                          : mlir::Timer());
  if (auto err =
          checkOpsSupported(model, /*allowConverterRenames=*/true, options))
    return err;
  if (getDefaultOpset(model) < 1)
    return makeError("the model imports no ai.onnx opset");
  if (auto err = checkDeclaredModel(model, options.limits, sourceName))
    return err;
  if (auto err = checkGraphWiring(model))
    return err;
  if (auto err = checkArities(model))
    return err;
  if (auto err = checkTensorValues(model.graph()))
    return err;
  if (auto err = applyInputShapes(*model.mutable_graph(), options.inputShapes))
    return err;
  dropShapeHints(*model.mutable_graph());
  checks.stop();
  // The converter's IR defines initializers of IR-version < 4 models only
  // through the graph inputs, so they leave the input list after conversion.
  mlir::TimingScope conversion(options.timing
                                   ? options.timing->nest("version conversion")
                                   : mlir::Timer());
  if (auto err = convertOpset(model, options.targetOpset))
    return err;
  conversion.stop();
  dropInitializerInputs(*model.mutable_graph());
  dropShapeHints(*model.mutable_graph());
  // Opset 17 is IR version 8; shape inference reads the types of initializers
  // that are not graph inputs only from IR version 4 on.
  if (model.ir_version() < 8)
    model.set_ir_version(8);
  if (auto err =
          checkOpsSupported(model, /*allowConverterRenames=*/false, options))
    return err;
  spellOutStftOnesided(*model.mutable_graph());
  mlir::TimingScope inference(
      options.timing ? options.timing->nest("shape inference") : mlir::Timer());
  if (auto err = inferShapes(model, whileInferring))
    return err;
  return checkInferredSizes(model.graph(), options.limits);
}
