//===- MakeBadOnnx.cpp - crafted bad ONNX models and tensor files ---------===//
//
// The ONNX half of geflow-make-bad-inputs: a small good model and, beside it,
// one model per kind of damage the importer must turn into a one-line error.
// Each file is named after the case of run_badinput.py that reads it.
//
//===----------------------------------------------------------------------===//

#include "tests/badinput/BadInputs.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include <cstring>
#include <functional>
#include <limits>

using geflow::test::Dim;
using geflow::test::OnnxModelBuilder;
using geflow::test::setInts;

namespace geflow::badinput {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

/// x[1,4] -> Relu -> Add(bias) -> MatMul(w) -> y[1,2]: three nodes, two
/// initializers, every path the damaged variants below break.
OnnxModelBuilder goodModel() {
  OnnxModelBuilder b;
  b.input("x", {int64_t(1), int64_t(4)});
  b.floatInit("bias", {1, 4}, {0.5f, -0.5f, 0.25f, -0.25f});
  b.floatInit("w", {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  b.node("Relu", {"x"}, {"r"}, "relu");
  b.node("Add", {"r", "bias"}, {"s"}, "add");
  b.node("MatMul", {"s", "w"}, {"y"}, "matmul");
  b.output("y");
  return b;
}

onnx::TensorProto &initializer(OnnxModelBuilder &b, const std::string &name) {
  for (onnx::TensorProto &t : *b.graph().mutable_initializer())
    if (t.name() == name)
      return t;
  fail("no initializer " + name);
}

onnx::NodeProto &node(OnnxModelBuilder &b, const std::string &name) {
  for (onnx::NodeProto &n : *b.graph().mutable_node())
    if (n.name() == name)
      return n;
  fail("no node " + name);
}

void setDims(onnx::TensorProto &t, const std::vector<int64_t> &dims) {
  t.clear_dims();
  for (int64_t d : dims)
    t.add_dims(d);
}

void setInputDims(OnnxModelBuilder &b, const std::vector<Dim> &dims) {
  OnnxModelBuilder::setType(*b.graph().mutable_input(0), "x", dims,
                            onnx::TensorProto::FLOAT);
}

/// Input 'x' with `dims` instead of its own.
void reshapeInput(OnnxModelBuilder &b, const std::vector<Dim> &dims) {
  b.graph()
      .mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->clear_shape();
  setInputDims(b, dims);
}

/// Initializer 'w' with its data "beside the model", as `entries` say.
void moveWeightsOut(
    OnnxModelBuilder &b,
    const std::vector<std::pair<std::string, std::string>> &entries) {
  onnx::TensorProto &w = initializer(b, "w");
  w.clear_raw_data();
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  for (const auto &[key, value] : entries) {
    auto *entry = w.add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  }
}

/// One crafted model: the good one with `damage` applied.
struct OnnxCase {
  const char *file;
  std::function<void(OnnxModelBuilder &)> damage;
};

const std::vector<OnnxCase> &onnxCases() {
  static const std::vector<OnnxCase> cases = {
      {"good", [](OnnxModelBuilder &) {}},
      // Good models with open dims, for the gear options (--dynamic-*).
      {"dynamic_batch",
       [](OnnxModelBuilder &b) { reshapeInput(b, {std::string("N"), 4}); }},
      {"dynamic_dims",
       [](OnnxModelBuilder &b) {
         reshapeInput(b, {std::string("N"), std::string("F")});
       }},
      {"no_graph", [](OnnxModelBuilder &b) { b.model.clear_graph(); }},
      {"ir_version_0", [](OnnxModelBuilder &b) { b.model.set_ir_version(0); }},
      {"no_default_opset",
       [](OnnxModelBuilder &b) { b.model.clear_opset_import(); }},
      {"opset_1",
       [](OnnxModelBuilder &b) {
         b.model.mutable_opset_import(0)->set_version(1);
       }},
      {"opset_999",
       [](OnnxModelBuilder &b) {
         b.model.mutable_opset_import(0)->set_version(999);
       }},
      {"unsupported_op",
       [](OnnxModelBuilder &b) { node(b, "relu").set_op_type("Multinomial"); }},
      {"unknown_op",
       [](OnnxModelBuilder &b) { node(b, "relu").set_op_type("NoSuchOp"); }},
      {"empty_op_type",
       [](OnnxModelBuilder &b) { node(b, "relu").set_op_type(""); }},
      {"foreign_domain",
       [](OnnxModelBuilder &b) {
         node(b, "relu").set_domain("com.microsoft");
       }},
      {"dangling_input",
       [](OnnxModelBuilder &b) { node(b, "add").set_input(0, "nowhere"); }},
      {"dangling_output",
       [](OnnxModelBuilder &b) {
         b.graph().mutable_output(0)->set_name("ghost");
       }},
      {"cycle",
       [](OnnxModelBuilder &b) {
         // relu reads add's output, add reads relu's: no topological order.
         node(b, "relu").set_input(0, "s");
       }},
      {"self_loop",
       [](OnnxModelBuilder &b) { node(b, "relu").set_input(0, "r"); }},
      {"duplicate_node_output",
       [](OnnxModelBuilder &b) { node(b, "add").set_output(0, "r"); }},
      {"duplicate_graph_output", [](OnnxModelBuilder &b) { b.output("y"); }},
      {"output_shadows_input",
       [](OnnxModelBuilder &b) { node(b, "relu").set_output(0, "x"); }},
      {"no_outputs", [](OnnxModelBuilder &b) { b.graph().clear_output(); }},
      {"no_nodes",
       [](OnnxModelBuilder &b) {
         b.graph().clear_node();
         b.graph().clear_output();
       }},
      {"missing_operand",
       [](OnnxModelBuilder &b) {
         node(b, "add").mutable_input()->RemoveLast();
       }},
      {"extra_operand",
       [](OnnxModelBuilder &b) { node(b, "relu").add_input("bias"); }},
      {"wrong_attr_type",
       [](OnnxModelBuilder &b) {
         auto *a = node(b, "matmul").add_attribute();
         a->set_name("transA");
         a->set_type(onnx::AttributeProto::STRING);
         a->set_s("yes");
         node(b, "matmul").set_op_type("Gemm");
       }},
      {"bad_conv_attrs",
       [](OnnxModelBuilder &b) {
         setInputDims(b, {int64_t(1), int64_t(1), int64_t(4), int64_t(4)});
         onnx::NodeProto &conv = node(b, "relu");
         conv.set_op_type("Conv");
         conv.add_input("w");
         setInts(conv, "kernel_shape", {9, 9, 9});
       }},
      {"negative_input_dim",
       [](OnnxModelBuilder &b) { setInputDims(b, {int64_t(1), int64_t(-4)}); }},
      {"huge_input_dims",
       [](OnnxModelBuilder &b) {
         setInputDims(b, {int64_t(1) << 40, int64_t(1) << 40});
       }},
      {"overflow_input_dims",
       [](OnnxModelBuilder &b) { setInputDims(b, {kInt64Max, int64_t(4)}); }},
      {"symbolic_input_dim",
       [](OnnxModelBuilder &b) {
         setInputDims(b, {std::string("batch"), int64_t(4)});
       }},
      {"string_input",
       [](OnnxModelBuilder &b) {
         OnnxModelBuilder::setType(*b.graph().mutable_input(0), "x",
                                   {int64_t(1), int64_t(4)},
                                   onnx::TensorProto::STRING);
       }},
      {"complex_input",
       [](OnnxModelBuilder &b) {
         OnnxModelBuilder::setType(*b.graph().mutable_input(0), "x",
                                   {int64_t(1), int64_t(4)},
                                   onnx::TensorProto::COMPLEX64);
       }},
      {"raw_data_short",
       [](OnnxModelBuilder &b) { initializer(b, "w").set_raw_data("abcd"); }},
      {"raw_data_long",
       [](OnnxModelBuilder &b) {
         initializer(b, "w").set_raw_data(std::string(4096, '\1'));
       }},
      {"initializer_huge_dims",
       [](OnnxModelBuilder &b) {
         setDims(initializer(b, "w"), {4, int64_t(1) << 50});
       }},
      {"initializer_overflow_dims",
       [](OnnxModelBuilder &b) {
         setDims(initializer(b, "w"), {int64_t(1) << 32, int64_t(1) << 32});
       }},
      {"initializer_negative_dim",
       [](OnnxModelBuilder &b) { setDims(initializer(b, "w"), {4, -2}); }},
      {"initializer_float_data_count",
       [](OnnxModelBuilder &b) {
         onnx::TensorProto &w = initializer(b, "w");
         w.clear_raw_data();
         w.add_float_data(1.0f);
       }},
      {"initializer_undefined_type",
       [](OnnxModelBuilder &b) {
         initializer(b, "w").set_data_type(onnx::TensorProto::UNDEFINED);
       }},
      {"initializer_bad_type_code",
       [](OnnxModelBuilder &b) { initializer(b, "w").set_data_type(1234); }},
      {"external_data_missing",
       [](OnnxModelBuilder &b) {
         moveWeightsOut(b, {{"location", "weights_that_do_not_exist.bin"}});
       }},
      {"external_data_escapes",
       [](OnnxModelBuilder &b) {
         moveWeightsOut(b, {{"location", "/etc/passwd"}});
       }},
      {"external_data_huge_length",
       [](OnnxModelBuilder &b) {
         moveWeightsOut(b, {{"location", "good.onnx"},
                            {"length", "18446744073709551615"}});
       }},
      {"constant_of_shape_huge",
       [](OnnxModelBuilder &b) {
         // A 2^42-element constant that shape inference can see but nobody
         // may allocate.
         b.int64Init("huge_shape", {2}, {int64_t(1) << 21, int64_t(1) << 21});
         b.node("ConstantOfShape", {"huge_shape"}, {"zeros"}, "zeros");
         b.node("Add", {"zeros", "zeros"}, {"z2"}, "grow");
         b.output("z2");
       }},
      {"reshape_wrong_count",
       [](OnnxModelBuilder &b) {
         b.int64Init("bad_shape", {2}, {3, 3});
         node(b, "relu").set_op_type("Reshape");
         node(b, "relu").add_input("bad_shape");
       }},
      {"constant_without_value",
       [](OnnxModelBuilder &b) {
         b.node("Constant", {}, {"c"}, "const");
         // First, so that 'add' reads it after its definition.
         auto *nodes = b.graph().mutable_node();
         for (int i = nodes->size() - 1; i > 0; --i)
           nodes->SwapElements(i, i - 1);
         node(b, "add").set_input(1, "c");
       }},
      {"subgraph_op",
       [](OnnxModelBuilder &b) { node(b, "relu").set_op_type("If"); }},
      {"many_nodes",
       [](OnnxModelBuilder &b) {
         // 200 Relus in a chain: a --max-nodes test.
         std::string prev = "y";
         for (int i = 0; i < 200; ++i) {
           std::string next = "chain" + std::to_string(i);
           b.node("Relu", {prev}, {next}, next);
           prev = next;
         }
         b.graph().mutable_output(0)->set_name(prev);
       }},
  };
  return cases;
}

} // namespace

void writeOnnxCases(const std::string &dir) {
  for (const OnnxCase &c : onnxCases()) {
    OnnxModelBuilder b = goodModel();
    c.damage(b);
    writeFile(dir + "/" + c.file + ".onnx", b.model.SerializeAsString());
  }
}

} // namespace geflow::badinput
