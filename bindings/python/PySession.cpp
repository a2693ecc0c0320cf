//===- PySession.cpp - geflow.InferenceSession ----------------------------===//
//
// ONNX Runtime's shape of API over one exec::LoadedModel on its own simulated
// device: InferenceSession(path_or_bytes) takes an .om file, OM bytes, or an
// .onnx file compiled in memory; run(output_names, input_feed) returns numpy
// arrays. Inputs of the right dtype that are C-contiguous are read in place
// and the outputs are numpy arrays the executor writes into, so a run copies
// nothing on the host. The GIL is released while the model runs, and
// LoadedModel allows concurrent executions, so threads may share a session.
//
//===----------------------------------------------------------------------===//

#include "bindings/python/PyGeflow.h"

#include "executor/model/OmFormat.h"
#include "executor/model/OmModel.h"
#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "runtime/soc/CostModel.h"
#include "tools/driver/RuntimeShapesCompile.h"
#include "tools/geflow/profile/Profile.h"

#include "llvm/Support/Path.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <mutex>
#include <optional>
#include <thread>

namespace py = pybind11;
using namespace geflow;
using python::GeflowError;

namespace {

/// ONNX Runtime's type name and numpy's dtype of an OM data type.
struct TypeNames {
  om::DataType dtype;
  const char *onnx;
  const char *numpy;
};
constexpr TypeNames kTypes[] = {
    {om::DT_FLOAT, "tensor(float)", "<f4"},
    {om::DT_FLOAT16, "tensor(float16)", "<f2"},
    {om::DT_DOUBLE, "tensor(double)", "<f8"},
    {om::DT_INT8, "tensor(int8)", "i1"},
    {om::DT_UINT8, "tensor(uint8)", "u1"},
    {om::DT_INT16, "tensor(int16)", "<i2"},
    {om::DT_UINT16, "tensor(uint16)", "<u2"},
    {om::DT_INT32, "tensor(int32)", "<i4"},
    {om::DT_UINT32, "tensor(uint32)", "<u4"},
    {om::DT_INT64, "tensor(int64)", "<i8"},
    {om::DT_UINT64, "tensor(uint64)", "<u8"},
    {om::DT_BOOL, "tensor(bool)", "?"},
};

const TypeNames &typeNames(om::DataType dtype) {
  for (const TypeNames &t : kTypes)
    if (t.dtype == dtype)
      return t;
  throw GeflowError("data type " + om::DataType_Name(dtype) +
                    " has no numpy counterpart");
}

/// "float32[1,3,224,224]", for messages.
std::string describe(const py::dtype &dtype,
                     const std::vector<int64_t> &shape) {
  std::string text = dtype.attr("name").cast<std::string>() + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

/// One input or output as ONNX Runtime's NodeArg shows it; a dimension that
/// differs between gears is None.
struct NodeArg {
  std::string name;
  std::vector<std::optional<int64_t>> shape;
  std::string type;
};

std::vector<NodeArg> nodeArgs(const std::vector<exec::TensorInfo> &infos,
                              const std::vector<exec::Shapes> &gearShapes) {
  std::vector<NodeArg> args;
  for (size_t i = 0; i < infos.size(); ++i) {
    NodeArg arg{infos[i].name, {}, typeNames(infos[i].dtype).onnx};
    for (size_t d = 0; d < infos[i].shape.size(); ++d) {
      std::optional<int64_t> dim = infos[i].shape[d];
      for (const exec::Shapes &gear : gearShapes)
        if (gear[i].size() != infos[i].shape.size() || gear[i][d] != *dim)
          dim.reset();
      arg.shape.push_back(dim);
    }
    args.push_back(std::move(arg));
  }
  return args;
}

class InferenceSession {
public:
  InferenceSession(const py::object &model, std::optional<std::string> soc,
                   std::optional<int> threads, bool sanitize);

  const std::vector<NodeArg> &inputs() const { return inputs_; }
  const std::vector<NodeArg> &outputs() const { return outputs_; }
  py::list run(const py::object &outputNames, const py::dict &feed);
  py::tuple runWithProfile(const py::object &outputNames, const py::dict &feed);

private:
  /// Executes once and returns the requested outputs; `stats` may be null.
  py::list execute(const py::object &outputNames, const py::dict &feed,
                   exec::ExecutionStats *stats);
  /// The device's records of the last execution as profile.summarize sees them.
  py::object profileSummary();

  // Destroyed in reverse: the model before the device it runs on.
  std::unique_ptr<rt::Device> device_;
  std::unique_ptr<exec::LoadedModel> model_;
  std::vector<NodeArg> inputs_, outputs_;
  std::mutex profileMu_; // one profiled execution at a time
};

InferenceSession::InferenceSession(const py::object &model,
                                   std::optional<std::string> soc,
                                   std::optional<int> threads, bool sanitize) {
  std::unique_ptr<om::LoadedOm> om;
  std::string source = "<bytes>";
  if (py::isinstance<py::bytes>(model)) {
    std::string bytes = model.cast<std::string>();
    py::gil_scoped_release release;
    python::throwIfError(om::loadOmBytes(bytes, source, &om));
  } else {
    source = py::str(py::module_::import("os").attr("fspath")(model))
                 .cast<std::string>();
    py::gil_scoped_release release;
    if (llvm::sys::path::extension(source).equals_insensitive(".onnx"))
      python::throwIfError(om::loadOmBytes(
          python::compileOnnxToBytes(source, soc.value_or("ascend910b-sim")),
          source, &om));
    else
      python::throwIfError(om::loadOmFile(source, &om));
  }
  if (driver::hasRuntimeShapes(om->modelDef()))
    throw GeflowError("'" + source +
                      "': a model with shapes known only at run time runs "
                      "with `geflow run`, not yet in InferenceSession");
  if (threads && *threads < 1)
    throw GeflowError("threads must be at least 1");
  rt::DeviceOptions options;
  options.soc = om->socName();
  // N host threads are N-1 workers plus the calling one (as `geflow run`).
  options.workerThreads =
      threads ? *threads - 1
              : static_cast<int>(
                    std::max(1u, std::thread::hardware_concurrency())) -
                    1;
  options.sanitize = sanitize;
  python::throwIfError(rt::Device::create(options, &device_));
  python::throwIfError(exec::LoadedModel::create(
      exec::makeDeviceTarget(*device_), std::move(om), source, &model_));
  inputs_ = nodeArgs(model_->inputs(), model_->gearInputShapes());
  outputs_ = nodeArgs(model_->outputs(), model_->gearOutputShapes());
}

py::list InferenceSession::execute(const py::object &outputNames,
                                   const py::dict &feed,
                                   exec::ExecutionStats *stats) {
  // The inputs, in the model's order, each as an array of its dtype.
  std::vector<py::array> arrays;
  exec::Shapes shapes;
  for (const exec::TensorInfo &info : model_->inputs()) {
    py::str key(info.name);
    py::dtype dtype(typeNames(info.dtype).numpy);
    if (!feed.contains(key))
      throw GeflowError("input '" + info.name + "' (" +
                        describe(dtype, info.shape) + ") is missing");
    py::array array = py::array::ensure(feed[key], py::array::c_style);
    if (!array)
      throw GeflowError("input '" + info.name + "': not an array");
    shapes.emplace_back(array.shape(), array.shape() + array.ndim());
    if (array.dtype().kind() != dtype.kind() ||
        array.dtype().itemsize() != dtype.itemsize())
      throw GeflowError("input '" + info.name + "': expected " +
                        describe(dtype, info.shape) + ", given " +
                        describe(array.dtype(), shapes.back()));
    arrays.push_back(std::move(array));
  }
  if (feed.size() != arrays.size())
    for (const auto &[name, value] : feed)
      if (llvm::none_of(model_->inputs(), [&](const exec::TensorInfo &info) {
            return info.name == py::str(name).cast<std::string>();
          }))
        throw GeflowError("the model has no input named '" +
                          py::str(name).cast<std::string>() + "'");
  size_t gear = 0;
  if (model_->hasGears()) {
    int found = model_->findGear(shapes);
    if (found < 0)
      throw GeflowError("no gear takes these input shapes; gears: " +
                        model_->describeGears());
    gear = found;
  } else {
    for (size_t i = 0; i < shapes.size(); ++i)
      if (shapes[i] != model_->inputs()[i].shape)
        throw GeflowError(
            "input '" + model_->inputs()[i].name + "': expected " +
            describe(arrays[i].dtype(), model_->inputs()[i].shape) +
            ", given " + describe(arrays[i].dtype(), shapes[i]));
  }

  std::vector<py::array> results;
  std::vector<exec::Buffer> in, out;
  for (py::array &array : arrays)
    in.push_back({const_cast<void *>(array.data()),
                  static_cast<size_t>(array.nbytes())});
  for (const exec::TensorInfo &info : model_->outputs(gear)) {
    results.emplace_back(py::dtype(typeNames(info.dtype).numpy), info.shape);
    out.push_back({results.back().mutable_data(),
                   static_cast<size_t>(results.back().nbytes())});
  }
  rt::Status status;
  {
    py::gil_scoped_release release;
    status = model_->execute(in, out, stats, gear);
  }
  python::throwIfError(status);

  py::list selected;
  const std::vector<exec::TensorInfo> &infos = model_->outputs(gear);
  if (outputNames.is_none()) {
    for (py::array &array : results)
      selected.append(array);
    return selected;
  }
  for (const py::handle name : outputNames) {
    std::string wanted = py::str(name).cast<std::string>();
    auto it = llvm::find_if(infos, [&](const exec::TensorInfo &info) {
      return info.name == wanted;
    });
    if (it == infos.end())
      throw GeflowError("the model has no output named '" + wanted + "'");
    selected.append(results[it - infos.begin()]);
  }
  return selected;
}

py::list InferenceSession::run(const py::object &outputNames,
                               const py::dict &feed) {
  return execute(outputNames, feed, nullptr);
}

py::tuple InferenceSession::runWithProfile(const py::object &outputNames,
                                           const py::dict &feed) {
  std::unique_lock<std::mutex> lock(profileMu_, std::defer_lock);
  {
    py::gil_scoped_release release;
    lock.lock();
  }
  // Traced for this execution only (unless ACL_RUNTIME_TRACE keeps it on):
  // a session's records would otherwise grow with every run.
  bool traced = device_->traceEnabled();
  device_->clearTrace();
  device_->setTraceEnabled(true);
  exec::ExecutionStats stats;
  py::list outputs;
  try {
    outputs = execute(outputNames, feed, &stats);
  } catch (...) {
    device_->setTraceEnabled(traced);
    throw;
  }
  device_->setTraceEnabled(traced);
  py::object summary = profileSummary();
  device_->clearTrace();
  summary["device_time_us"] = stats.deviceTimeNs / 1000.0;
  return py::make_tuple(outputs, summary);
}

py::object InferenceSession::profileSummary() {
  profile::Timeline timeline;
  timeline.model = model_->name();
  timeline.soc = model_->om().socName();
  std::vector<rt::StreamId> streams = model_->streamIds();
  timeline.streamCount = static_cast<uint32_t>(streams.size());
  timeline.records = profile::toModelStreams(device_->traceRecords(), streams);
  rt::CostModel cost(device_->spec());
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    timeline.groupCores[g] = cost.groupSize(static_cast<rt::CoreGroup>(g));
  std::string json = profile::summarize(timeline).dump();
  return py::module_::import("json").attr("loads")(json);
}

} // namespace

void python::bindSession(py::module_ &m) {
  py::class_<NodeArg>(m, "NodeArg")
      .def_readonly("name", &NodeArg::name)
      .def_readonly("shape", &NodeArg::shape)
      .def_readonly("type", &NodeArg::type)
      .def("__repr__", [](const NodeArg &a) {
        return "NodeArg(name='" + a.name + "', type='" + a.type +
               "', shape=" + py::repr(py::cast(a.shape)).cast<std::string>() +
               ")";
      });
  py::class_<InferenceSession>(m, "InferenceSession")
      .def(py::init<const py::object &, std::optional<std::string>,
                    std::optional<int>, bool>(),
           py::arg("path_or_bytes"), py::kw_only(), py::arg("soc") = py::none(),
           py::arg("threads") = py::none(), py::arg("sanitize") = false)
      .def("get_inputs", &InferenceSession::inputs)
      .def("get_outputs", &InferenceSession::outputs)
      .def("run", &InferenceSession::run, py::arg("output_names"),
           py::arg("input_feed"))
      .def("run_with_profile", &InferenceSession::runWithProfile,
           py::arg("output_names"), py::arg("input_feed"));
}
