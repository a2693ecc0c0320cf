//===- DataDependentTest.cpp - non_zero, non_max_suppression, unique, compress
//-===//
//
// Every ONNX backend node test of the four ops, run through upperBoundShapes
// and runDataDependent and compared byte for byte, real shapes included; then
// hand cases for what the node tests leave out (dtypes, NaN, ties, absent
// optional inputs, bounds a caller declares, bad operands).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "executor/kernels/data_dependent/DataDependent.h"
#include "tools/geflow/TensorFiles.h"

#include "onnx/onnx_pb.h"

#include <filesystem>
#include <fstream>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

namespace fs = std::filesystem;

/// What runDataDependent gave: the status, each output cut to its real shape
/// (descriptor and bytes), and the real shapes.
struct DdRun {
  rt::Status status = rt::Status::ok();
  std::vector<HostTensor> outputs;
  std::vector<std::vector<int64_t>> shapes;
};

/// Bounds `op` (unless `keepOutputs`: the caller declared them), runs it into
/// poisoned buffers of those bounds and cuts each output to its real shape.
DdRun runDd(om::OpDef op, const std::vector<HostTensor> &inputs,
            bool keepOutputs = false) {
  DdRun r;
  op.clear_input_desc();
  for (const HostTensor &t : inputs)
    *op.add_input_desc() = t.desc;
  if (!keepOutputs)
    r.status = upperBoundShapes(&op);
  if (!r.status.isOk())
    return r;
  std::vector<TensorView> in, out;
  for (const HostTensor &t : inputs)
    in.push_back({const_cast<uint8_t *>(t.bytes.data()), &t.desc});
  r.outputs.resize(op.output_desc_size());
  for (int k = 0; k < op.output_desc_size(); ++k) {
    r.outputs[k].desc = op.output_desc(k);
    r.outputs[k].bytes.assign(op.output_desc(k).size(), 0xAB);
  }
  for (HostTensor &t : r.outputs)
    out.push_back({t.bytes.data(), &t.desc});
  r.status = runDataDependent(op, in.data(), out.data(), &r.shapes);
  if (!r.status.isOk())
    return r;
  EXPECT_EQ(r.shapes.size(), r.outputs.size());
  for (size_t k = 0; k < r.outputs.size() && k < r.shapes.size(); ++k) {
    HostTensor &t = r.outputs[k];
    EXPECT_LE(count(r.shapes[k]), numElements(t.desc)) << "output " << k;
    t.desc = makeDesc(t.desc.dtype(), r.shapes[k]);
    t.bytes.resize(t.desc.size());
  }
  return r;
}

DdRun runOk(const om::OpDef &op, const std::vector<HostTensor> &inputs) {
  DdRun r = runDd(op, inputs);
  EXPECT_TRUE(r.status.isOk()) << r.status.toString();
  return r;
}

/// The error runDataDependent (or upperBoundShapes) gives.
std::string errorOf(const om::OpDef &op, const std::vector<HostTensor> &inputs,
                    bool keepOutputs = false) {
  DdRun r = runDd(op, inputs, keepOutputs);
  EXPECT_FALSE(r.status.isOk());
  return r.status.message();
}

// --- the ONNX backend node tests ---------------------------------------------

const char *const kNodeTests = "/usr/share/libonnx-testdata/data/node";

HostTensor readPb(const fs::path &path) {
  auto t = cli::readTensorFile(path.string());
  if (!t) {
    ADD_FAILURE() << llvm::toString(t.takeError());
    return {};
  }
  HostTensor h;
  h.desc = makeDesc(t->dtype, t->shape);
  h.bytes = std::move(t->bytes);
  return h;
}

/// The OpDef of the model's one node: its type in snake_case, its
/// attributes by name.
om::OpDef opDefOf(const onnx::NodeProto &node) {
  static const std::map<std::string, std::string> kTypes = {
      {"NonZero", "non_zero"},
      {"NonMaxSuppression", "non_max_suppression"},
      {"Unique", "unique"},
      {"Compress", "compress"}};
  om::OpDef op;
  op.set_name(node.name().empty() ? "node" : node.name());
  op.set_type(kTypes.at(node.op_type()));
  for (const onnx::AttributeProto &a : node.attribute()) {
    om::AttrDef &def = (*op.mutable_attr())[a.name()];
    if (a.type() == onnx::AttributeProto::INT)
      def.set_i(a.i());
    else if (a.type() == onnx::AttributeProto::FLOAT)
      def.set_f(a.f());
    else
      ADD_FAILURE() << "attribute " << a.name() << " of an unexpected type";
  }
  return op;
}

int positionIn(
    const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> &values,
    const std::string &name) {
  for (int i = 0; i < values.size(); ++i)
    if (values[i].name() == name)
      return i;
  return -1;
}

/// Runs test `name`'s every data set; returns how many it compared.
int runNodeTest(const std::string &name) {
  fs::path dir = fs::path(kNodeTests) / name;
  onnx::ModelProto model;
  std::ifstream file(dir / "model.onnx", std::ios::binary);
  EXPECT_TRUE(model.ParseFromIstream(&file)) << name;
  EXPECT_EQ(model.graph().node_size(), 1) << name;
  const onnx::NodeProto &node = model.graph().node(0);
  om::OpDef op = opDefOf(node);
  int compared = 0;
  for (int set = 0; fs::exists(dir / ("test_data_set_" + std::to_string(set)));
       ++set) {
    fs::path data = dir / ("test_data_set_" + std::to_string(set));
    std::vector<HostTensor> inputs;
    for (const std::string &in : node.input()) {
      int k = positionIn(model.graph().input(), in);
      EXPECT_GE(k, 0) << name << ": input " << in;
      inputs.push_back(
          in.empty() ? HostTensor{}
                     : readPb(data / ("input_" + std::to_string(k) + ".pb")));
    }
    DdRun r = runOk(op, inputs);
    for (int j = 0; j < node.output_size() && r.status.isOk(); ++j) {
      int k = positionIn(model.graph().output(), node.output(j));
      HostTensor want = readPb(data / ("output_" + std::to_string(k) + ".pb"));
      const HostTensor &got = r.outputs[j];
      EXPECT_EQ(got.desc.dtype(), want.desc.dtype()) << name << " output " << j;
      EXPECT_EQ(got.shape(), want.shape()) << name << " output " << j;
      EXPECT_EQ(r.shapes[j], want.shape()) << name << " output " << j;
      EXPECT_EQ(got.bytes, want.bytes) << name << " output " << j;
      ++compared;
    }
  }
  return compared;
}

TEST(DataDependentNodeTest, EveryBackendTestOfTheFourOps) {
  ASSERT_TRUE(fs::is_directory(kNodeTests));
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(kNodeTests)) {
    std::string n = entry.path().filename().string();
    for (const char *prefix : {"test_nonzero", "test_nonmaxsuppression",
                               "test_unique", "test_compress"})
      if (n.rfind(prefix, 0) == 0)
        names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  // 1 NonZero, 9 NonMaxSuppression, 5 Unique, 4 Compress tests in ONNX 1.12.
  EXPECT_EQ(names.size(), 19u);
  int compared = 0;
  for (const std::string &n : names) {
    SCOPED_TRACE(n);
    int c = runNodeTest(n);
    EXPECT_GT(c, 0);
    compared += c;
  }
  // Unique's tests check all four outputs.
  EXPECT_EQ(compared, 1 + 9 + 5 * 4 + 4);
}

// --- contract ----------------------------------------------------------------

TEST(DataDependentTest, TheFourOpsArePlannedOnAicpuButNotCreated) {
  for (const char *type :
       {"non_zero", "non_max_suppression", "unique", "compress"})
    EXPECT_TRUE(isDataDependent(type)) << type;
  EXPECT_FALSE(isDataDependent("top_k"));
  om::OpDef op = OpBuilder("non_zero", "nz").input(om::DT_FLOAT, {4, 5});
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAiCpu);
  EXPECT_EQ(plan.maxBlocks, 1u);
  EXPECT_EQ(plan.cost.flops, 20);
  // 80 bytes read, an int64 [2, 20] bound written.
  EXPECT_EQ(plan.cost.bytes, 80 + 2 * 20 * 8);
  KernelSpec spec;
  spec.op = &op;
  std::unique_ptr<Kernel> kernel;
  rt::Status st = createKernel(spec, &kernel);
  EXPECT_EQ(st.message(), "node 'nz' (non_zero): its output shape depends on "
                          "its input values; it runs through "
                          "kernels::runDataDependent");
  om::OpDef notOne = OpBuilder("relu", "r").input(om::DT_FLOAT, {2});
  EXPECT_EQ(upperBoundShapes(&notOne).message(),
            "node 'r' (relu): not a data-dependent op");
}

TEST(DataDependentTest, BoundsFollowTheContract) {
  om::OpDef nms = OpBuilder("non_max_suppression")
                      .input(om::DT_FLOAT, {2, 6, 4})
                      .input(om::DT_FLOAT, {2, 3, 6});
  ASSERT_TRUE(upperBoundShapes(&nms).isOk());
  EXPECT_EQ(shapeOf(nms.output_desc(0)), (Shape{36, 3}));
  EXPECT_EQ(nms.output_desc(0).size(), 36 * 3 * 8);
  om::OpDef unique =
      OpBuilder("unique").input(om::DT_INT32, {3, 4, 5}).attr("axis", -2);
  ASSERT_TRUE(upperBoundShapes(&unique).isOk());
  ASSERT_EQ(unique.output_desc_size(), 4);
  EXPECT_EQ(shapeOf(unique.output_desc(0)), (Shape{3, 4, 5}));
  EXPECT_EQ(unique.output_desc(0).dtype(), om::DT_INT32);
  for (int k = 1; k < 4; ++k)
    EXPECT_EQ(shapeOf(unique.output_desc(k)), (Shape{4}));
  om::OpDef compress = OpBuilder("compress")
                           .input(om::DT_FLOAT, {3, 7})
                           .input(om::DT_BOOL, {5})
                           .attr("axis", 1);
  ASSERT_TRUE(upperBoundShapes(&compress).isOk());
  EXPECT_EQ(shapeOf(compress.output_desc(0)), (Shape{3, 5}));
  om::OpDef scalar = OpBuilder("non_zero").input(om::DT_INT64, {});
  ASSERT_TRUE(upperBoundShapes(&scalar).isOk());
  EXPECT_EQ(shapeOf(scalar.output_desc(0)), (Shape{1, 1}));
}

// --- non_zero ----------------------------------------------------------------

TEST(DataDependentTest, NonZeroOfEveryKindOfElement) {
  om::OpDef op = OpBuilder("non_zero");
  float nan = std::numeric_limits<float>::quiet_NaN();
  DdRun f = runOk(op, {tensor<float>({2, 3}, {0.f, -0.f, nan, 1.5f, 0.f, -2})});
  EXPECT_EQ(f.shapes[0], (Shape{2, 3}));
  EXPECT_EQ(f.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{0, 1, 1, 2, 0, 2}));
  DdRun b = runOk(op, {boolTensor({2, 2}, {0, 1, 1, 0})});
  EXPECT_EQ(b.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 1, 1, 0}));
  DdRun i = runOk(op, {tensor<int8_t>({2, 1, 2}, {0, -1, 0, 0})});
  EXPECT_EQ(i.shapes[0], (Shape{3, 1}));
  EXPECT_EQ(i.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 0, 1}));
  // float16 bits: -0 (0x8000) is zero, 1.0 (0x3c00) is not.
  HostTensor half = tensor<uint16_t>({3}, {0x8000, 0x3c00, 0});
  half.desc = makeDesc(om::DT_FLOAT16, {3});
  EXPECT_EQ(runOk(op, {half}).outputs[0].values<int64_t>(),
            (std::vector<int64_t>{1}));
  EXPECT_EQ(runOk(op, {tensor<int64_t>({}, {7})}).shapes[0], (Shape{1, 1}));
  EXPECT_EQ(runOk(op, {tensor<int32_t>({}, {0})}).shapes[0], (Shape{1, 0}));
  EXPECT_EQ(runOk(op, {tensor<float>({0, 3}, {})}).shapes[0], (Shape{2, 0}));
}

TEST(DataDependentTest, AnOutputOverTheDeclaredBoundIsAnError) {
  // The caller declared room for 2 of the 3 non-zeros.
  om::OpDef op = OpBuilder("non_zero", "nz")
                     .input(om::DT_INT32, {4})
                     .output(om::DT_INT64, {1, 2});
  EXPECT_EQ(errorOf(op, {tensor<int32_t>({4}, {1, 0, 2, 3})}, true),
            "node 'nz' (non_zero): output 0 needs [1,3], over its upper bound "
            "[1,2]");
  DdRun fits = runDd(op, {tensor<int32_t>({4}, {1, 0, 0, 3})}, true);
  ASSERT_TRUE(fits.status.isOk());
  EXPECT_EQ(fits.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 3}));
  om::OpDef unknown = OpBuilder("non_zero", "nz").input(om::DT_FLOAT, {-1, 2});
  EXPECT_EQ(upperBoundShapes(&unknown).message(),
            "node 'nz' (non_zero): input 0 has an unknown dim");
  // 2^58 elements fit, but not 41 int64 coordinates of each.
  std::vector<int64_t> dims(40, 2);
  dims.push_back(int64_t(1) << 18);
  om::OpDef huge = OpBuilder("non_zero", "nz").input(om::DT_UINT8, dims);
  EXPECT_EQ(upperBoundShapes(&huge).message(),
            "node 'nz' (non_zero): output 0 bound [41,288230376151711744] is "
            "too large");
  om::OpDef tooMany =
      OpBuilder("unique", "u").input(om::DT_FLOAT, {int64_t(1) << 40, 1 << 20});
  EXPECT_EQ(upperBoundShapes(&tooMany).message(),
            "node 'u' (unique): input 0 is too large");
}

// --- non_max_suppression -----------------------------------------------------

om::OpDef nmsOp(int center = 0) {
  return OpBuilder("non_max_suppression", "nms")
      .attr("center_point_box", center);
}

/// Three boxes, two overlapping (IOU 0.81), and their scores.
std::vector<HostTensor> nmsInputs(std::vector<float> scores, int64_t maxOut,
                                  float iou) {
  return {tensor<float>({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 5, 1, 6}),
          tensor<float>({1, 1, 3}, scores), tensor<int64_t>({1}, {maxOut}),
          tensor<float>({}, {iou})};
}

TEST(DataDependentTest, NmsVisitsEqualScoresInBoxOrder) {
  DdRun r = runOk(nmsOp(), nmsInputs({0.5f, 0.5f, 0.5f}, 10, 0.5f));
  EXPECT_EQ(r.shapes[0], (Shape{2, 3}));
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{0, 0, 0, 0, 0, 2}));
  // A higher score for box 1 makes it the one kept of the pair, first.
  r = runOk(nmsOp(), nmsInputs({0.5f, 0.6f, 0.1f}, 10, 0.5f));
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{0, 0, 1, 0, 0, 2}));
  // iou_threshold 0.9: the pair overlaps by 0.81 only, so all three stay.
  r = runOk(nmsOp(), nmsInputs({0.5f, 0.6f, 0.1f}, 10, 0.9f));
  EXPECT_EQ(r.shapes[0], (Shape{3, 3}));
  r = runOk(nmsOp(), nmsInputs({0.5f, 0.6f, 0.1f}, 1, 0.9f));
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 0, 1}));
}

TEST(DataDependentTest, NmsWithoutOptionalInputsOrANegativeCountSelectsNone) {
  auto in = nmsInputs({0.5f, 0.6f, 0.1f}, 10, 0.5f);
  EXPECT_EQ(runOk(nmsOp(), {in[0], in[1]}).shapes[0], (Shape{0, 3}));
  EXPECT_EQ(runOk(nmsOp(), nmsInputs({0.5f, 0.6f, 0.1f}, -4, 0.5f)).shapes[0],
            (Shape{0, 3}));
  // score_threshold keeps scores strictly above it.
  in.push_back(tensor<float>({1}, {0.5f}));
  EXPECT_EQ(runOk(nmsOp(), in).outputs[0].values<int64_t>(),
            (std::vector<int64_t>{0, 0, 1}));
  // An absent iou_threshold between present ones: 0, so any overlap
  // suppresses.
  in[3] = HostTensor{};
  in[4] = tensor<float>({1}, {0.f});
  EXPECT_EQ(runOk(nmsOp(), in).outputs[0].values<int64_t>(),
            (std::vector<int64_t>{0, 0, 1, 0, 0, 2}));
}

TEST(DataDependentTest, NmsCenterPointBoxesMatchCornerBoxes) {
  std::vector<float> corners = random(5 * 4, 7, 0.f, 1.f), centers;
  for (int i = 0; i < 5; ++i) {
    const float *c = &corners[i * 4]; // y1 x1 y2 x2, any diagonal
    centers.insert(centers.end(),
                   {(c[1] + c[3]) / 2, (c[0] + c[2]) / 2, std::abs(c[3] - c[1]),
                    std::abs(c[2] - c[0])});
  }
  std::vector<HostTensor> in = {tensor<float>({1, 5, 4}, corners),
                                tensor<float>({1, 2, 5}, random(10, 8)),
                                tensor<int64_t>({}, {5}),
                                tensor<float>({}, {0.1f})};
  DdRun a = runOk(nmsOp(0), in);
  in[0] = tensor<float>({1, 5, 4}, centers);
  DdRun b = runOk(nmsOp(1), in);
  EXPECT_GT(count(a.shapes[0]), 6);
  EXPECT_EQ(a.outputs[0].values<int64_t>(), b.outputs[0].values<int64_t>());
}

TEST(DataDependentTest, NmsBadOperandsAreOneLineErrors) {
  auto in = nmsInputs({0.5f, 0.6f, 0.1f}, 10, 1.5f);
  EXPECT_EQ(errorOf(nmsOp(), in),
            "node 'nms' (non_max_suppression): iou_threshold 1.500000 is "
            "outside [0, 1]");
  in = nmsInputs({0.5f, 0.6f, 0.1f}, 10, 0.5f);
  in[1] = tensor<float>({1, 1, 4}, {1, 2, 3, 4});
  EXPECT_EQ(errorOf(nmsOp(), in),
            "node 'nms' (non_max_suppression): boxes [1,3,4] and scores "
            "[1,1,4] are not [batches, boxes, 4] and [batches, classes, "
            "boxes]");
  in = nmsInputs({0.5f, 0.6f, 0.1f}, 10, 0.5f);
  in[2] = tensor<int32_t>({1}, {3});
  EXPECT_EQ(errorOf(nmsOp(), in),
            "node 'nms' (non_max_suppression): max_output_boxes_per_class "
            "must hold one int64, got int32[1]");
  EXPECT_EQ(errorOf(nmsOp(2), nmsInputs({0.5f, 0.6f, 0.1f}, 10, 0.5f)),
            "node 'nms' (non_max_suppression): center_point_box must be 0 or "
            "1, got 2");
}

// --- unique ------------------------------------------------------------------

TEST(DataDependentTest, UniqueUnsortedAlongANegativeAxis) {
  // Columns of [[1, 0, 1, 0], [2, 5, 2, 5]]: (1,2) (0,5) (1,2) (0,5).
  om::OpDef op = OpBuilder("unique").attr("axis", -1).attr("sorted", 0);
  HostTensor x = tensor<int64_t>({2, 4}, {1, 0, 1, 0, 2, 5, 2, 5});
  DdRun r = runOk(op, {x});
  EXPECT_EQ(r.shapes, (std::vector<Shape>{{2, 2}, {2}, {4}, {2}}));
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{1, 0, 2, 5}));
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(r.outputs[2].values<int64_t>(), (std::vector<int64_t>{0, 1, 0, 1}));
  EXPECT_EQ(r.outputs[3].values<int64_t>(), (std::vector<int64_t>{2, 2}));
  r = runOk(OpBuilder("unique").attr("axis", 1), {x});
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 1, 5, 2}));
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{1, 0}));
}

TEST(DataDependentTest, UniqueSortsNanLastAndCountsItOnce) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  DdRun r = runOk(OpBuilder("unique"),
                  {tensor<float>({6}, {nan, 2.f, -0.f, nan, 0.f, -1.f})});
  std::vector<float> y = r.outputs[0].values<float>();
  ASSERT_EQ(y.size(), 4u);
  EXPECT_EQ(y[0], -1.f);
  EXPECT_EQ(y[1], 0.f);
  EXPECT_EQ(y[2], 2.f);
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{5, 2, 1, 0}));
  EXPECT_EQ(r.outputs[3].values<int64_t>(), (std::vector<int64_t>{1, 2, 1, 2}));
}

TEST(DataDependentTest, UniqueWritesOnlyTheOutputsItHasBuffersFor) {
  om::OpDef op = OpBuilder("unique", "u").input(om::DT_UINT8, {5});
  ASSERT_TRUE(upperBoundShapes(&op).isOk());
  HostTensor x = tensor<uint8_t>({5}, {3, 3, 1, 9, 1});
  std::vector<uint8_t> y(5, 0xAB);
  TensorView in = {x.bytes.data(), &x.desc};
  TensorView out[4] = {{y.data(), nullptr}, {}, {}, {}};
  std::vector<std::vector<int64_t>> shapes;
  ASSERT_TRUE(runDataDependent(op, &in, out, &shapes).isOk());
  EXPECT_EQ(shapes, (std::vector<Shape>{{3}, {3}, {5}, {3}}));
  EXPECT_EQ(y, (std::vector<uint8_t>{1, 3, 9, 0xAB, 0xAB}));
  om::OpDef bad = OpBuilder("unique", "u").attr("axis", 2);
  EXPECT_EQ(errorOf(bad, {x}),
            "node 'u' (unique): axis 2 is out of range for rank 1");
}

// --- compress ----------------------------------------------------------------

TEST(DataDependentTest, CompressWithAShortOrLongCondition) {
  HostTensor x = tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  om::OpDef byAxis = OpBuilder("compress", "c").attr("axis", -1);
  DdRun r = runOk(byAxis, {x, boolTensor({2}, {0, 1})});
  EXPECT_EQ(r.shapes[0], (Shape{2, 1}));
  EXPECT_EQ(r.outputs[0].values<float>(), (std::vector<float>{2, 5}));
  // Longer than the axis: fine while nothing past it is selected.
  r = runOk(byAxis, {x, boolTensor({5}, {1, 0, 1, 0, 0})});
  EXPECT_EQ(r.outputs[0].values<float>(), (std::vector<float>{1, 3, 4, 6}));
  EXPECT_EQ(errorOf(byAxis, {x, boolTensor({5}, {1, 0, 1, 1, 0})}),
            "node 'c' (compress): condition selects index 3, past the extent "
            "3");
  r = runOk(OpBuilder("compress"), {x, boolTensor({5}, {0, 0, 0, 1, 1})});
  EXPECT_EQ(r.outputs[0].values<float>(), (std::vector<float>{4, 5}));
  r = runOk(byAxis, {x, boolTensor({3}, {0, 0, 0})});
  EXPECT_EQ(r.shapes[0], (Shape{2, 0}));
}

TEST(DataDependentTest, CompressBadOperandsAreOneLineErrors) {
  HostTensor x = tensor<int16_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  om::OpDef op = OpBuilder("compress", "c").attr("axis", 0);
  EXPECT_EQ(errorOf(op, {x, tensor<int32_t>({2}, {1, 0})}),
            "node 'c' (compress): condition must be a 1-D bool tensor, got "
            "int32[2]");
  EXPECT_EQ(errorOf(op, {x, boolTensor({1, 2}, {1, 0})}),
            "node 'c' (compress): condition must be a 1-D bool tensor, got "
            "bool[1,2]");
  EXPECT_EQ(errorOf(OpBuilder("compress", "c").attr("axis", -3),
                    {x, boolTensor({2}, {1, 0})}),
            "node 'c' (compress): axis -3 is out of range for rank 2");
  EXPECT_EQ(errorOf(op, {x}),
            "node 'c' (compress): takes 2 inputs (input, condition)");
}

} // namespace
