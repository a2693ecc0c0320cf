//===- ToolContext.h - what every geflow subcommand sets up -----*- C++ -*-===//

#ifndef GEFLOW_TOOLS_GEFLOW_TOOLCONTEXT_H
#define GEFLOW_TOOLS_GEFLOW_TOOLCONTEXT_H

#include "executor/model/om.pb.h"
#include "frontends/onnx/OnnxImporter.h"
#include "runtime/support/Status.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace geflow::cli {

/// The dialects geflow's IR is made of: ge, func, arith.
mlir::DialectRegistry makeDialectRegistry();

/// Prints `module` to `path` ("-": stdout), atomically, with constants of
/// more than `elideOver` elements elided (0: none); `withLocations` prints
/// each op's location (its node name) too.
llvm::Error writeModule(mlir::ModuleOp module, llvm::StringRef path,
                        unsigned elideOver, bool withLocations = false);
/// The text writeModule writes.
std::string moduleText(mlir::ModuleOp module, unsigned elideOver,
                       bool withLocations = false);

/// Writes `text` to `path` ("-": stdout) through om::OutputFiles: a
/// temporary renamed into place, nothing left on an error.
llvm::Error writeTextOutput(llvm::StringRef path, llvm::StringRef text);

/// A gear's values as ATC writes them, "1,16"; shapes as "[1,3,224,224]",
/// space-separated.
std::string dimsText(const google::protobuf::RepeatedField<int64_t> &dims);
std::string
shapesText(const google::protobuf::RepeatedPtrField<om::ShapeDef> &shapes);

/// `error` as it reads for the model `modelPath`: "'m.onnx': <message>",
/// unless the message names the model already, or another file of the command
/// (`otherFiles`: a stream plan, a SoC spec, a dump folder), or is about a
/// flag ("--no-fuse: ...").
llvm::Error inModelFile(llvm::Error error, llvm::StringRef modelPath,
                        llvm::ArrayRef<std::string> otherFiles = {});

/// A runtime status as an error.
llvm::Error toError(const rt::Status &status);

/// The instruction set the host kernels run on, as `geflow run` and
/// profiles report it: "avx512", or "avx2+fma (GEFLOW_ISA; the CPU runs
/// avx512)" when the environment capped it, so a benchmark says which
/// kernels it measured.
std::string hostIsaText();

/// Builds import options from the repeated `--input-shape` values.
llvm::Expected<OnnxImportOptions>
parseImportOptions(const std::vector<std::string> &inputShapeValues);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_TOOLCONTEXT_H
