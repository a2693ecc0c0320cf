//===- MakeStreamModels.cpp - the annotated models of the stream tests ----===//
//
// geflow-make-stream-models OUTDIR writes, for each model below, MODEL.onnx,
// its inputs as MODEL.input.NAME.npy (seeded random) and the reference outputs
// as MODEL.output.NAME.npy (ReferenceEvaluator, not geflow).
// tests/models/streams/ README.md lists the models, their node names and the
// plans written for them.
//
//===----------------------------------------------------------------------===//

#include "tests/models/streams/ReferenceEvaluator.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"
#include "tools/geflow/TensorFiles.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>

using namespace geflow::test;

namespace {

/// Attribute values of the annotated variants.
struct Annotation {
  std::string label;
  int64_t aicoreNum = 0;
  int64_t vectorcoreNum = 0;
};

class ModelWriter {
public:
  explicit ModelWriter(std::string dir) : dir(std::move(dir)) {}

  /// Restarts the seeded generator, so that a model and its annotated variant
  /// get the same weights and inputs.
  void startModel() { rng.seed(kSeed); }

  /// Uniform in [-1, 1) times `scale`, from the writer's one seeded generator.
  std::vector<float> random(int64_t count, float scale) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> values(count);
    for (float &v : values)
      v = dist(rng) * scale;
    return values;
  }

  /// A [k, n] weight whose products keep unit variance (fan-in scaling).
  void weight(OnnxModelBuilder &b, const std::string &name, int64_t k,
              int64_t n) {
    b.floatInit(name, {k, n}, random(k * n, std::sqrt(3.0f / k)));
  }

  void input(OnnxModelBuilder &b, TensorMap &inputs, const std::string &name,
             std::vector<int64_t> shape) {
    b.input(name, {shape.begin(), shape.end()});
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    inputs[name] = FloatTensor{shape, random(count, 1.0f)};
  }

  /// Writes the model, its inputs and its reference outputs.
  void save(const std::string &name, const OnnxModelBuilder &b,
            const TensorMap &inputs) {
    std::ofstream out(dir + "/" + name + ".onnx", std::ios::binary);
    if (!out || !b.model.SerializeToOstream(&out))
      fail("cannot write " + name + ".onnx");
    for (const auto &[tensor, value] : inputs)
      writeNpy(value, name + ".input." + tensor + ".npy");
    for (const auto &[tensor, value] : evaluateGraph(b.model.graph(), inputs))
      writeNpy(value, name + ".output." + tensor + ".npy");
    std::cout << "wrote " << name << ".onnx\n";
  }

  [[noreturn]] static void fail(const std::string &message) {
    std::cerr << "geflow-make-stream-models: error: " << message << "\n";
    std::exit(1);
  }

private:
  void writeNpy(const FloatTensor &value, const std::string &file) {
    geflow::cli::HostTensor tensor;
    tensor.dtype = geflow::om::DT_FLOAT;
    tensor.shape = value.shape;
    tensor.bytes.resize(value.data.size() * sizeof(float));
    std::memcpy(tensor.bytes.data(), value.data.data(), tensor.bytes.size());
    if (llvm::Error err =
            geflow::cli::writeTensorFile(tensor, dir + "/" + file))
      fail(llvm::toString(std::move(err)));
  }

  static constexpr unsigned kSeed = 20261129;
  std::string dir;
  std::mt19937 rng{kSeed};
};

void annotate(onnx::NodeProto &node, const Annotation &annotation) {
  setString(node, "_user_stream_label", annotation.label);
  if (annotation.aicoreNum)
    setInt(node, "_op_aicore_num", annotation.aicoreNum);
  if (annotation.vectorcoreNum)
    setInt(node, "_op_vectorcore_num", annotation.vectorcoreNum);
}

/// torchair's npu_stream_switch example. The Identity nodes stand for
/// torchair's npu_wait_tensor(in4, ...) results: the tensors a plan's
/// wait_tensor names so that only mm, resp. add2, waits (they fold away at
/// import).
void torchairExample(ModelWriter &w, bool annotated) {
  w.startModel();
  OnnxModelBuilder b;
  TensorMap inputs;
  for (const char *name : {"in1", "in2", "in3", "in4"})
    w.input(b, inputs, name, {128, 128});
  b.node("Add", {"in1", "in2"}, {"add_result"}, "add");
  b.node("Identity", {"in4"}, {"in4_mm"}, "in4_for_mm");
  auto &mm = b.node("MatMul", {"in3", "in4_mm"}, {"mm_result"}, "mm");
  b.node("MatMul", {"in3", "in4"}, {"mm1"}, "mm1");
  b.node("Identity", {"in4"}, {"in4_add2"}, "in4_for_add2");
  auto &add2 = b.node("Add", {"in3", "in4_add2"}, {"add2"}, "add2");
  if (annotated) {
    annotate(mm, {"1"});
    annotate(add2, {"2"});
  }
  for (const char *name : {"add_result", "mm_result", "mm1", "add2"})
    b.output(name);
  w.save(annotated ? "torchair_example_annotated" : "torchair_example", b,
         inputs);
}

/// Routed experts beside a shared expert, as in DeepSeek-style MoE layers
/// (dense routing: every expert runs, weighted by its gate column).
void moe(ModelWriter &w, bool annotated) {
  w.startModel();
  constexpr int64_t kTokens = 256, kModel = 1024, kHidden = 2048, kExperts = 4;
  OnnxModelBuilder b;
  TensorMap inputs;
  w.input(b, inputs, "x", {kTokens, kModel});
  w.weight(b, "gate/weight", kModel, kExperts);
  b.node("MatMul", {"x", "gate/weight"}, {"gate/logits"}, "gate/MatMul");
  setInt(b.node("Softmax", {"gate/logits"}, {"gate/probs"}, "gate/Softmax"),
         "axis", -1);
  b.int64Init("moe/col_axis", {1}, {1});
  std::string routed;
  for (int64_t e = 0; e < kExperts; ++e) {
    std::string p = "expert" + std::to_string(e) + "/";
    w.weight(b, p + "w_up", kModel, kHidden);
    w.weight(b, p + "w_down", kHidden, kModel);
    b.int64Init(p + "col_start", {1}, {e});
    b.int64Init(p + "col_end", {1}, {e + 1});
    b.node("MatMul", {"x", p + "w_up"}, {p + "h"}, p + "up");
    b.node("Relu", {p + "h"}, {p + "a"}, p + "act");
    b.node("MatMul", {p + "a", p + "w_down"}, {p + "y"}, p + "down");
    b.node("Slice",
           {"gate/probs", p + "col_start", p + "col_end", "moe/col_axis"},
           {p + "g"}, p + "gate_col");
    b.node("Mul", {p + "y", p + "g"}, {p + "out"}, p + "scale");
    if (e > 0) {
      std::string sum = "moe/sum" + std::to_string(e);
      b.node("Add", {routed, p + "out"}, {sum}, sum);
      routed = sum;
    } else {
      routed = p + "out";
    }
  }
  w.weight(b, "shared_expert/w_up", kModel, kHidden);
  w.weight(b, "shared_expert/w_down", kHidden, kModel);
  std::vector<onnx::NodeProto *> shared = {
      &b.node("MatMul", {"x", "shared_expert/w_up"}, {"shared_expert/h"},
              "shared_expert/up"),
      &b.node("Relu", {"shared_expert/h"}, {"shared_expert/a"},
              "shared_expert/act"),
      &b.node("MatMul", {"shared_expert/a", "shared_expert/w_down"},
              {"shared_expert/y"}, "shared_expert/down")};
  if (annotated)
    for (onnx::NodeProto *node : shared)
      annotate(*node, {"shared", 8, 16});
  b.node("Add", {routed, "shared_expert/y"}, {"y"}, "output/add");
  b.output("y");
  w.save(annotated ? "moe_annotated" : "moe", b, inputs);
}

/// Four independent matmul chains, each too small for a quarter of 24 cube
/// cores: the matmul kernels split [64,128]x[128,64] into 4 blocks and
/// [64,64]x[64,64] into 2 (executor/kernels/gemm/Gemm.cpp: 256 KFLOP per
/// block).
void fourBranches(ModelWriter &w) {
  OnnxModelBuilder b;
  TensorMap inputs;
  w.input(b, inputs, "x", {64, 128});
  std::vector<std::string> outs;
  for (int i = 0; i < 4; ++i) {
    std::string p = "branch" + std::to_string(i) + "/";
    w.weight(b, p + "w1", 128, 64);
    w.weight(b, p + "w2", 64, 64);
    b.node("MatMul", {"x", p + "w1"}, {p + "h"}, p + "mm1");
    b.node("Relu", {p + "h"}, {p + "a"}, p + "relu");
    b.node("MatMul", {p + "a", p + "w2"}, {p + "y"}, p + "mm2");
    outs.push_back(p + "y");
  }
  setInt(b.node("Concat", outs, {"y"}, "concat"), "axis", 1);
  b.output("y");
  w.save("four_branches", b, inputs);
}

/// A [64,64] MatMul of `in` with a fresh weight, then a Relu, named
/// `prefix`mm / `prefix`relu; returns the Relu's output.
std::string matmulRelu(ModelWriter &w, OnnxModelBuilder &b,
                       const std::string &in, const std::string &prefix) {
  w.weight(b, prefix + "w", 64, 64);
  b.node("MatMul", {in, prefix + "w"}, {prefix + "h"}, prefix + "mm");
  b.node("Relu", {prefix + "h"}, {prefix + "a"}, prefix + "relu");
  return prefix + "a";
}

/// The four-branch schedule target: four independent 3-deep branches of
/// [16,64]x[64,64] MatMul + Relu, joined by a Concat along rows, which the
/// producers can write in place.
void fourBranches16(ModelWriter &w) {
  OnnxModelBuilder b;
  TensorMap inputs;
  w.input(b, inputs, "x", {16, 64});
  std::vector<std::string> outs;
  for (int i = 0; i < 4; ++i) {
    std::string last = "x";
    for (int d = 1; d <= 3; ++d)
      last = matmulRelu(w, b, last,
                        "branch" + std::to_string(i) + "/" + std::to_string(d) +
                            "/");
    outs.push_back(last);
  }
  setInt(b.node("Concat", outs, {"y"}, "concat"), "axis", 0);
  b.output("y");
  w.save("four_branches_16", b, inputs);
}

/// A Split whose parts the branches read in place, a Concat they write in
/// place and a Reshape of the result: no task for any of the three.
void splitJoin(ModelWriter &w) {
  OnnxModelBuilder b;
  TensorMap inputs;
  w.input(b, inputs, "x", {64, 64});
  std::vector<std::string> parts, outs;
  for (int i = 0; i < 4; ++i)
    parts.push_back("part" + std::to_string(i));
  setInt(b.node("Split", {"x"}, parts, "split"), "axis", 0);
  for (int i = 0; i < 4; ++i)
    outs.push_back(
        matmulRelu(w, b, parts[i], "branch" + std::to_string(i) + "/"));
  setInt(b.node("Concat", outs, {"joined"}, "concat"), "axis", 0);
  b.int64Init("shape", {2}, {16, 256});
  b.node("Reshape", {"joined", "shape"}, {"wide"}, "reshape");
  b.node("Tanh", {"wide"}, {"y"}, "tanh");
  b.output("y");
  w.save("split_join", b, inputs);
}

/// Eight ops, each consuming the previous one's result only.
void chain(ModelWriter &w) {
  OnnxModelBuilder b;
  TensorMap inputs;
  w.input(b, inputs, "x", {128, 256});
  std::string last = "x";
  auto step = [&](const std::string &type, const std::string &name,
                  std::vector<std::string> extra = {}) -> onnx::NodeProto & {
    std::vector<std::string> operands = {last};
    operands.insert(operands.end(), extra.begin(), extra.end());
    last = "chain/" + name + "_out";
    return b.node(type, operands, {last}, "chain/" + name);
  };
  for (int i = 1; i <= 3; ++i) {
    std::string n = std::to_string(i);
    w.weight(b, "chain/w" + n, 256, 256);
    step("MatMul", "mm" + n, {"chain/w" + n});
    if (i == 3)
      break;
    b.floatInit("chain/b" + n, {256}, w.random(256, 0.1f));
    step("Add", "bias" + n, {"chain/b" + n});
    step(i == 1 ? "Relu" : "Tanh", i == 1 ? "relu" : "tanh");
  }
  setInt(step("Softmax", "softmax"), "axis", -1);
  b.graph().mutable_node()->rbegin()->set_output(0, "y");
  b.output("y");
  w.save("chain", b, inputs);
}

/// One Relu with one invalid annotation: the error must name node and
/// attribute.
void badAnnotation(ModelWriter &w, const std::string &attribute,
                   const std::function<void(onnx::NodeProto &)> &set) {
  OnnxModelBuilder b;
  TensorMap inputs;
  w.input(b, inputs, "x", {4});
  set(b.node("Relu", {"x"}, {"y"}, "relu"));
  b.output("y");
  w.save("bad" + attribute, b, inputs);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: geflow-make-stream-models OUTDIR\n";
    return 2;
  }
  ModelWriter w(argv[1]);
  for (bool annotated : {false, true})
    torchairExample(w, annotated);
  for (bool annotated : {false, true})
    moe(w, annotated);
  fourBranches(w);
  fourBranches16(w);
  splitJoin(w);
  chain(w);
  badAnnotation(w, "_user_stream_label",
                [](auto &n) { setString(n, "_user_stream_label", ""); });
  badAnnotation(w, "_user_stream_priority",
                [](auto &n) { setInt(n, "_user_stream_priority", -1); });
  badAnnotation(w, "_enable_inner_parallel", [](auto &n) {
    setString(n, "_enable_inner_parallel", "maybe");
  });
  badAnnotation(w, "_op_aicore_num",
                [](auto &n) { setInt(n, "_op_aicore_num", 0); });
  badAnnotation(w, "_op_vectorcore_num",
                [](auto &n) { setString(n, "_op_vectorcore_num", "-1"); });
  return 0;
}
