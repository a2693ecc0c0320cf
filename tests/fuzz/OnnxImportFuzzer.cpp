//===- OnnxImportFuzzer.cpp - bytes -> ONNX import -> verify
//----------------===//
//
// The bytes are a serialized ModelProto, as a downloaded .onnx file would be.
// The importer parses it, converts its opset, infers shapes, builds ge ops and
// folds them; whatever it returns must be an error or a module that verifies.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/OnnxImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "google/protobuf/stubs/logging.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // protobuf logs every malformed string field; the statuses say enough.
  static const bool protobufQuiet =
      (google::protobuf::SetLogHandler(nullptr), true);
  (void)protobufQuiet;
  // A fresh context per input: interned attributes (constants) would
  // otherwise pile up over millions of inputs. No threads: one input at a time.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler dropDiagnostics(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto module = geflow::importOnnxBytes(context, bytes, "fuzz.onnx");
  if (!module) {
    llvm::consumeError(module.takeError());
    return 0;
  }
  if (mlir::failed(mlir::verify(module->get())))
    std::abort(); // the importer promised a module that verifies
  return 0;
}
