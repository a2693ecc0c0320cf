//===- PyCompile.cpp - geflow.compile -------------------------------------===//
//
// geflow.compile(onnx_path, output=None, *, soc, streams, input_shape,
// dynamic_batch_size, stream_plan, no_fuse) compiles as `geflow compile`
// does -- the same driver calls, gears when dynamic_batch_size is given, and
// CANN's DUMP_GE_GRAPH switches (tools/driver/DumpEnv.h) -- and returns the
// OM path, or the OM bytes when `output` is None. Python values are turned
// into the CLI's option strings, so the CLI's parsers judge them.
//
//===----------------------------------------------------------------------===//

#include "bindings/python/PyGeflow.h"

#include "tools/driver/CompileDriver.h"
#include "tools/driver/DumpEnv.h"
#include "tools/driver/Gears.h"
#include "tools/driver/RuntimeShapesCompile.h"

#include "executor/model/OmFormat.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace geflow;

namespace {

/// "a,b,c" from a str or a sequence of str/int (None: "").
std::string joined(const py::object &value, const char *separator = ",") {
  if (value.is_none())
    return "";
  if (py::isinstance<py::str>(value))
    return value.cast<std::string>();
  std::string text;
  for (const py::handle item : value) {
    text += text.empty() ? "" : separator;
    text += py::str(item).cast<std::string>();
  }
  return text;
}

/// --input-shape's text from "name:1,3,224,224", a list of such strings or
/// {name: dims}.
std::string inputShapeText(const py::object &value) {
  if (!py::isinstance<py::dict>(value))
    return joined(value, " ");
  std::string text;
  for (const auto &[name, dims] : value.cast<py::dict>()) {
    text += text.empty() ? "" : " ";
    text += py::str(name).cast<std::string>() + ":" +
            joined(py::reinterpret_borrow<py::object>(dims));
  }
  return text;
}

struct PyCompileArgs {
  std::string soc = "ascend910b-sim";
  std::string streams = "auto";
  std::string inputShape;
  std::string dynamicBatchSize;
  std::string streamPlan;
  std::string noFuse;
};

/// The driver's options for `args`, as `geflow compile` sets them.
driver::CompileOptions compileOptions(const PyCompileArgs &args) {
  driver::CompileOptions options;
  options.soc = args.soc;
  std::optional<passes::StreamMode> mode =
      passes::parseStreamMode(args.streams);
  if (!mode)
    throw python::GeflowError("streams='" + args.streams +
                              "': expected 'single', 'label' or 'auto'");
  options.streamMode = *mode;
  options.streamPlanPath = args.streamPlan;
  if (!args.inputShape.empty()) {
    auto shapes = parseInputShapeOption(args.inputShape);
    if (!shapes)
      python::throwIfError(shapes.takeError());
    options.import.inputShapes = std::move(*shapes);
  }
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(args.noFuse).split(names, ',');
  for (llvm::StringRef name : names)
    if (!name.trim().empty())
      options.disabledFusions.push_back(name.trim().str());
  python::throwIfError(driver::applyDumpGraphEnv(options));
  return options;
}

/// Compiles `path`; the error names the file unless it already does.
om::OmModel compileFile(const std::string &path, const PyCompileArgs &args) {
  driver::CompileOptions options = compileOptions(args);
  driver::GearOptions gears{args.dynamicBatchSize, "", ""};
  auto result = gears.any()
                    ? driver::compileOnnxFileWithGears(path, options, gears)
                    : driver::compileOnnxFileAnyShapes(path, options);
  if (!result) {
    std::string message = llvm::toString(result.takeError());
    throw python::GeflowError(llvm::StringRef(message).contains(path)
                                  ? message
                                  : "'" + path + "': " + message);
  }
  return std::move(result->model);
}

std::string serialized(const om::OmModel &model) {
  std::string bytes;
  python::throwIfError(om::serializeOm(model, &bytes));
  return bytes;
}

py::object compile(const py::object &onnxPath, const py::object &output,
                   const std::string &soc, const std::string &streams,
                   const py::object &inputShape,
                   const py::object &dynamicBatchSize,
                   const py::object &streamPlan, const py::object &noFuse) {
  // str or os.PathLike, as open() takes.
  std::string path =
      py::str(py::module_::import("os").attr("fspath")(onnxPath));
  PyCompileArgs args;
  args.soc = soc;
  args.streams = streams;
  args.inputShape = inputShapeText(inputShape);
  args.dynamicBatchSize = joined(dynamicBatchSize);
  args.streamPlan = streamPlan.is_none() ? "" : py::str(streamPlan);
  args.noFuse = joined(noFuse);
  std::string outPath =
      output.is_none()
          ? ""
          : py::str(py::module_::import("os").attr("fspath")(output));
  std::string bytes;
  {
    py::gil_scoped_release release;
    om::OmModel model = compileFile(path, args);
    if (!outPath.empty())
      python::throwIfError(om::writeOmFile(model, outPath));
    else
      bytes = serialized(model);
  }
  if (!outPath.empty())
    return py::str(outPath);
  return py::bytes(bytes);
}

} // namespace

std::string python::compileOnnxToBytes(const std::string &path,
                                       const std::string &soc) {
  PyCompileArgs args;
  args.soc = soc;
  return serialized(compileFile(path, args));
}

void python::bindCompile(py::module_ &m) {
  m.def("compile", &compile, py::arg("onnx_path"),
        py::arg("output") = py::none(), py::kw_only(),
        py::arg("soc") = "ascend910b-sim", py::arg("streams") = "auto",
        py::arg("input_shape") = py::none(),
        py::arg("dynamic_batch_size") = py::none(),
        py::arg("stream_plan") = py::none(), py::arg("no_fuse") = py::none(),
        "Compiles an ONNX file as `geflow compile` does; returns the OM path, "
        "or the OM bytes when output is None.");
}
