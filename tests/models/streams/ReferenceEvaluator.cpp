//===- ReferenceEvaluator.cpp - host reference for the stream models ------===//

#include "tests/models/streams/ReferenceEvaluator.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>

using namespace geflow::test;

namespace {

using RowMajor =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// A rank-1 tensor is one row, as numpy broadcasts it.
int64_t rows(const FloatTensor &t) {
  return t.shape.size() == 2 ? t.shape[0] : 1;
}
int64_t cols(const FloatTensor &t) { return t.shape.back(); }

Eigen::Map<const RowMajor> view(const FloatTensor &t) {
  return {t.data.data(), rows(t), cols(t)};
}

FloatTensor matrix(int64_t r, int64_t c) {
  return FloatTensor{{r, c}, std::vector<float>(r * c)};
}

void checkRank(const onnx::NodeProto &node, const FloatTensor &t) {
  if (t.shape.empty() || t.shape.size() > 2)
    throw std::runtime_error("node '" + node.name() + "': only rank 1 and 2");
}

FloatTensor broadcast(const onnx::NodeProto &node, const FloatTensor &a,
                      const FloatTensor &b,
                      const std::function<float(float, float)> &f) {
  int64_t r = std::max(rows(a), rows(b)), c = std::max(cols(a), cols(b));
  for (const FloatTensor *t : {&a, &b})
    if ((rows(*t) != r && rows(*t) != 1) || (cols(*t) != c && cols(*t) != 1))
      throw std::runtime_error("node '" + node.name() +
                               "': shapes do not broadcast");
  FloatTensor out = matrix(r, c);
  if (a.shape.size() == 1 && b.shape.size() == 1)
    out.shape = {c};
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j) {
      float x =
          a.data[(rows(a) == 1 ? 0 : i) * cols(a) + (cols(a) == 1 ? 0 : j)];
      float y =
          b.data[(rows(b) == 1 ? 0 : i) * cols(b) + (cols(b) == 1 ? 0 : j)];
      out.data[i * c + j] = f(x, y);
    }
  return out;
}

FloatTensor unary(const FloatTensor &a, const std::function<float(float)> &f) {
  FloatTensor out = a;
  for (float &v : out.data)
    v = f(v);
  return out;
}

FloatTensor softmaxRows(const FloatTensor &a) {
  FloatTensor out = a;
  for (int64_t i = 0; i < rows(a); ++i) {
    float *row = out.data.data() + i * cols(a);
    float top = *std::max_element(row, row + cols(a));
    double sum = 0;
    for (int64_t j = 0; j < cols(a); ++j)
      sum += row[j] = std::exp(row[j] - top);
    for (int64_t j = 0; j < cols(a); ++j)
      row[j] = static_cast<float>(row[j] / sum);
  }
  return out;
}

int64_t intAttr(const onnx::NodeProto &node, const std::string &name,
                int64_t fallback) {
  for (const auto &attr : node.attribute())
    if (attr.name() == name)
      return attr.i();
  return fallback;
}

class Evaluator {
public:
  Evaluator(const onnx::GraphProto &graph, const TensorMap &inputs)
      : graph(graph), values(inputs) {
    for (const auto &init : graph.initializer()) {
      std::vector<int64_t> shape(init.dims().begin(), init.dims().end());
      if (init.data_type() == onnx::TensorProto::INT64) {
        ints[init.name()].assign(init.int64_data().begin(),
                                 init.int64_data().end());
        continue;
      }
      FloatTensor t{shape, std::vector<float>(init.raw_data().size() / 4)};
      std::memcpy(t.data.data(), init.raw_data().data(),
                  init.raw_data().size());
      values[init.name()] = std::move(t);
    }
  }

  TensorMap run() {
    for (const auto &node : graph.node()) {
      if (node.op_type() == "Split") {
        split(node);
        continue;
      }
      values[node.output(0)] = evaluate(node);
    }
    TensorMap outputs;
    for (const auto &output : graph.output())
      outputs[output.name()] = values.at(output.name());
    return outputs;
  }

private:
  const FloatTensor &in(const onnx::NodeProto &node, int i) {
    auto it = values.find(node.input(i));
    if (it == values.end())
      throw std::runtime_error("node '" + node.name() + "': no value '" +
                               node.input(i) + "'");
    checkRank(node, it->second);
    return it->second;
  }
  const std::vector<int64_t> &intsIn(const onnx::NodeProto &node, int i) {
    return ints.at(node.input(i));
  }

  FloatTensor evaluate(const onnx::NodeProto &node) {
    const std::string &type = node.op_type();
    if (type == "Identity")
      return in(node, 0);
    if (type == "MatMul") {
      const FloatTensor &a = in(node, 0), &b = in(node, 1);
      FloatTensor out = matrix(rows(a), cols(b));
      Eigen::Map<RowMajor>(out.data.data(), rows(a), cols(b)).noalias() =
          view(a) * view(b);
      return out;
    }
    if (type == "Add")
      return broadcast(node, in(node, 0), in(node, 1), std::plus<float>());
    if (type == "Mul")
      return broadcast(node, in(node, 0), in(node, 1),
                       std::multiplies<float>());
    if (type == "Relu")
      return unary(in(node, 0), [](float v) { return std::max(v, 0.0f); });
    if (type == "Tanh")
      return unary(in(node, 0), [](float v) { return std::tanh(v); });
    if (type == "Softmax" && intAttr(node, "axis", -1) == -1)
      return softmaxRows(in(node, 0));
    if (type == "Slice")
      return slice(node);
    if (type == "Concat")
      return concat(node);
    if (type == "Reshape") {
      FloatTensor out = in(node, 0);
      out.shape = intsIn(node, 1);
      return out;
    }
    throw std::runtime_error("node '" + node.name() + "': no reference for " +
                             type);
  }

  FloatTensor slice(const onnx::NodeProto &node) {
    const FloatTensor &a = in(node, 0);
    int64_t start = intsIn(node, 1).at(0), end = intsIn(node, 2).at(0);
    int64_t axis = intsIn(node, 3).at(0);
    if (a.shape.size() != 2 || (axis != 0 && axis != 1))
      throw std::runtime_error("node '" + node.name() + "': 2-D slices only");
    int64_t r0 = axis == 0 ? start : 0, r1 = axis == 0 ? end : rows(a);
    int64_t c0 = axis == 1 ? start : 0, c1 = axis == 1 ? end : cols(a);
    FloatTensor out = matrix(r1 - r0, c1 - c0);
    Eigen::Map<RowMajor>(out.data.data(), r1 - r0, c1 - c0) =
        view(a).block(r0, c0, r1 - r0, c1 - c0);
    return out;
  }

  /// Equal parts along axis 0 (rows), one per output.
  void split(const onnx::NodeProto &node) {
    const FloatTensor &a = in(node, 0);
    int64_t parts = node.output_size();
    if (intAttr(node, "axis", 0) != 0 || node.input_size() != 1 ||
        rows(a) % parts != 0)
      throw std::runtime_error("node '" + node.name() +
                               "': equal row splits only");
    int64_t r = rows(a) / parts;
    for (int64_t k = 0; k < parts; ++k) {
      FloatTensor out = matrix(r, cols(a));
      Eigen::Map<RowMajor>(out.data.data(), r, cols(a)) =
          view(a).block(k * r, 0, r, cols(a));
      values[node.output(int(k))] = std::move(out);
    }
  }

  FloatTensor concat(const onnx::NodeProto &node) {
    int64_t axis = intAttr(node, "axis", 0);
    int64_t r = 0, c = 0;
    for (int i = 0; i < node.input_size(); ++i) {
      const FloatTensor &t = in(node, i);
      r = axis == 0 ? r + rows(t) : rows(t);
      c = axis == 1 ? c + cols(t) : cols(t);
    }
    FloatTensor out = matrix(r, c);
    Eigen::Map<RowMajor> whole(out.data.data(), r, c);
    int64_t offset = 0;
    for (int i = 0; i < node.input_size(); ++i) {
      const FloatTensor &t = in(node, i);
      if (axis == 0)
        whole.block(offset, 0, rows(t), c) = view(t);
      else
        whole.block(0, offset, r, cols(t)) = view(t);
      offset += axis == 0 ? rows(t) : cols(t);
    }
    return out;
  }

  const onnx::GraphProto &graph;
  TensorMap values;
  std::map<std::string, std::vector<int64_t>> ints;
};

} // namespace

TensorMap geflow::test::evaluateGraph(const onnx::GraphProto &graph,
                                      const TensorMap &inputs) {
  return Evaluator(graph, inputs).run();
}
