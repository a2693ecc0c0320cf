//===- OnnxModelBuilder.h - tiny ONNX models built in code --------*- C++
//-*-===//
#ifndef GEFLOW_TESTS_UNIT_FRONTEND_ONNXMODELBUILDER_H
#define GEFLOW_TESTS_UNIT_FRONTEND_ONNXMODELBUILDER_H

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace geflow::test {

/// A dim is a number or a symbolic name.
using Dim = std::variant<int64_t, std::string>;

class OnnxModelBuilder {
public:
  explicit OnnxModelBuilder(int64_t opset = 17, int64_t irVersion = 8) {
    model.set_ir_version(irVersion);
    model.set_producer_name("geflow-tests");
    auto *op = model.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model.mutable_graph()->set_name("test");
  }

  onnx::GraphProto &graph() { return *model.mutable_graph(); }

  OnnxModelBuilder &input(const std::string &name, const std::vector<Dim> &dims,
                          int32_t elemType = onnx::TensorProto::FLOAT) {
    setType(*graph().add_input(), name, dims, elemType);
    return *this;
  }

  OnnxModelBuilder &output(const std::string &name,
                           int32_t elemType = onnx::TensorProto::FLOAT) {
    auto *info = graph().add_output();
    info->set_name(name);
    info->mutable_type()->mutable_tensor_type()->set_elem_type(elemType);
    return *this;
  }

  onnx::NodeProto &node(const std::string &type,
                        const std::vector<std::string> &inputs,
                        const std::vector<std::string> &outputs,
                        const std::string &name = "") {
    auto *n = graph().add_node();
    n->set_op_type(type);
    n->set_name(name);
    for (const auto &i : inputs)
      n->add_input(i);
    for (const auto &o : outputs)
      n->add_output(o);
    return *n;
  }

  OnnxModelBuilder &floatInit(const std::string &name,
                              const std::vector<int64_t> &dims,
                              const std::vector<float> &values) {
    auto *t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims)
      t->add_dims(d);
    t->set_raw_data(values.data(), values.size() * sizeof(float));
    return *this;
  }

  OnnxModelBuilder &int64Init(const std::string &name,
                              const std::vector<int64_t> &dims,
                              const std::vector<int64_t> &values) {
    auto *t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims)
      t->add_dims(d);
    for (int64_t v : values)
      t->add_int64_data(v);
    return *this;
  }

  static void setType(onnx::ValueInfoProto &info, const std::string &name,
                      const std::vector<Dim> &dims, int32_t elemType) {
    info.set_name(name);
    auto *tensor = info.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elemType);
    auto *shape = tensor->mutable_shape();
    for (const Dim &d : dims) {
      auto *dim = shape->add_dim();
      if (std::holds_alternative<int64_t>(d))
        dim->set_dim_value(std::get<int64_t>(d));
      else
        dim->set_dim_param(std::get<std::string>(d));
    }
  }

  onnx::ModelProto model;
};

inline void setInts(onnx::NodeProto &node, const std::string &name,
                    const std::vector<int64_t> &values) {
  auto *a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values)
    a->add_ints(v);
}

inline void setInt(onnx::NodeProto &node, const std::string &name,
                   int64_t value) {
  auto *a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

inline void setString(onnx::NodeProto &node, const std::string &name,
                      const std::string &value) {
  auto *a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}

} // namespace geflow::test

#endif // GEFLOW_TESTS_UNIT_FRONTEND_ONNXMODELBUILDER_H
