//===- Recurrent.cpp - the recurrences of LSTM, GRU and RNN ---------------===//
//
// ge-lower-recurrent leaves X * W^T to one ge.matmul, so these kernels run
// only what is sequential: for each time step, h * R^T and the gates.
//
// Engine: AIC. Each step's h * R^T is a [batch, H] x [H, gates * H] matrix
// product, the bulk of the FLOPs, which is cube work on an NPU (CANN's
// DynamicRNN runs on the cube as well); the gates are a few vector
// operations per step on the same tile.
// Block split: (direction, tile of kRowTile batch rows) pairs, which are
// independent; a block owns a contiguous run of them and steps each tile with
// one GEMM per step. Tiles sit at fixed batch rows, so every row goes through
// the same GEMM whatever the block count, and the results agree bit for bit.
// A block carries at least nn::kMinBlockFlops.
// Cost: the sum over the T steps of each step's GEMM (2 * H * gates * H per
// row) and gate arithmetic, for every direction and batch row: T sequential
// steps, never fewer, whatever sequence_lens holds at run time.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <vector>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

/// Batch rows stepped together by one GEMM.
constexpr int64_t kRowTile = 8;

using FloatMap = Eigen::Map<Eigen::ArrayXf>;
using ConstFloatMap = Eigen::Map<const Eigen::ArrayXf>;

/// One activation of ONNX's recurrent ops with its alpha and beta.
struct RecurrentActivation {
  enum Kind {
    kRelu,
    kTanh,
    kSigmoid,
    kAffine,
    kLeakyRelu,
    kThresholdedRelu,
    kScaledTanh,
    kHardSigmoid,
    kElu,
    kSoftsign,
    kSoftplus
  };
  Kind kind = kTanh;
  float alpha = 0, beta = 0;
};

/// How an activation reads activation_alpha / activation_beta: the lists are
/// consumed in activation order by the ones that take a value (as
/// onnxruntime reads them); a missing value is the ONNX op's default.
struct ActivationInfo {
  const char *name;
  RecurrentActivation::Kind kind;
  bool takesAlpha, takesBeta;
  float alpha, beta;
};
constexpr ActivationInfo kActivations[] = {
    {"relu", RecurrentActivation::kRelu, false, false, 0, 0},
    {"tanh", RecurrentActivation::kTanh, false, false, 0, 0},
    {"sigmoid", RecurrentActivation::kSigmoid, false, false, 0, 0},
    {"affine", RecurrentActivation::kAffine, true, true, 1.0f, 0.0f},
    {"leakyrelu", RecurrentActivation::kLeakyRelu, true, false, 0.01f, 0},
    {"thresholdedrelu", RecurrentActivation::kThresholdedRelu, true, false,
     1.0f, 0},
    {"scaledtanh", RecurrentActivation::kScaledTanh, true, true, 1.0f, 1.0f},
    {"hardsigmoid", RecurrentActivation::kHardSigmoid, true, true, 0.2f, 0.5f},
    {"elu", RecurrentActivation::kElu, true, false, 1.0f, 0},
    {"softsign", RecurrentActivation::kSoftsign, false, false, 0, 0},
    {"softplus", RecurrentActivation::kSoftplus, false, false, 0, 0},
};

/// Applies `a` in place to `x`: one switch per vector, Eigen inside.
void activate(const RecurrentActivation &a, FloatMap x) {
  using A = RecurrentActivation;
  switch (a.kind) {
  case A::kRelu:
    x = x.max(0.0f);
    break;
  case A::kTanh:
    x = x.tanh();
    break;
  case A::kSigmoid:
    x = 1.0f / (1.0f + (-x).exp());
    break;
  case A::kAffine:
    x = a.alpha * x + a.beta;
    break;
  case A::kLeakyRelu:
    x = (x >= 0.0f).select(x, a.alpha * x);
    break;
  case A::kThresholdedRelu:
    x = (x > a.alpha).select(x, 0.0f);
    break;
  case A::kScaledTanh:
    x = a.alpha * (a.beta * x).tanh();
    break;
  case A::kHardSigmoid:
    x = (a.alpha * x + a.beta).max(0.0f).min(1.0f);
    break;
  case A::kElu:
    x = (x >= 0.0f).select(x, a.alpha * (x.exp() - 1.0f));
    break;
  case A::kSoftsign:
    x = x / (1.0f + x.abs());
    break;
  case A::kSoftplus:
    // log(1 + e^x) without overflowing e^x: x + log(1 + e^-x) for x > 0.
    x = x.max(0.0f) + (-x.abs()).exp().log1p();
    break;
  }
}

/// What differs between the three cells.
struct CellInfo {
  const char *type;
  int gates;
  int activations;
  std::array<const char *, 3> defaults;
};
constexpr CellInfo kCells[] = {
    {"lstm_recurrence", 4, 3, {"sigmoid", "tanh", "tanh"}},
    {"gru_recurrence", 3, 2, {"sigmoid", "tanh", nullptr}},
    {"rnn_recurrence", 1, 1, {"tanh", nullptr, nullptr}},
};

// Operand positions of a recurrence (ir/GeRecurrentOps.td).
enum Operand { kXW, kR, kB, kSeqLens, kInitialH, kInitialC, kP, kOperands };

/// Everything a recurrence needs from its op; fixed at creation.
struct RecurrenceShape {
  const CellInfo *cell = nullptr;
  int64_t dirs = 1, steps = 0, batch = 0, hidden = 0;
  bool reverse = false; // a single direction, reversed
  bool batchFirst = false;
  bool clip = false;
  float clipValue = 0;
  bool coupled = false;                  // LSTM input_forget
  bool linearBeforeReset = false;        // GRU
  std::vector<RecurrentActivation> acts; // per direction, cell->activations

  int64_t gateWidth() const { return cell->gates * hidden; }
  int64_t xwRow(int64_t t, int64_t b) const {
    return batchFirst ? b * steps + t : t * batch + b;
  }
  int64_t yOffset(int64_t t, int64_t d, int64_t b) const {
    return (batchFirst ? (b * steps + t) * dirs + d
                       : (t * dirs + d) * batch + b) *
           hidden;
  }
  int64_t stateOffset(int64_t d, int64_t b) const {
    return (batchFirst ? b * dirs + d : d * batch + b) * hidden;
  }
};

rt::Status parseActivations(const om::OpDef &op, RecurrenceShape *s) {
  std::vector<std::string> names = attrStrings(op, "activations");
  const int per = s->cell->activations;
  if (names.empty())
    for (int64_t d = 0; d < s->dirs; ++d)
      names.insert(names.end(), s->cell->defaults.begin(),
                   s->cell->defaults.begin() + per);
  if (static_cast<int64_t>(names.size()) != s->dirs * per)
    return opError(op, "has " + std::to_string(names.size()) +
                           " activations, needs " +
                           std::to_string(s->dirs * per));
  std::vector<float> alphas = attrFloats(op, "activation_alpha");
  std::vector<float> betas = attrFloats(op, "activation_beta");
  size_t nextAlpha = 0, nextBeta = 0;
  for (std::string name : names) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    const ActivationInfo *info = nullptr;
    for (const ActivationInfo &candidate : kActivations)
      if (name == candidate.name)
        info = &candidate;
    if (!info)
      return opError(op, "unknown activation '" + name + "'");
    RecurrentActivation a{info->kind, info->alpha, info->beta};
    if (info->takesAlpha && nextAlpha < alphas.size())
      a.alpha = alphas[nextAlpha++];
    if (info->takesBeta && nextBeta < betas.size())
      a.beta = betas[nextBeta++];
    s->acts.push_back(a);
  }
  return rt::Status::ok();
}

rt::Status analyzeRecurrence(const om::OpDef &op, RecurrenceShape *s) {
  for (const CellInfo &cell : kCells)
    if (op.type() == cell.type)
      s->cell = &cell;
  if (!s->cell)
    return opError(op, "is not a recurrence");
  GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 2));
  for (int i :
       {int(kXW), int(kR), int(kB), int(kInitialH), int(kInitialC), int(kP)})
    if (hasInput(op, i) && op.input_desc(i).dtype() != om::DT_FLOAT)
      return unsupportedDtype(op, op.input_desc(i).dtype());
  if (hasInput(op, kSeqLens) && op.input_desc(kSeqLens).dtype() != om::DT_INT32)
    return opError(op, "sequence_lens must be int32");
  std::string direction = attrString(op, "direction", "forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return opError(op, "direction '" + direction + "' is not supported");
  s->dirs = direction == "bidirectional" ? 2 : 1;
  s->reverse = direction == "reverse";
  s->batchFirst = attrInt(op, "layout", 0) == 1;
  std::vector<int64_t> r = shapeOf(op.input_desc(kR));
  std::vector<int64_t> y = shapeOf(op.output_desc(0));
  if (r.size() != 3 || y.size() != 4)
    return opError(op, "R must be 3-D and Y 4-D");
  s->hidden = r[2];
  s->steps = y[s->batchFirst ? 1 : 0];
  s->batch = y[s->batchFirst ? 0 : 2];
  std::vector<int64_t> xw = shapeOf(op.input_desc(kXW));
  if (xw !=
          std::vector<int64_t>{s->dirs, s->steps * s->batch, s->gateWidth()} ||
      r != std::vector<int64_t>{s->dirs, s->gateWidth(), s->hidden})
    return opError(op, "XW or R does not match Y and the direction");
  s->clip = hasAttr(op, "clip");
  s->clipValue = attrFloat(op, "clip", 0);
  s->coupled = attrInt(op, "input_forget", 0) != 0;
  s->linearBeforeReset = attrInt(op, "linear_before_reset", 0) != 0;
  return parseActivations(op, s);
}

/// One (direction, batch run) through all its steps. Buffers are per call.
struct DirectionRun {
  const RecurrenceShape &s;
  int64_t d, b0, nb;
  const float *xw, *r, *bias, *peep; // at direction d; bias/peep may be null
  std::vector<int64_t> lens;

  void clipInPlace(FloatMap x) const {
    if (s.clip)
      x = x.max(-s.clipValue).min(s.clipValue);
  }
  const RecurrentActivation &act(int k) const {
    return s.acts[d * s.cell->activations + k];
  }
  /// pre = XW row + Wb + Rb (+ the h * R^T part the caller already has).
  void addInputs(float *pre, int64_t t, int64_t i, int64_t width,
                 int64_t offset) const {
    FloatMap p(pre + offset, width);
    p += ConstFloatMap(xw + s.xwRow(t, b0 + i) * s.gateWidth() + offset, width);
    if (bias)
      p += ConstFloatMap(bias + offset, width) +
           ConstFloatMap(bias + s.gateWidth() + offset, width);
  }

  void lstmRow(float *pre, float *h, float *c, int64_t t, int64_t i) const {
    const int64_t H = s.hidden;
    addInputs(pre, t, i, 4 * H, 0);
    FloatMap gi(pre, H), go(pre + H, H), gf(pre + 2 * H, H), gc(pre + 3 * H, H),
        cs(c, H), hs(h, H);
    if (peep) {
      gi += ConstFloatMap(peep, H) * cs;
      gf += ConstFloatMap(peep + 2 * H, H) * cs;
    }
    clipInPlace(gi);
    activate(act(0), gi);
    if (s.coupled) {
      gf = 1.0f - gi;
    } else {
      clipInPlace(gf);
      activate(act(0), gf);
    }
    clipInPlace(gc);
    activate(act(1), gc);
    cs = gf * cs + gi * gc;
    if (peep)
      go += ConstFloatMap(peep + H, H) * cs;
    clipInPlace(go);
    activate(act(0), go);
    hs = cs;
    activate(act(2), hs);
    hs *= go;
  }

  void rnnRow(float *pre, float *h, int64_t t, int64_t i) const {
    addInputs(pre, t, i, s.hidden, 0);
    FloatMap p(pre, s.hidden);
    clipInPlace(p);
    activate(act(0), p);
    FloatMap(h, s.hidden) = p;
  }

  /// GRU's z and r (gates [0, 2H)); with linear_before_reset also the
  /// candidate, which then reads h * Rh^T + Rbh from pre[2H, 3H).
  void gruGates(float *pre, int64_t t, int64_t i) const {
    const int64_t H = s.hidden;
    addInputs(pre, t, i, 2 * H, 0);
    FloatMap zr(pre, 2 * H);
    clipInPlace(zr);
    activate(act(0), zr);
  }
  /// The candidate and the new h; `hr` is h * Rh^T, of (r . h) or of h.
  void gruUpdate(float *pre, const float *hr, float *h, int64_t t,
                 int64_t i) const {
    const int64_t H = s.hidden, G = s.gateWidth();
    FloatMap z(pre, H), r(pre + H, H), cand(pre + 2 * H, H), hs(h, H);
    ConstFloatMap rec(hr, H);
    cand = ConstFloatMap(xw + s.xwRow(t, b0 + i) * G + 2 * H, H);
    if (s.linearBeforeReset && bias)
      cand += r * (rec + ConstFloatMap(bias + G + 2 * H, H));
    else if (s.linearBeforeReset)
      cand += r * rec;
    else if (bias)
      cand += rec + ConstFloatMap(bias + G + 2 * H, H);
    else
      cand += rec;
    if (bias)
      cand += ConstFloatMap(bias + 2 * H, H); // Wbh
    clipInPlace(cand);
    activate(act(1), cand);
    hs = (1.0f - z) * cand + z * hs;
  }
};

class RecurrenceKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<RecurrenceKernel> *out) {
    auto k = std::unique_ptr<RecurrenceKernel>(new RecurrenceKernel);
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(analyzeRecurrence(op, &k->s_));
    for (int i = 0; i < kOperands; ++i) {
      k->present_[i] = hasInput(op, i);
      k->constants_[i] = constantInput(spec, i);
    }
    const RecurrenceShape &s = k->s_;
    const double g = static_cast<double>(s.gateWidth());
    // Per step and row: the GEMM, then about 8 operations per gate value.
    double perStep = 2.0 * s.hidden * g + 8.0 * g;
    double perRow = perStep * static_cast<double>(s.steps);
    double perTile = perRow * static_cast<double>(std::min(s.batch, kRowTile));
    int64_t grain = static_cast<int64_t>(
        std::ceil(nn::kMinBlockFlops / std::max(perTile, 1.0)));
    k->setPlan(op, s.dirs * k->tiles(), grain, perRow * s.dirs * s.batch);
    k->plan_.engine = rt::Engine::kAic;
    *out = std::move(k);
    return rt::Status::ok();
  }

protected:
  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    for (int64_t item = r.begin; item < r.end; ++item) {
      int64_t d = item / tiles(), b0 = item % tiles() * kRowTile;
      runDirection(inputs, outputs, d, b0, std::min(kRowTile, s_.batch - b0));
    }
    return rt::Status::ok();
  }

private:
  int64_t tiles() const { return (s_.batch + kRowTile - 1) / kRowTile; }

  const float *input(const TensorView *inputs, int i) const {
    return present_[i] ? static_cast<const float *>(
                             operandData(constants_[i], inputs, i))
                       : nullptr;
  }

  void runDirection(const TensorView *inputs, const TensorView *outputs,
                    int64_t d, int64_t b0, int64_t nb) const;
  /// Y_h or Y_c of rows [b0, b0 + nb) of direction d.
  void writeState(const std::vector<float> &state, const TensorView &out,
                  int64_t d, int64_t b0, int64_t nb) const;

  RecurrenceShape s_;
  std::array<bool, kOperands> present_{};
  std::array<const void *, kOperands> constants_{};
};

void RecurrenceKernel::runDirection(const TensorView *inputs,
                                    const TensorView *outputs, int64_t d,
                                    int64_t b0, int64_t nb) const {
  const int64_t H = s_.hidden, G = s_.gateWidth(), T = s_.steps;
  const bool isLstm = s_.cell == &kCells[0], isGru = s_.cell == &kCells[1];
  const float *bias = input(inputs, kB);
  const float *peep = input(inputs, kP);
  DirectionRun run{s_,
                   d,
                   b0,
                   nb,
                   input(inputs, kXW) + d * T * s_.batch * G,
                   input(inputs, kR) + d * G * H,
                   bias ? bias + d * 2 * G : nullptr,
                   peep ? peep + d * 3 * H : nullptr,
                   {}};
  const bool backward = s_.reverse || d == 1;
  const auto *lens = static_cast<const int32_t *>(
      present_[kSeqLens] ? operandData(constants_[kSeqLens], inputs, kSeqLens)
                         : nullptr);
  for (int64_t i = 0; i < nb; ++i)
    run.lens.push_back(lens ? std::clamp<int64_t>(lens[b0 + i], 0, T) : T);

  std::vector<float> h(nb * H, 0.0f), c(nb * H, 0.0f), pre(nb * G);
  // GRU: hr is h * Rh^T (of r . h without linear_before_reset, kept in rh).
  std::vector<float> hr(isGru ? nb * H : 0), rh(isGru ? nb * H : 0);
  const float *h0 = input(inputs, kInitialH);
  const float *c0 = isLstm ? input(inputs, kInitialC) : nullptr;
  for (int64_t i = 0; i < nb; ++i) {
    if (h0)
      std::copy_n(h0 + s_.stateOffset(d, b0 + i), H, h.data() + i * H);
    if (c0)
      std::copy_n(c0 + s_.stateOffset(d, b0 + i), H, c.data() + i * H);
  }
  auto *y = static_cast<float *>(outputs[0].data);
  // Steps past a row's length leave its state alone and output zeros.
  for (int64_t i = 0; i < nb; ++i)
    for (int64_t t = run.lens[i]; t < T; ++t)
      std::fill_n(y + s_.yOffset(t, d, b0 + i), H, 0.0f);
  const int64_t longest =
      nb ? *std::max_element(run.lens.begin(), run.lens.end()) : 0;
  for (int64_t step = 0; step < longest; ++step) {
    auto timeOf = [&](int64_t i) {
      return backward ? run.lens[i] - 1 - step : step;
    };
    // The GRU without linear_before_reset multiplies r into h before Rh.
    int64_t width = isGru && !s_.linearBeforeReset ? 2 * H : G;
    nn::gemm(false, true, nb, width, H, 1.0f, h.data(), H, run.r, H, 0.0f,
             pre.data(), G);
    if (isGru) {
      for (int64_t i = 0; i < nb; ++i)
        if (step < run.lens[i])
          run.gruGates(pre.data() + i * G, timeOf(i), i);
      if (s_.linearBeforeReset) {
        for (int64_t i = 0; i < nb; ++i)
          std::copy_n(pre.data() + i * G + 2 * H, H, hr.data() + i * H);
      } else {
        for (int64_t i = 0; i < nb; ++i)
          FloatMap(rh.data() + i * H, H) =
              ConstFloatMap(pre.data() + i * G + H, H) *
              ConstFloatMap(h.data() + i * H, H);
        nn::gemm(false, true, nb, H, H, 1.0f, rh.data(), H, run.r + 2 * H * H,
                 H, 0.0f, hr.data(), H);
      }
    }
    for (int64_t i = 0; i < nb; ++i) {
      if (step >= run.lens[i])
        continue;
      int64_t t = timeOf(i);
      float *p = pre.data() + i * G, *hi = h.data() + i * H;
      if (isLstm)
        run.lstmRow(p, hi, c.data() + i * H, t, i);
      else if (isGru)
        run.gruUpdate(p, hr.data() + i * H, hi, t, i);
      else
        run.rnnRow(p, hi, t, i);
      std::copy_n(hi, H, y + s_.yOffset(t, d, b0 + i));
    }
  }
  writeState(h, outputs[1], d, b0, nb);
  if (isLstm)
    writeState(c, outputs[2], d, b0, nb);
}

void RecurrenceKernel::writeState(const std::vector<float> &state,
                                  const TensorView &out, int64_t d, int64_t b0,
                                  int64_t nb) const {
  const int64_t H = s_.hidden;
  for (int64_t i = 0; i < nb; ++i)
    std::copy_n(state.data() + i * H, H,
                static_cast<float *>(out.data) + s_.stateOffset(d, b0 + i));
}

} // namespace

namespace geflow::kernels {
void registerRecurrentKernels(KernelRegistry &registry) {
  registry.serve("RecurrenceKernel", entryFor<RecurrenceKernel>());
}
} // namespace geflow::kernels
