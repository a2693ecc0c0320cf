//===- OpTableTest.cpp - the op table covers every op, and holds ----------===//
//
// Walks ir/GeOpTable.def against what the rest of geflow has: every ODS op
// of the ge dialect has a row, every row names an ODS op, every row with a
// kernel has one, and every row with an ONNX name matches ONNX's own schema
// and imports through the real importer.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/OpTable.h"
#include "executor/kernels/Kernel.h"
#include "frontends/onnx/OnnxImporter.h"
#include "ir/GeDialect.h"
#include "ir/OpFacts.h"

#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

struct Row {
  std::string name;
  std::string onnx;
  int since;
  std::string family;
  std::string kernel;
  int step = 0;
};

std::vector<Row> tableRows() {
  std::vector<Row> rows;
#define GE_OP(Name, Onnx, Since, Family, Engine, Kernel, Import)               \
  rows.push_back({#Name, #Onnx, Since, #Family, #Kernel});
#define GE_ELEMENTWISE(Name, Onnx, Since, Family, Kernel, Types, Step, Act,    \
                       Import)                                                 \
  rows.push_back({#Name, #Onnx, Since, #Family, #Kernel, Step});
#include "ir/GeOpTable.def"
  return rows;
}

constexpr int kImportOpset = 17;

bool imported(const Row &row) {
  return row.onnx != "_" && row.since <= kImportOpset;
}

class OpTableTest : public ::testing::Test {
protected:
  OpTableTest() {
    context.loadDialect<mlir::ge::GeDialect, mlir::func::FuncDialect>();
  }
  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
};

TEST_F(OpTableTest, EveryOdsOpHasARow) {
  llvm::StringSet<> named;
  for (const Row &row : tableRows())
    named.insert("ge." + row.name);
  int geOps = 0;
  for (mlir::RegisteredOperationName op : context.getRegisteredOperations()) {
    if (op.getDialectNamespace() != "ge")
      continue;
    ++geOps;
    EXPECT_TRUE(named.contains(op.getStringRef()))
        << op.getStringRef().str() << " has no row in ir/GeOpTable.def";
  }
  EXPECT_GT(geOps, 90);
}

TEST_F(OpTableTest, EveryRowIsAnOdsOpOnce) {
  llvm::StringSet<> seen;
  for (const Row &row : tableRows()) {
    EXPECT_TRUE(seen.insert(row.name).second) << row.name << " has two rows";
    EXPECT_TRUE(
        mlir::RegisteredOperationName::lookup("ge." + row.name, &context))
        << "row " << row.name << " names no ODS op";
  }
}

TEST_F(OpTableTest, EveryRowWithAKernelHasOne) {
  for (const Row &row : tableRows()) {
    bool wantsKernel = row.kernel != "NoKernel";
    EXPECT_EQ(geflow::kernels::hasKernel(row.name), wantsKernel)
        << row.name << " (Kernel " << row.kernel << ")";
  }
}

TEST_F(OpTableTest, StepsAndActivationsAreElementwise) {
  for (const Row &row : tableRows()) {
    EXPECT_EQ(mlir::ge::elementwiseStepArity(row.name),
              static_cast<unsigned>(row.step))
        << row.name;
    if (row.step == 0)
      continue;
    bool elementwise = row.family == "Unary" || row.family == "Binary" ||
                       row.family == "Variadic";
    EXPECT_TRUE(elementwise) << row.name << " is a step but " << row.family;
  }
  EXPECT_EQ(mlir::ge::elementwiseStepArity("gelu_tanh"), 1u);
  EXPECT_EQ(mlir::ge::activationParamCount("clip"), 2u);
  EXPECT_EQ(mlir::ge::activationParamCount("gelu_tanh"), 0u);
  EXPECT_FALSE(mlir::ge::activationParamCount("abs"));
  EXPECT_EQ(mlir::ge::defaultEngine("fused_conv"), mlir::ge::Engine::AIC);
  EXPECT_EQ(mlir::ge::defaultEngine("relu"), mlir::ge::Engine::AIV);
  EXPECT_FALSE(mlir::ge::defaultEngine("constant"));
}

// Since is ONNX's own first version of the op: the schema registry has the
// op at Since and not before it. libonnx knows the opsets up to its own
// newest; a row beyond that (Gelu, opset 20) cannot be checked here.
TEST_F(OpTableTest, SinceIsOnnxsFirstVersion) {
  int newest = onnx::OpSchemaRegistry::DomainToVersionRange::Instance()
                   .Map()
                   .at("")
                   .second;
  int checked = 0;
  for (const Row &row : tableRows()) {
    if (row.onnx == "_" || row.since > newest)
      continue;
    ++checked;
    EXPECT_NE(onnx::OpSchemaRegistry::Schema(row.onnx, row.since), nullptr)
        << row.onnx << " does not exist at opset " << row.since;
    if (row.since > 1) {
      EXPECT_EQ(onnx::OpSchemaRegistry::Schema(row.onnx, row.since - 1),
                nullptr)
          << row.onnx << " exists before opset " << row.since;
    }
  }
  EXPECT_GT(checked, 70);
}

TEST_F(OpTableTest, EveryOnnxRowIsLookedUp) {
  int importable = 0;
  for (const Row &row : tableRows()) {
    const geflow::onnxfe::OpSpec *spec = geflow::onnxfe::lookupOpSpec(row.onnx);
    if (!imported(row)) {
      EXPECT_EQ(spec, nullptr) << row.onnx;
      continue;
    }
    ++importable;
    ASSERT_NE(spec, nullptr) << row.onnx << " is not imported";
    EXPECT_EQ(spec->geName, row.name);
    EXPECT_TRUE(geflow::isOnnxOpSupported(row.onnx));
  }
  EXPECT_EQ(static_cast<size_t>(importable),
            geflow::onnxfe::supportedOnnxOps().size());
}

/// A model of one node `type` over float inputs of shape [2, 3].
onnx::ModelProto oneNodeModel(const std::string &type, int inputs) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto *opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(kImportOpset);
  onnx::GraphProto &graph = *model.mutable_graph();
  graph.set_name("one_node");
  onnx::NodeProto &node = *graph.add_node();
  node.set_op_type(type);
  node.set_name("n");
  if (type == "Mod") {
    // ONNX allows float Mod only as fmod.
    onnx::AttributeProto &fmod = *node.add_attribute();
    fmod.set_name("fmod");
    fmod.set_type(onnx::AttributeProto::INT);
    fmod.set_i(1);
  }
  for (int i = 0; i < inputs; ++i) {
    std::string name = "x" + std::to_string(i);
    node.add_input(name);
    onnx::ValueInfoProto &input = *graph.add_input();
    input.set_name(name);
    auto &tensor = *input.mutable_type()->mutable_tensor_type();
    tensor.set_elem_type(type == "Not" ? onnx::TensorProto::BOOL
                                       : onnx::TensorProto::FLOAT);
    tensor.mutable_shape()->add_dim()->set_dim_value(2);
    tensor.mutable_shape()->add_dim()->set_dim_value(3);
  }
  node.add_output("y");
  graph.add_output()->set_name("y");
  return model;
}

// Each elementwise unary or binary row imports, one node at a time, into
// its ge op (the other families need operands of particular shapes and
// attributes; the conformance runner covers them with ONNX's test data).
TEST_F(OpTableTest, ElementwiseRowsImport) {
  int checked = 0;
  for (const Row &row : tableRows()) {
    if (!imported(row) || (row.family != "Unary" && row.family != "Binary"))
      continue;
    int inputs = row.family == "Unary" ? 1 : 2;
    auto module = geflow::importOnnxModel(
        context, oneNodeModel(row.onnx, inputs), row.onnx + ".onnx", {});
    ASSERT_TRUE(static_cast<bool>(module))
        << row.onnx << ": " << llvm::toString(module.takeError());
    EXPECT_TRUE(mlir::succeeded(mlir::verify(**module)));
    int found = 0;
    (*module)->walk([&](mlir::Operation *op) {
      found += op->getName().getStringRef() == "ge." + row.name;
    });
    // ge.identity folds to its operand as the importer builds it.
    int expected = row.name == "identity" ? 0 : 1;
    EXPECT_EQ(found, expected) << row.onnx << " did not become ge." << row.name;
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

} // namespace
