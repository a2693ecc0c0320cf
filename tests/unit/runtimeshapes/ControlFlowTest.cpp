//===- ControlFlowTest.cpp - what an If's branches read from outside ------===//

#include "tools/driver/RuntimeShapesControlFlow.h"

#include <gtest/gtest.h>

using namespace geflow;

namespace {

onnx::NodeProto makeNode(const std::string &type,
                         const std::vector<std::string> &inputs,
                         const std::vector<std::string> &outputs) {
  onnx::NodeProto node;
  node.set_op_type(type);
  for (const std::string &in : inputs)
    node.add_input(in);
  for (const std::string &out : outputs)
    node.add_output(out);
  return node;
}

void setBranch(onnx::NodeProto &node, const char *name,
               const onnx::GraphProto &graph) {
  onnx::AttributeProto &attr = *node.add_attribute();
  attr.set_name(name);
  attr.set_type(onnx::AttributeProto::GRAPH);
  *attr.mutable_g() = graph;
}

TEST(ControlFlowTest, OuterScopeReadsSkipWhatTheBranchDefines) {
  // then: t = Add(a, local_init); u = Mul(t, b) -> reads a, b.
  onnx::GraphProto thenBranch;
  *thenBranch.add_node() = makeNode("Add", {"a", "local_init"}, {"t"});
  *thenBranch.add_node() = makeNode("Mul", {"t", "b"}, {"u"});
  thenBranch.add_initializer()->set_name("local_init");
  thenBranch.add_output()->set_name("u");
  // else: an If of its own whose branch reads c and the else branch's own v.
  onnx::GraphProto inner;
  *inner.add_node() = makeNode("Sub", {"v", "c"}, {"w"});
  inner.add_output()->set_name("w");
  onnx::GraphProto elseBranch;
  *elseBranch.add_node() = makeNode("Neg", {"a"}, {"v"});
  onnx::NodeProto nested = makeNode("If", {"cond2"}, {"x"});
  setBranch(nested, "then_branch", inner);
  setBranch(nested, "else_branch", inner);
  *elseBranch.add_node() = nested;
  elseBranch.add_output()->set_name("x");

  onnx::NodeProto node = makeNode("If", {"cond"}, {"o"});
  setBranch(node, "then_branch", thenBranch);
  setBranch(node, "else_branch", elseBranch);
  EXPECT_EQ(driver::outerScopeReads(node),
            (std::vector<std::string>{"a", "b", "cond2", "c"}));
  EXPECT_TRUE(driver::outerScopeReads(makeNode("Relu", {"a"}, {"b"})).empty());
}

} // namespace
