//===- OnnxImporter.cpp - the frontend's public entry points --------------===//

#include "frontends/onnx/OnnxImporter.h"
#include "frontends/onnx/ContainedLibOnnx.h"
#include "frontends/onnx/GraphImporter.h"
#include "frontends/onnx/ModelLoader.h"
#include "frontends/onnx/OpTable.h"
#include "frontends/onnx/ShapeRefinement.h"

#include "ir/GeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <exception>

using namespace geflow;
using namespace geflow::onnxfe;

void geflow::registerOnnxImportDialects(mlir::MLIRContext &context) {
  context.loadDialect<mlir::ge::GeDialect, mlir::func::FuncDialect>();
}

bool geflow::isOnnxOpSupported(llvm::StringRef opType) {
  return lookupOpSpec(opType) != nullptr;
}

llvm::Expected<std::vector<InputShape>>
geflow::parseInputShapeOption(llvm::StringRef value) {
  std::vector<InputShape> shapes;
  llvm::SmallVector<llvm::StringRef> entries;
  // Spaces separate entries; ';' too, as GE's --input_shape writes them.
  value.split(entries, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  llvm::SmallVector<llvm::StringRef> all;
  for (llvm::StringRef entry : entries)
    entry.split(all, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef entry : all) {
    entry = entry.trim();
    if (entry.empty())
      continue;
    auto bad = [&](const llvm::Twine &why) {
      return makeError("invalid --input-shape '" + entry + "': " + why +
                       " (expected name:d0,d1,...)");
    };
    size_t colon = entry.rfind(':');
    if (colon == llvm::StringRef::npos)
      return bad("no ':'");
    llvm::StringRef name = entry.take_front(colon);
    llvm::StringRef dimsText = entry.drop_front(colon + 1);
    if (name.empty())
      return bad("empty input name");
    std::vector<int64_t> dims;
    if (!dimsText.empty()) {
      llvm::SmallVector<llvm::StringRef> parts;
      dimsText.split(parts, ',', -1, /*KeepEmpty=*/true);
      for (llvm::StringRef part : parts) {
        int64_t dim;
        if (part.trim().getAsInteger(10, dim) || dim < -1)
          return bad("'" + part + "' is not a dimension >= 0 or -1");
        dims.push_back(dim);
      }
    }
    shapes.emplace_back(name.str(), std::move(dims));
  }
  if (shapes.empty())
    return makeError("invalid --input-shape '" + value +
                     "': expected name:d0,d1,...");
  return shapes;
}

/// importOnnxModel, with the raw_data of large initializers in `mapped` when
/// it is given.
static llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importParsedModel(mlir::MLIRContext &context, onnx::ModelProto &model,
                  llvm::StringRef sourceName, const OnnxImportOptions &options,
                  const MappedTensors *mapped) {
  registerOnnxImportDialects(context);
  try {
    // The initializers are converted while the contained process infers.
    ConvertedInitializers converted;
    auto convert = [&] { converted.convert(context, model.graph(), mapped); };
    if (auto err = prepareModel(model, options, sourceName, convert))
      return std::move(err);
    if (options.fold) {
      mlir::TimingScope refinement(
          options.timing ? options.timing->nest("shape refinement")
                         : mlir::Timer());
      if (auto err = refineShapesByFolding(context, model, sourceName))
        return std::move(err);
    }
    return importPreparedModel(context, model, sourceName, options, mapped,
                               &converted);
  } catch (const std::exception &e) {
    // prepareModel catches libonnx's exceptions itself; this is the last guard
    // so that nothing escapes the library (std::bad_alloc, protobuf internals).
    return makeError("'" + sourceName + "': import failed: " + e.what());
  }
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
geflow::importOnnxModel(mlir::MLIRContext &context, onnx::ModelProto model,
                        llvm::StringRef sourceName,
                        const OnnxImportOptions &options) {
  return importParsedModel(context, model, sourceName, options, nullptr);
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
geflow::importOnnxBytes(mlir::MLIRContext &context, llvm::StringRef bytes,
                        llvm::StringRef sourceName,
                        const OnnxImportOptions &options) {
  auto model = parseModel(bytes, sourceName);
  if (!model)
    return model.takeError();
  return importOnnxModel(context, std::move(*model), sourceName, options);
}

llvm::Expected<ReadOnnxFile>
geflow::readOnnxFile(llvm::StringRef path, const OnnxImportOptions &options) {
  // Before the model is in memory: the child then shares few pages with us
  // (startContainedProcess says why that matters).
  onnxfe::startContainedProcess();
  mlir::TimingScope timing(options.timing ? options.timing->nest("read model")
                                          : mlir::Timer());
  ReadOnnxFile file;
  file.path = path.str();
  file.mapped = std::make_shared<MappedTensors>();
  try {
    llvm::Expected<onnx::ModelProto> model =
        readModelFileToImport(path, file.mapped.get(), options);
    if (!model)
      return model.takeError();
    file.model = std::make_shared<onnx::ModelProto>(std::move(*model));
  } catch (const std::exception &e) {
    return makeError("cannot read '" + path + "': " + e.what());
  }
  return file;
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
geflow::importReadOnnxFile(mlir::MLIRContext &context, ReadOnnxFile &file,
                           const OnnxImportOptions &options) {
  return importParsedModel(context, *file.model, file.path, options,
                           file.mapped.get());
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
geflow::importOnnxFile(mlir::MLIRContext &context, llvm::StringRef path,
                       const OnnxImportOptions &options) {
  llvm::Expected<ReadOnnxFile> file = readOnnxFile(path, options);
  if (!file)
    return file.takeError();
  return importReadOnnxFile(context, *file, options);
}
