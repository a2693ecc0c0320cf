//===- FusedElementwise.cpp - elementwise programs in one pass ------------===//
//
// fused_elementwise (ir/GeFusedOps.td: inputs, `steps`, `step_operands`,
// `step_params`), and gelu and swish, which are one-step programs.
//
// Block split: contiguous ranges of output elements (grain kGrain).
// Computation: each block walks its range in tiles of kTile elements. A tile
// reads its inputs (a full-shape input in place, a one-element input as a
// repeated value, a per-channel input -- constant over runs of whole planes,
// as a batch norm's scale -- as the repeated value of the tile's run, the
// tiles cut at the runs' ends; any other broadcast input gathered into a
// tile buffer),
// then runs every step over the tile with the row function of the standalone
// op (ElementwiseOps.h; gelu with the fused cube ops' activation), each step
// into its own tile buffer, the last one straight into the output. The
// intermediates stay in cache: memory sees the inputs once and the output once.
// A batch norm's program (x * scale + shift per channel, then relu, clip
// or nothing: DenseNet's, after its Concats) runs as one vector pass per
// channel's plane (vmath::scaleShift): the tile machinery's per-run costs
// were most of its time on 14x14 and 7x7 planes.
// Cost: the steps' FLOPs per element; bytes: inputs read plus output written.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/ElementwiseOps.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorMath.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <array>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

/// Elements per tile: every step's tile buffer stays in L1/L2.
constexpr int64_t kTile = 1024;
/// The shortest runs of a per-channel input taken as repeated values rather
/// than gathered: shorter runs would cut tiles too short.
constexpr int64_t kMinRun = 16;
/// Inputs plus steps of one program; the fusion pass stays far below.
constexpr size_t kMaxValues = 64;

/// A program value during one tile: `len` floats at `data`, or the one float
/// at `data` repeated along the tile.
struct Slot {
  const float *data = nullptr;
  bool repeat = false;
};

struct Step {
  UnaryFn unary = nullptr;
  BinaryRowFn binary = nullptr;
  nn::Activation activation; // gelu, gelu_tanh: kind != kNone
  UnaryParams params;
  int64_t a = 0, b = -1; // the values it reads
};

/// ONNX's defaults of the float attributes a step may take.
std::array<float, 2> defaultParams(const std::string &name) {
  const FloatParams *fp = findFloatParams(name);
  if (!fp)
    return {0.0f, 0.0f};
  return {fp->defaults[0], fp->defaults[1]};
}

/// Whether `name` is a step a program may take (the op table's Step).
bool isStep(const std::string &name) {
#define GE_ELEMENTWISE(Name, Onnx, Since, Family, Kernel, Types, Step, Act,    \
                       Import)                                                 \
  if (name == #Name)                                                           \
    return Step > 0;
#define GE_FORM(Form, FormOnnx, Name)                                          \
  if (name == #Form)                                                           \
    return isStep(#Name);
#include "ir/GeOpTable.def"
  return false;
}

/// Fills `step`'s function and parameters for op `name`; `flops` per element.
rt::Status parseStep(const om::OpDef &op, size_t index, const std::string &name,
                     std::array<float, 2> p, Step *step, double *flops) {
  auto bad = [&](const std::string &why) {
    return opError(op, "step " + std::to_string(index) + " (\"" + name +
                           "\") " + why);
  };
  if (!isStep(name))
    return bad("is not an elementwise op a program can run");
  if (name == "gelu" || name == "gelu_tanh") {
    step->activation.kind =
        name == "gelu" ? nn::Activation::kGelu : nn::Activation::kGeluTanh;
    *flops = 14;
    return rt::Status::ok();
  }
  if (name == "swish") {
    step->activation.kind = nn::Activation::kSwish;
    step->activation.a = p[0];
    *flops = 12;
    return rt::Status::ok();
  }
  if (const UnaryOpInfo *unary = findUnary(name)) {
    step->unary = unary->lookup(om::DT_FLOAT);
    if (!step->unary)
      return bad("does not take float32");
    *flops = unary->flops;
    UnaryParams &params = step->params;
    params.alpha = p[0];
    params.beta = p[1];
    params.gamma = p[1];
    params.hasLo = params.hasHi = name == "clip";
    params.lo = p[0];
    params.hi = p[1];
    return rt::Status::ok();
  }
  const BinaryOpInfo *binary = findBinary(name);
  if (!binary)
    return bad("is not an elementwise op a program can run");
  step->binary = binary->lookup(om::DT_FLOAT);
  *flops = binary->flops;
  return rt::Status::ok();
}

class FusedElementwiseKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<FusedElementwiseKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
    auto k =
        std::unique_ptr<FusedElementwiseKernel>(new FusedElementwiseKernel);
    k->n_ = numElements(op.output_desc(0));
    std::vector<int64_t> outShape = shapeOf(op.output_desc(0));
    for (const om::TensorDescriptor &in : op.input_desc()) {
      Input input;
      int64_t count = numElements(in);
      if (count == k->n_) {
        input.kind = Input::kFull;
      } else if (count == 1) {
        input.kind = Input::kScalar;
      } else if (input.runs = Runs(outShape, shapeOf(in));
                 input.runs.length >= kMinRun) {
        input.kind = Input::kRun;
        // Runs are products of trailing dims: the shorter divides the longer.
        k->run_ =
            k->run_ ? std::min(k->run_, input.runs.length) : input.runs.length;
      } else {
        input.kind = Input::kGather;
        input.gather = Broadcast(outShape, {shapeOf(in)});
        ++k->gathered_;
      }
      k->inputs_.push_back(std::move(input));
    }
    double flops = 0;
    if (op.type() == "gelu" || op.type() == "swish")
      GEFLOW_RT_RETURN_IF_ERROR(k->makeSingleStep(op, &flops));
    else
      GEFLOW_RT_RETURN_IF_ERROR(k->makeProgram(op, &flops));
    k->setPlan(op, k->n_, kGrain, flops * static_cast<double>(k->n_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    if (scaleShift_.x >= 0)
      return runScaleShift(inputs, outputs, r);
    float *buffers = nn::scratch((gathered_ + steps_.size()) * kTile);
    float *out = static_cast<float *>(outputs[0].data);
    const size_t numInputs = inputs_.size();
    std::array<Slot, kMaxValues> slots;
    for (int64_t pos = r.begin, len; pos < r.end; pos += len) {
      len = std::min(kTile, r.end - pos);
      if (run_)
        len = std::min(len, run_ - pos % run_);
      float *next = buffers;
      for (size_t i = 0; i < numInputs; ++i) {
        const float *in = static_cast<const float *>(inputs[i].data);
        switch (inputs_[i].kind) {
        case Input::kFull:
          slots[i] = {in + pos, false};
          break;
        case Input::kScalar:
          slots[i] = {in, true};
          break;
        case Input::kRun:
          slots[i] = {in + inputs_[i].runs.offsetAt(pos), true};
          break;
        case Input::kGather:
          gatherTile(inputs_[i].gather, in, pos, len, next);
          slots[i] = {next, false};
          next += kTile;
          break;
        }
      }
      for (size_t j = 0; j < steps_.size(); ++j) {
        bool last = j + 1 == steps_.size();
        float *dst = last ? out + pos : next + j * kTile;
        slots[numInputs + j] = runStep(steps_[j], slots, dst, len);
      }
      // A program of one-element inputs only has a repeated result.
      if (Slot result = slots[numInputs + steps_.size() - 1];
          result.repeat && len > 1)
        std::fill(out + pos, out + pos + len, *result.data);
    }
    return rt::Status::ok();
  }

private:
  /// An input constant over aligned runs of `length` output elements (the
  /// output's trailing dims where the input has size 1): the offset of the
  /// input element of output element `pos`, from the output's outer dims.
  struct Runs {
    Runs() = default;
    Runs(const std::vector<int64_t> &out, std::vector<int64_t> in) {
      in.insert(in.begin(), out.size() - std::min(out.size(), in.size()), 1);
      size_t outer = out.size();
      while (outer > 0 && in[outer - 1] == 1)
        length *= out[--outer];
      int64_t inStride = 1;
      for (size_t d = outer; d-- > 0;) {
        dims.push_back(out[d]);
        strides.push_back(in[d] == 1 ? 0 : inStride);
        inStride *= in[d];
      }
    }
    int64_t offsetAt(int64_t pos) const {
      int64_t at = pos / length, offset = 0;
      for (size_t d = 0; d < dims.size(); ++d) {
        offset += (at % dims[d]) * strides[d];
        at /= dims[d];
      }
      return offset;
    }
    int64_t length = 1;
    // The outer dims, innermost first, and the input's stride along each.
    std::vector<int64_t> dims, strides;
  };

  struct Input {
    enum Kind { kFull, kScalar, kRun, kGather } kind = kFull;
    Runs runs;        // kRun
    Broadcast gather; // kGather: output element -> input element
  };

  FusedElementwiseKernel() = default;

  /// A batch norm's program: x * scale + shift, then relu or clip or
  /// nothing, with x whole and scale and shift per channel (or scalars).
  struct ScaleShift {
    int64_t x = -1, scale = -1, shift = -1; // inputs; x < 0: not this program
    float lo = -std::numeric_limits<float>::infinity();
    float hi = std::numeric_limits<float>::infinity();
  };

  /// Whether the program is a ScaleShift, and which inputs play which part.
  void findScaleShift(const std::vector<std::string> &names,
                      const std::vector<int64_t> &refs,
                      const std::vector<float> &params) {
    const int64_t numInputs = static_cast<int64_t>(inputs_.size());
    auto isInput = [&](int64_t v, bool whole) {
      if (v < 0 || v >= numInputs)
        return false;
      const Input::Kind kind = inputs_[v].kind;
      return whole ? kind == Input::kFull
                   : kind == Input::kRun || kind == Input::kScalar;
    };
    if (names.size() < 2 || names.size() > 3 || names[0] != "mul" ||
        names[1] != "add")
      return;
    ScaleShift ss;
    for (int flip = 0; flip < 2; ++flip)
      if (isInput(refs[flip], true) && isInput(refs[1 - flip], false))
        ss.x = refs[flip], ss.scale = refs[1 - flip];
    for (int flip = 0; flip < 2; ++flip)
      if (refs[2 + flip] == numInputs && isInput(refs[3 - flip], false))
        ss.shift = refs[3 - flip];
    if (ss.x < 0 || ss.shift < 0)
      return;
    if (names.size() == 3) {
      if (refs[4] != numInputs + 1)
        return;
      if (names[2] == "relu") {
        ss.lo = 0.0f;
      } else if (names[2] == "clip") {
        std::array<float, 2> p =
            params.empty() ? defaultParams("clip")
                           : std::array<float, 2>{params[4], params[5]};
        ss.lo = p[0];
        ss.hi = p[1];
      } else {
        return;
      }
    }
    scaleShift_ = ss;
  }

  /// A ScaleShift program: one pass per run of the per-channel inputs.
  rt::Status runScaleShift(const TensorView *inputs, const TensorView *outputs,
                           BlockRange r) const {
    const ScaleShift &ss = scaleShift_;
    const float *x = static_cast<const float *>(inputs[ss.x].data);
    float *out = static_cast<float *>(outputs[0].data);
    auto valueAt = [&](int64_t input, int64_t pos) {
      const float *in = static_cast<const float *>(inputs[input].data);
      return inputs_[input].kind == Input::kRun
                 ? in[inputs_[input].runs.offsetAt(pos)]
                 : *in;
    };
    for (int64_t pos = r.begin, len; pos < r.end; pos += len) {
      len = run_ ? std::min(r.end - pos, run_ - pos % run_) : r.end - pos;
      vmath::scaleShift(x + pos, out + pos, len, valueAt(ss.scale, pos),
                        valueAt(ss.shift, pos), ss.lo, ss.hi);
    }
    return rt::Status::ok();
  }

  /// gelu or swish: one step on its one input (gelu's `approximate` choosing
  /// the form, swish's `alpha` its param).
  rt::Status makeSingleStep(const om::OpDef &op, double *flops) {
    std::string name = op.type();
    std::array<float, 2> params = defaultParams(name);
    if (name == "gelu") {
      std::string approximate = attrString(op, "approximate", "none");
      if (approximate != "none" && approximate != "tanh")
        return opError(op, "approximate is \"" + approximate +
                               "\" but must be \"none\" or \"tanh\"");
      if (approximate == "tanh")
        name = "gelu_tanh";
    } else {
      params[0] = attrFloat(op, "alpha", params[0]);
    }
    Step step;
    GEFLOW_RT_RETURN_IF_ERROR(parseStep(op, 0, name, params, &step, flops));
    steps_.push_back(step);
    return rt::Status::ok();
  }

  /// fused_elementwise: the steps as ir/GeFusedOps.td describes them.
  rt::Status makeProgram(const om::OpDef &op, double *flops) {
    std::vector<std::string> names = attrStrings(op, "steps");
    std::vector<int64_t> refs = attrInts(op, "step_operands");
    std::vector<float> params = attrFloats(op, "step_params");
    const size_t numInputs = inputs_.size();
    if (names.empty())
      return opError(op, "has no steps");
    if (numInputs + names.size() > kMaxValues)
      return opError(op, "has more than " + std::to_string(kMaxValues) +
                             " inputs and steps");
    if (refs.size() != 2 * names.size())
      return opError(op, "needs 2 step_operands per step");
    if (!params.empty() && params.size() != 2 * names.size())
      return opError(op, "needs 2 step_params per step when it has any");
    for (size_t j = 0; j < names.size(); ++j) {
      Step step;
      std::array<float, 2> p =
          params.empty()
              ? defaultParams(names[j])
              : std::array<float, 2>{params[2 * j], params[2 * j + 1]};
      double stepFlops = 0;
      GEFLOW_RT_RETURN_IF_ERROR(
          parseStep(op, j, names[j], p, &step, &stepFlops));
      step.a = refs[2 * j];
      step.b = refs[2 * j + 1];
      int64_t visible = static_cast<int64_t>(numInputs + j);
      bool binary = step.binary != nullptr;
      if (step.a < 0 || step.a >= visible ||
          (binary ? step.b < 0 || step.b >= visible : step.b != -1))
        return opError(op, "step " + std::to_string(j) +
                               " reads a value that is not an input or an "
                               "earlier step");
      steps_.push_back(step);
      *flops += stepFlops;
    }
    findScaleShift(names, refs, params);
    return rt::Status::ok();
  }

  static void gatherTile(const Broadcast &bc, const float *in, int64_t pos,
                         int64_t len, float *tile) {
    const bool repeat = bc.innerStride(0) == 0;
    bc.forEachRow(pos, pos + len,
                  [&](int64_t at, const int64_t *offsets, int64_t run) {
                    float *dst = tile + (at - pos);
                    const float *src = in + offsets[0];
                    if (repeat)
                      std::fill(dst, dst + run, *src);
                    else
                      std::copy(src, src + run, dst);
                  });
  }

  /// Runs `step` over one tile into `dst`; a step whose operands all repeat
  /// computes its one value.
  static Slot runStep(const Step &step,
                      const std::array<Slot, kMaxValues> &slots, float *dst,
                      int64_t len) {
    const Slot &a = slots[step.a];
    if (step.binary) {
      const Slot &b = slots[step.b];
      bool repeat = a.repeat && b.repeat;
      step.binary(a.data, a.repeat, b.data, b.repeat, dst, repeat ? 1 : len);
      return {dst, repeat};
    }
    int64_t n = a.repeat ? 1 : len;
    if (step.unary) {
      step.unary(a.data, dst, n, step.params);
    } else {
      // gelu and swish: from the slot into dst in one pass (no bias).
      nn::applyBiasActivation(step.activation, 0.0f, a.data, dst, n);
    }
    return {dst, a.repeat};
  }

  std::vector<Input> inputs_;
  std::vector<Step> steps_;
  int64_t n_ = 0;
  size_t gathered_ = 0;
  // The shortest run of the kRun inputs (0: none): no tile crosses one.
  int64_t run_ = 0;
  ScaleShift scaleShift_;
};

} // namespace

void geflow::kernels::registerFusedElementwiseKernels(
    KernelRegistry &registry) {
  registry.serve("FusedElementwiseKernel", entryFor<FusedElementwiseKernel>());
}
