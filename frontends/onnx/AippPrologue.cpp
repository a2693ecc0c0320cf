//===- AippPrologue.cpp - ATC's static AIPP as ONNX nodes -----------------===//
//
// The nodes run before version conversion, so they must mean the same at the
// model's own opset: Slice, Clip and Reshape with their operands as inputs
// (opset 11 on). NV12's half-resolution chroma is brought to full resolution
// by repeating each sample 2x2 (Reshape, Expand, Reshape), as the hardware's
// YUV420SP to YUV444 upsampling does.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/AippPrologue.h"
#include "frontends/onnx/AippConfig.pb.h"
#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/Opsets.h"
#include "frontends/onnx/TypeConversion.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <array>

using namespace geflow;
using namespace geflow::onnxfe;
using geflow::aipp::AippOp;

namespace {

using Matrix = std::array<std::array<int64_t, 3>, 3>;

// ATC's defaults (GE's AippOp::SetCscDefaultValue): BT.601 narrow range,
// YUV to BGR and RGB to YUV.
constexpr Matrix kYuvToBgr = {
    {{298, 516, 0}, {298, -100, -208}, {298, 0, 409}}};
constexpr Matrix kRgbToYuv = {
    {{66, 129, 25}, {-38, -74, 112}, {112, -94, -18}}};
constexpr std::array<int64_t, 3> kCscBias = {16, 128, 128};

/// TextFormat's first complaint, placed in the file.
class FirstParseError : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (text.empty())
      text = "line " + std::to_string(line + 1) + " column " +
             std::to_string(column + 1) + ": " + message;
  }
  std::string text;
};

llvm::Expected<aipp::InsertOpConfig> readConfig(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return makeError("--insert_op_conf: cannot read '" + path +
                     "': " + buffer.getError().message());
  aipp::InsertOpConfig config;
  google::protobuf::TextFormat::Parser parser;
  FirstParseError error;
  parser.RecordErrorsTo(&error);
  if (!parser.ParseFromString(std::string((*buffer)->getBuffer()), &config))
    return makeError("--insert_op_conf '" + path + "': " + error.text);
  if (config.multi_shape_op_size() > 0)
    return makeError("--insert_op_conf '" + path +
                     "': multi_shape_op is not implemented by geflow "
                     "(--dynamic_batch_size makes batch gears)");
  return config;
}

/// The one value of a repeated field, or `fallback` when it has none.
template <class Field, class T> T first(const Field &field, T fallback) {
  return field.empty() ? fallback : field.Get(0);
}

/// The first field geflow does not implement that `op` sets, or "".
std::string unimplementedField(const AippOp &op) {
  const std::pair<const char *, bool> fields[] = {
      {"input_edge_idx", op.input_edge_idx_size() > 0},
      {"max_src_image_size", op.max_src_image_size() != 0},
      {"support_rotation", op.support_rotation()},
      {"ax_swap_switch", op.ax_swap_switch()},
      {"single_line_mode", op.single_line_mode()},
      {"cpadding_value", op.cpadding_value() != 0},
      {"resize", op.resize()},
      {"padding", op.padding()},
      {"mean_chn_3", op.mean_chn_3() != 0},
      {"min_chn_3", op.min_chn_3() != 0},
      {"var_reci_chn_3", op.var_reci_chn_3_size() > 0},
      {"raw_rgbir_to_f16_n", op.raw_rgbir_to_f16_n() != 0},
  };
  for (const auto &[name, set] : fields)
    if (set)
      return name;
  return "";
}

/// The model input an aipp_op names (related_input_name, else
/// related_input_rank), initializers left out.
llvm::Expected<onnx::ValueInfoProto *> targetInput(onnx::GraphProto &graph,
                                                   const AippOp &op) {
  llvm::StringSet<> initializers;
  for (const auto &tensor : graph.initializer())
    initializers.insert(tensor.name());
  std::vector<onnx::ValueInfoProto *> inputs;
  for (onnx::ValueInfoProto &input : *graph.mutable_input())
    if (!initializers.contains(input.name()))
      inputs.push_back(&input);
  if (!op.related_input_name().empty()) {
    for (onnx::ValueInfoProto *input : inputs)
      if (input->name() == op.related_input_name())
        return input;
    return makeError("related_input_name '" + op.related_input_name() +
                     "': the model has no such input");
  }
  if (op.related_input_rank() >= inputs.size())
    return makeError(
        "related_input_rank " + std::to_string(op.related_input_rank()) +
        ": the model has " + std::to_string(inputs.size()) + " input(s)");
  return inputs[op.related_input_rank()];
}

/// One aipp_op's prologue, from the checked config and the model input.
class Prologue {
public:
  Prologue(onnx::GraphProto &graph, ValueNames &names, const AippOp &op,
           onnx::ValueInfoProto &input)
      : graph_(graph), names_(names), op_(op), input_(input),
        prefix_(input.name() + "/aipp") {}

  /// Checks the sizes against the input; then build() cannot fail.
  llvm::Error check();
  void build();

private:
  bool yuv() const { return op_.input_format() == AippOp::YUV420SP_U8; }
  std::string ints(llvm::StringRef what, llvm::ArrayRef<int64_t> values) {
    return addConstant<int64_t>(graph_, names_, prefix_ + "/" + what,
                                {int64_t(values.size())}, values);
  }
  std::string floats(llvm::StringRef what, llvm::ArrayRef<int64_t> dims,
                     llvm::ArrayRef<float> values) {
    return addConstant<float>(graph_, names_, prefix_ + "/" + what, dims,
                              values);
  }
  std::string step(llvm::StringRef type, llvm::StringRef what,
                   llvm::ArrayRef<std::string> inputs) {
    return appendStep(graph_, names_, type, prefix_ + "/" + what, inputs);
  }
  onnx::NodeProto &lastNode() {
    return *graph_.mutable_node(graph_.node_size() - 1);
  }
  std::string planes(const std::string &image);
  std::string colorSpace(const std::string &x);
  std::string normalized(const std::string &x);

  onnx::GraphProto &graph_;
  ValueNames &names_;
  const AippOp &op_;
  onnx::ValueInfoProto &input_;
  std::string prefix_;
  int32_t modelType_ = 0;
  int64_t height_ = 0, width_ = 0;       // the model's H and W
  int64_t srcHeight_ = 0, srcWidth_ = 0; // the image's
  int64_t top_ = 0, left_ = 0;           // the crop's corner
};

llvm::Error Prologue::check() {
  const std::string &name = input_.name();
  modelType_ = input_.type().tensor_type().elem_type();
  if (modelType_ != onnx::TensorProto::FLOAT &&
      modelType_ != onnx::TensorProto::FLOAT16 &&
      modelType_ != onnx::TensorProto::DOUBLE)
    return makeError("input '" + name + "' is " + dataTypeName(modelType_) +
                     ": AIPP feeds a float input");
  const auto &shape = input_.type().tensor_type().shape();
  bool nchw = shape.dim_size() == 4 && shape.dim(1).dim_value() == 3 &&
              shape.dim(2).dim_value() > 0 && shape.dim(3).dim_value() > 0;
  if (!nchw)
    return makeError("input '" + name +
                     "' must be NCHW with 3 channels and a static H and W "
                     "for AIPP (give them with --input_shape)");
  height_ = shape.dim(2).dim_value();
  width_ = shape.dim(3).dim_value();
  srcHeight_ = op_.src_image_size_h() ? op_.src_image_size_h() : height_;
  srcWidth_ = op_.src_image_size_w() ? op_.src_image_size_w() : width_;
  int64_t cropHeight = height_, cropWidth = width_;
  if (op_.crop()) {
    top_ = op_.load_start_pos_h();
    left_ = op_.load_start_pos_w();
    cropHeight = op_.crop_size_h() ? op_.crop_size_h() : height_;
    cropWidth = op_.crop_size_w() ? op_.crop_size_w() : width_;
  }
  auto size = [](int64_t h, int64_t w) {
    return std::to_string(h) + "x" + std::to_string(w);
  };
  // Without resize, what reaches the model is its own H x W.
  if (!op_.crop() && (srcHeight_ != height_ || srcWidth_ != width_))
    return makeError("src_image_size_h/w " + size(srcHeight_, srcWidth_) +
                     " differs from the " + size(height_, width_) +
                     " of input '" + name +
                     "': crop it (crop, load_start_pos_h/w); resize is not "
                     "implemented by geflow");
  if (cropHeight != height_ || cropWidth != width_)
    return makeError("crop_size_h/w " + size(cropHeight, cropWidth) +
                     " differs from the " + size(height_, width_) +
                     " of input '" + name +
                     "' (resize is not implemented by geflow)");
  if (top_ < 0 || left_ < 0 || top_ + cropHeight > srcHeight_ ||
      left_ + cropWidth > srcWidth_)
    return makeError("the crop " + size(cropHeight, cropWidth) + " at (" +
                     std::to_string(top_) + ", " + std::to_string(left_) +
                     ") leaves the " + size(srcHeight_, srcWidth_) + " image");
  if (yuv() && (srcHeight_ % 2 || srcWidth_ % 2 || top_ % 2 || left_ % 2))
    return makeError("YUV420SP_U8 needs an even image size and crop corner");
  return llvm::Error::success();
}

/// The image as float NHWC channels: RGB, or YUV444 from NV12's planes.
std::string Prologue::planes(const std::string &image) {
  std::string x = image;
  if (yuv()) {
    std::string rows = ints("rows", {1});
    std::string y =
        step("Slice", "y",
             {image, ints("y_begin", {0}), ints("y_end", {srcHeight_}), rows});
    std::string uv = step("Slice", "uv",
                          {image, ints("uv_begin", {srcHeight_}),
                           ints("uv_end", {srcHeight_ * 3 / 2}), rows});
    uv = step("Reshape", "uv_pairs",
              {uv, ints("uv_pairs_shape",
                        {-1, srcHeight_ / 2, 1, srcWidth_ / 2, 1, 2})});
    uv = step("Expand", "uv_2x2",
              {uv, ints("uv_2x2_shape", {1, 1, 2, 1, 2, 1})});
    uv = step("Reshape", "uv444",
              {uv, ints("uv444_shape", {-1, srcHeight_, srcWidth_, 2})});
    x = step("Concat", "yuv444", {y, uv});
    setAttribute(lastNode(), "axis", int64_t(3));
  }
  x = step("Cast", "float", {x});
  setAttribute(lastNode(), "to", int64_t(onnx::TensorProto::FLOAT));
  if (op_.rbuv_swap_switch()) {
    // R and B, or U and V.
    x = step("Gather", "swap",
             {x, ints("swap_order", yuv() ? llvm::ArrayRef<int64_t>{0, 2, 1}
                                          : llvm::ArrayRef<int64_t>{2, 1, 0})});
    setAttribute(lastNode(), "axis", int64_t(3));
  }
  if (op_.crop())
    x = step("Slice", "crop",
             {x, ints("crop_begin", {top_, left_}),
              ints("crop_end", {top_ + height_, left_ + width_}),
              ints("crop_axes", {1, 2})});
  return x;
}

/// csc_switch: a 3x3 integer matrix, >> 8, clamped to 0..255.
std::string Prologue::colorSpace(const std::string &x) {
  const Matrix &defaults = yuv() ? kYuvToBgr : kRgbToYuv;
  const google::protobuf::RepeatedField<int32_t> *rows[3][3] = {
      {&op_.matrix_r0c0(), &op_.matrix_r0c1(), &op_.matrix_r0c2()},
      {&op_.matrix_r1c0(), &op_.matrix_r1c1(), &op_.matrix_r1c2()},
      {&op_.matrix_r2c0(), &op_.matrix_r2c1(), &op_.matrix_r2c2()}};
  // x [.., 3] times M^T: out[c] = sum_k M[c][k] x[k].
  std::vector<float> transposed(9);
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k)
      transposed[k * 3 + c] =
          float(first(*rows[c][k], int32_t(defaults[c][k])));
  std::string in = x;
  if (yuv())
    in = step("Sub", "csc_in",
              {x, floats("input_bias", {3},
                         {float(first(op_.input_bias_0(), kCscBias[0])),
                          float(first(op_.input_bias_1(), kCscBias[1])),
                          float(first(op_.input_bias_2(), kCscBias[2]))})});
  std::string out =
      step("MatMul", "csc", {in, floats("matrix", {3, 3}, transposed)});
  out = step("Div", "csc_scaled", {out, floats("csc_shift", {}, {256.0f})});
  out = step("Floor", "csc_shifted", {out});
  if (!yuv())
    out = step("Add", "csc_out",
               {out, floats("output_bias", {3},
                            {float(first(op_.output_bias_0(), kCscBias[0])),
                             float(first(op_.output_bias_1(), kCscBias[1])),
                             float(first(op_.output_bias_2(), kCscBias[2]))})});
  return step(
      "Clip", "csc_clamped",
      {out, floats("u8_min", {}, {0.0f}), floats("u8_max", {}, {255.0f})});
}

/// DTC: (x - mean - min) * var_reci per channel; nothing when it is x.
std::string Prologue::normalized(const std::string &x) {
  std::vector<float> offset = {op_.mean_chn_0() + op_.min_chn_0(),
                               op_.mean_chn_1() + op_.min_chn_1(),
                               op_.mean_chn_2() + op_.min_chn_2()};
  std::vector<float> scale = {first(op_.var_reci_chn_0(), 1.0f),
                              first(op_.var_reci_chn_1(), 1.0f),
                              first(op_.var_reci_chn_2(), 1.0f)};
  std::string out = x;
  if (llvm::any_of(offset, [](float v) { return v != 0; }))
    out = step("Sub", "dtc_offset", {out, floats("dtc_mean", {3}, offset)});
  if (llvm::any_of(scale, [](float v) { return v != 1; }))
    out = step("Mul", "dtc_scaled", {out, floats("dtc_scale", {3}, scale)});
  return out;
}

void Prologue::build() {
  const std::string image = input_.name();
  // What the model's nodes read from now on.
  std::string features = names_.fresh(prefix_);
  renameUses(graph_, image, features);
  int before = graph_.node_size();
  std::string x = planes(image);
  if (op_.csc_switch())
    x = colorSpace(x);
  x = normalized(x);
  // NHWC to NCHW, in the input's own float type.
  bool isFloat = modelType_ == onnx::TensorProto::FLOAT;
  std::string nchw = isFloat ? features : names_.fresh(prefix_ + "/nchw");
  setAttribute(appendNode(graph_, "Transpose", nchw, {x}, nchw), "perm",
               llvm::ArrayRef<int64_t>{0, 3, 1, 2});
  if (!isFloat)
    setAttribute(appendNode(graph_, "Cast", features, {nchw}, features), "to",
                 int64_t(modelType_));
  moveLastNodesToFront(graph_, graph_.node_size() - before);

  // The input is the image now: uint8 NHWC, its batch dim kept.
  auto &tensor = *input_.mutable_type()->mutable_tensor_type();
  onnx::TensorShapeProto_Dimension batch = tensor.shape().dim(0);
  tensor.set_elem_type(onnx::TensorProto::UINT8);
  tensor.clear_shape();
  *tensor.mutable_shape()->add_dim() = batch;
  for (int64_t dim : {yuv() ? srcHeight_ * 3 / 2 : srcHeight_, srcWidth_,
                      int64_t(yuv() ? 1 : 3)})
    tensor.mutable_shape()->add_dim()->set_dim_value(dim);
}

/// Checks one aipp_op against what geflow implements and puts its prologue
/// before its input; returns the input's name.
llvm::Expected<std::string> insertOne(onnx::GraphProto &graph,
                                      ValueNames &names, const AippOp &op) {
  if (op.aipp_mode() != AippOp::static_)
    return makeError(op.aipp_mode() == AippOp::dynamic
                         ? "aipp_mode dynamic (dynamic AIPP) is not "
                           "implemented by geflow"
                         : "aipp_mode must be static");
  if (op.input_format() != AippOp::YUV420SP_U8 &&
      op.input_format() != AippOp::RGB888_U8)
    return makeError("input_format " +
                     AippOp::InputFormat_Name(op.input_format()) +
                     " is not implemented by geflow (YUV420SP_U8 or "
                     "RGB888_U8)");
  if (std::string field = unimplementedField(op); !field.empty())
    return makeError(field + " is not implemented by geflow");
  auto input = targetInput(graph, op);
  if (!input)
    return input.takeError();
  Prologue prologue(graph, names, op, **input);
  if (llvm::Error error = prologue.check())
    return std::move(error);
  prologue.build();
  return (*input)->name();
}

} // namespace

llvm::Expected<std::vector<std::string>>
onnxfe::insertAippPrologues(onnx::ModelProto &model, llvm::StringRef configPath,
                            ValueNames &names) {
  auto config = readConfig(configPath);
  if (!config)
    return config.takeError();
  int64_t opset = getDefaultOpset(model);
  if (opset < 11)
    return makeError("--insert_op_conf: AIPP needs a model of opset 11 or "
                     "newer (this one imports opset " +
                     std::to_string(opset) + ")");
  std::vector<std::string> inputs;
  for (int i = 0; i < config->aipp_op_size(); ++i) {
    auto input = insertOne(*model.mutable_graph(), names, config->aipp_op(i));
    if (!input)
      return makeError("--insert_op_conf '" + configPath + "' aipp_op " +
                       std::to_string(i) + ": " +
                       llvm::toString(input.takeError()));
    if (llvm::is_contained(inputs, *input))
      return makeError("--insert_op_conf '" + configPath + "' aipp_op " +
                       std::to_string(i) + ": input '" + *input +
                       "' has an AIPP already");
    inputs.push_back(*input);
  }
  if (inputs.empty())
    return makeError("--insert_op_conf '" + configPath + "' has no aipp_op");
  return inputs;
}
