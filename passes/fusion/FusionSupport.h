//===- FusionSupport.h - what the fusion patterns share ---------*- C++ -*-===//
//
// The pieces every cube-op fusion needs: reading a `ge.constant` operand as
// floats, constant arithmetic with numpy broadcasting (to fold a bias or a
// batch norm into weights), recognising an activation the fused ops apply,
// and building an op of another name from an existing op's attributes.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_FUSION_FUSIONSUPPORT_H
#define GEFLOW_PASSES_FUSION_FUSIONSUPPORT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace geflow::passes::fusion {

/// A float32 constant: its values (row-major) and shape.
struct FloatConstant {
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<float> values;
};

/// The values of `v` when a constant op defines it with a float32 dense
/// value, else nullopt.
std::optional<FloatConstant> getFloatConstant(mlir::Value v);

/// `fn(a, b)` elementwise with numpy broadcasting; nullopt when the shapes do
/// not broadcast.
std::optional<FloatConstant>
broadcastCombine(const FloatConstant &a, const FloatConstant &b,
                 llvm::function_ref<float(float, float)> fn);

/// A `ge.constant` holding `c` (f32).
mlir::Value createConstant(mlir::PatternRewriter &rewriter, mlir::Location loc,
                           const FloatConstant &c);

/// The per-channel vector of a constant that broadcasts along axis `axis` of
/// a result of rank `rank` with `channels` channels (every other dim 1, e.g.
/// [M, 1, 1] or [1, M, 1, 1] for a conv's output, [N] or [1, N] for a gemm's);
/// a single element repeats. nullopt for any other shape.
std::optional<llvm::SmallVector<float>> perChannelValues(const FloatConstant &c,
                                                         int64_t rank,
                                                         int64_t axis,
                                                         int64_t channels);

/// The cube op families a bias, an activation or a batch norm folds into.
enum class CubeKind { kConv, kGemm, kMatMul };

/// The family of `op` when it is conv/gemm/matmul or their fused form with no
/// activation yet (anything after an activation would not commute with it).
std::optional<CubeKind> cubeKind(mlir::Operation *op);

/// A cube op's bias operand (conv B, gemm C, fused_matmul bias), or null.
mlir::Value cubeBias(mlir::Operation *op);

/// fused_conv's residual Z, or null.
mlir::Value cubeResidual(mlir::Operation *op);

/// The fused form (ge.fused_conv / fused_gemm / fused_matmul) of `cube` at
/// `loc`: its first two operands, `weight` in place of the second when given,
/// `bias` (null: none), `residual` (conv only, null: none), and its attributes
/// overridden by `attrs`. Replaces nothing.
mlir::Operation *
createFusedCube(mlir::PatternRewriter &rewriter, mlir::Location loc,
                mlir::Operation *cube, mlir::Value weight, mlir::Value bias,
                mlir::Value residual,
                llvm::ArrayRef<mlir::NamedAttribute> attrs = {});

/// An activation the fused cube ops apply, in their `activation` /
/// `activation_params` form (ir/GeFusedOps.td).
struct Activation {
  std::string name;
  llvm::SmallVector<float, 2> params;
};

/// The activation `op` computes, when the op table says it may end a fused
/// cube op (ir/GeOpTable.def, Act): its float attributes as params, clip
/// with constant (or absent) bounds, gelu as "gelu" or "gelu_tanh" by its
/// approximate. nullopt otherwise.
std::optional<Activation> matchActivation(mlir::Operation *op);

/// The float attribute `name` of `op`, or `fallback` when it is absent
/// (ODS leaves a default-valued attribute out).
float floatAttrOr(mlir::Operation *op, llvm::StringRef name, float fallback);

/// The only user of `v`, when `v` has exactly one use: an op may absorb the
/// producer of `v` only then, or another user would lose its value.
mlir::Operation *soleUser(mlir::Value v);

/// Whether a fused op's `activation` attribute is absent or "none".
bool hasNoActivation(mlir::Operation *op);

/// Creates an op named `name` at `loc` (the rewriter's insertion point) with
/// `operands`, `source`'s attributes (segment sizes dropped) overridden by
/// `attrs`, and `source`'s result types. `segments` gives the operand segment
/// sizes when the new op has optional operands in the middle.
mlir::Operation *createLike(mlir::PatternRewriter &rewriter, mlir::Location loc,
                            mlir::Operation *source, llvm::StringRef name,
                            mlir::ValueRange operands,
                            llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                            llvm::ArrayRef<int32_t> segments = {});

/// `activation` (and its params, when any) as attributes of a fused op.
llvm::SmallVector<mlir::NamedAttribute, 2>
activationAttrs(mlir::Builder &builder, const Activation &activation);

/// A location naming both ops (the first one's name is what dumps show).
mlir::Location fusedLoc(mlir::Operation *first, mlir::Operation *second);

/// The greedy driver's configuration for every pattern pass of the pipeline.
/// Region simplification is off: a function is one block, and the driver
/// itself erases the ops that die, so the simplifier would only walk the
/// graph again after every iteration (a tenth of a 100k-op compile).
inline mlir::GreedyRewriteConfig graphRewriteConfig() {
  mlir::GreedyRewriteConfig config;
  config.enableRegionSimplification = mlir::GreedySimplifyRegionLevel::Disabled;
  return config;
}

/// applyPatternsAndFoldGreedily, unless no op under `root` is of a kind one
/// of the (native) `patterns` is rooted at. Such a run would match nothing,
/// and the pipeline's earlier greedy runs have already folded the graph and
/// erased its dead ops, so it would change nothing; on a 100k-op graph it
/// costs a tenth of a second just walking and folding. A pattern rooted at
/// any op always runs.
mlir::LogicalResult applyPatternsWhereRooted(
    mlir::Operation *root, mlir::RewritePatternSet &&patterns,
    mlir::GreedyRewriteConfig config = graphRewriteConfig());

/// Applies `Patterns` greedily to `root`, as every fusion pass does. Not
/// converging within the driver's iteration cap leaves a correct, partly
/// rewritten function: no reason to fail the compile.
template <typename... Patterns>
void applyFusionPatterns(mlir::Operation *root) {
  mlir::RewritePatternSet patterns(root->getContext());
  patterns.add<Patterns...>(root->getContext());
  (void)applyPatternsWhereRooted(root, std::move(patterns));
}

} // namespace geflow::passes::fusion

#endif // GEFLOW_PASSES_FUSION_FUSIONSUPPORT_H
