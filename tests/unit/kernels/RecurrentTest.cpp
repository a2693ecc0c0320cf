//===- RecurrentTest.cpp - the recurrences and einsum against the definition
//-===//
//
// The recurrence kernels get XW = X * W^T as ge-lower-recurrent gives it;
// the reference here computes ONNX's LSTM / GRU / RNN equations from X and W
// directly, step by step in double, so the two share no code.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

enum class CellKind { kLstm, kGru, kRnn };

struct Problem {
  CellKind cell = CellKind::kLstm;
  int64_t steps = 3, batch = 2, input = 3, hidden = 4;
  std::string direction = "forward";
  bool batchFirst = false;
  bool bias = false, initial = false, peepholes = false, seqLens = false;
  std::vector<int32_t> lens;
  float clip = 0; // 0: none
  bool linearBeforeReset = false, inputForget = false;
  std::vector<std::string> activations; // empty: the defaults
  std::vector<float> alpha, beta;

  int64_t dirs() const { return direction == "bidirectional" ? 2 : 1; }
  int64_t gates() const {
    return cell == CellKind::kLstm ? 4 : cell == CellKind::kGru ? 3 : 1;
  }
  int64_t width() const { return gates() * hidden; }
  std::string type() const {
    return cell == CellKind::kLstm  ? "lstm_recurrence"
           : cell == CellKind::kGru ? "gru_recurrence"
                                    : "rnn_recurrence";
  }
  Shape yShape() const {
    return batchFirst ? Shape{batch, steps, dirs(), hidden}
                      : Shape{steps, dirs(), batch, hidden};
  }
  Shape stateShape() const {
    return batchFirst ? Shape{batch, dirs(), hidden}
                      : Shape{dirs(), batch, hidden};
  }
  int64_t xOffset(int64_t t, int64_t b) const {
    return (batchFirst ? b * steps + t : t * batch + b) * input;
  }
  int64_t yOffset(int64_t t, int64_t d, int64_t b) const {
    return (batchFirst ? (b * steps + t) * dirs() + d
                       : (t * dirs() + d) * batch + b) *
           hidden;
  }
  int64_t stateOffset(int64_t d, int64_t b) const {
    return (batchFirst ? b * dirs() + d : d * batch + b) * hidden;
  }
};

struct Data {
  std::vector<float> x, w, r, b, h0, c0, p;
};

Data makeData(const Problem &p) {
  Data d;
  d.x = random(p.steps * p.batch * p.input, 1);
  d.w = random(p.dirs() * p.width() * p.input, 2, -0.6f, 0.6f);
  d.r = random(p.dirs() * p.width() * p.hidden, 3, -0.6f, 0.6f);
  d.b = random(p.dirs() * 2 * p.width(), 4, -0.3f, 0.3f);
  d.h0 = random(p.dirs() * p.batch * p.hidden, 5);
  d.c0 = random(p.dirs() * p.batch * p.hidden, 6);
  d.p = random(p.dirs() * 3 * p.hidden, 7, -0.5f, 0.5f);
  return d;
}

double activation(const std::string &name, double x, double alpha,
                  double beta) {
  if (name == "Sigmoid")
    return 1 / (1 + std::exp(-x));
  if (name == "Tanh")
    return std::tanh(x);
  if (name == "Relu")
    return std::max(0.0, x);
  if (name == "LeakyRelu")
    return x >= 0 ? x : alpha * x;
  if (name == "HardSigmoid")
    return std::clamp(alpha * x + beta, 0.0, 1.0);
  if (name == "ThresholdedRelu")
    return x > alpha ? x : 0;
  if (name == "ScaledTanh")
    return alpha * std::tanh(beta * x);
  if (name == "Affine")
    return alpha * x + beta;
  if (name == "Elu")
    return x >= 0 ? x : alpha * (std::exp(x) - 1);
  if (name == "Softsign")
    return x / (1 + std::abs(x));
  if (name == "Softplus")
    return std::log1p(std::exp(x));
  ADD_FAILURE() << name;
  return 0;
}

struct Outputs {
  std::vector<double> y, yh, yc;
};

/// ONNX's equations, per direction and batch entry, from X and W.
Outputs reference(const Problem &p, const Data &data) {
  const int64_t H = p.hidden, G = p.width();
  std::vector<std::string> acts = p.activations;
  if (acts.empty())
    for (int64_t d = 0; d < p.dirs(); ++d) {
      if (p.cell == CellKind::kLstm)
        acts.insert(acts.end(), {"Sigmoid", "Tanh", "Tanh"});
      else if (p.cell == CellKind::kGru)
        acts.insert(acts.end(), {"Sigmoid", "Tanh"});
      else
        acts.push_back("Tanh");
    }
  const size_t per = acts.size() / p.dirs();
  // The tests give alpha/beta for every activation in order.
  auto f = [&](int64_t d, size_t k, double x) {
    size_t i = d * per + k;
    double a = i < p.alpha.size() ? p.alpha[i] : 0;
    double b = i < p.beta.size() ? p.beta[i] : 0;
    return activation(acts[i], x, a, b);
  };
  auto clip = [&](double x) {
    return p.clip > 0 ? std::clamp<double>(x, -p.clip, p.clip) : x;
  };
  Outputs o;
  o.y.assign(count(p.yShape()), 0.0);
  o.yh.assign(count(p.stateShape()), 0.0);
  o.yc.assign(count(p.stateShape()), 0.0);
  for (int64_t d = 0; d < p.dirs(); ++d)
    for (int64_t b = 0; b < p.batch; ++b) {
      int64_t len = p.seqLens ? p.lens[b] : p.steps;
      std::vector<double> h(H, 0), c(H, 0);
      if (p.initial)
        for (int64_t j = 0; j < H; ++j) {
          h[j] = data.h0[p.stateOffset(d, b) + j];
          c[j] = data.c0[p.stateOffset(d, b) + j];
        }
      bool backward = p.direction == "reverse" || d == 1;
      for (int64_t s = 0; s < len; ++s) {
        int64_t t = backward ? len - 1 - s : s;
        // xw[g] = x W^T + Wb, rh[g] = h R^T + Rb per gate row g.
        std::vector<double> xw(G), rh(G);
        for (int64_t g = 0; g < G; ++g) {
          double xs = 0, hs = 0;
          for (int64_t i = 0; i < p.input; ++i)
            xs += double(data.x[p.xOffset(t, b) + i]) *
                  data.w[(d * G + g) * p.input + i];
          for (int64_t j = 0; j < H; ++j)
            hs += h[j] * data.r[(d * G + g) * H + j];
          xw[g] = xs + (p.bias ? data.b[d * 2 * G + g] : 0);
          rh[g] = hs + (p.bias ? data.b[d * 2 * G + G + g] : 0);
        }
        std::vector<double> hn(H);
        for (int64_t j = 0; j < H; ++j) {
          if (p.cell == CellKind::kRnn) {
            hn[j] = f(d, 0, clip(xw[j] + rh[j]));
          } else if (p.cell == CellKind::kLstm) {
            const double *P = nullptr;
            std::vector<double> pp(3 * H, 0.0);
            if (p.peepholes)
              for (int64_t k = 0; k < 3 * H; ++k)
                pp[k] = data.p[d * 3 * H + k];
            P = pp.data();
            double i = f(d, 0, clip(xw[j] + rh[j] + P[j] * c[j]));
            double fg = p.inputForget ? 1 - i
                                      : f(d, 0,
                                          clip(xw[2 * H + j] + rh[2 * H + j] +
                                               P[2 * H + j] * c[j]));
            double cc = f(d, 1, clip(xw[3 * H + j] + rh[3 * H + j]));
            c[j] = fg * c[j] + i * cc;
            double og = f(d, 0, clip(xw[H + j] + rh[H + j] + P[H + j] * c[j]));
            hn[j] = og * f(d, 2, c[j]);
          } else {
            double z = f(d, 0, clip(xw[j] + rh[j]));
            double r = f(d, 0, clip(xw[H + j] + rh[H + j]));
            double cand;
            if (p.linearBeforeReset) {
              cand = xw[2 * H + j] + r * rh[2 * H + j];
            } else {
              double rr = 0; // (r . h) Rh^T + Rbh
              for (int64_t k = 0; k < H; ++k) {
                double rk = f(d, 0, clip(xw[H + k] + rh[H + k]));
                rr += rk * h[k] * data.r[(d * G + 2 * H + j) * H + k];
              }
              cand = xw[2 * H + j] + rr +
                     (p.bias ? data.b[d * 2 * G + G + 2 * H + j] : 0);
            }
            cand = f(d, 1, clip(cand));
            hn[j] = (1 - z) * cand + z * h[j];
          }
        }
        h = hn;
        for (int64_t j = 0; j < H; ++j)
          o.y[p.yOffset(t, d, b) + j] = h[j];
      }
      for (int64_t j = 0; j < H; ++j) {
        o.yh[p.stateOffset(d, b) + j] = h[j];
        o.yc[p.stateOffset(d, b) + j] = c[j];
      }
    }
  return o;
}

/// XW as ge-lower-recurrent's matmul computes it: [D, rows of X, G].
std::vector<float> projection(const Problem &p, const Data &data) {
  const int64_t rows = p.steps * p.batch, G = p.width();
  std::vector<float> xw(p.dirs() * rows * G);
  for (int64_t d = 0; d < p.dirs(); ++d)
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t g = 0; g < G; ++g) {
        double s = 0;
        for (int64_t i = 0; i < p.input; ++i)
          s += double(data.x[row * p.input + i]) *
               data.w[(d * G + g) * p.input + i];
        xw[(d * rows + row) * G + g] = static_cast<float>(s);
      }
  return xw;
}

om::OpDef recurrenceOp(const Problem &p) {
  OpBuilder b(p.type(), "rnn0");
  const int64_t D = p.dirs(), G = p.width(), H = p.hidden;
  b.input(om::DT_FLOAT, {D, p.steps * p.batch, G});
  b.input(om::DT_FLOAT, {D, G, H});
  p.bias ? b.input(om::DT_FLOAT, {D, 2 * G}) : b.absentInput();
  p.seqLens ? b.input(om::DT_INT32, {p.batch}) : b.absentInput();
  p.initial ? b.input(om::DT_FLOAT, p.stateShape()) : b.absentInput();
  if (p.cell == CellKind::kLstm) {
    p.initial ? b.input(om::DT_FLOAT, p.stateShape()) : b.absentInput();
    p.peepholes ? b.input(om::DT_FLOAT, {D, 3 * H}) : b.absentInput();
  }
  b.output(om::DT_FLOAT, p.yShape());
  b.output(om::DT_FLOAT, p.stateShape());
  if (p.cell == CellKind::kLstm)
    b.output(om::DT_FLOAT, p.stateShape());
  b.attr("direction", p.direction).attr("hidden_size", H);
  b.attr("layout", int64_t(p.batchFirst ? 1 : 0));
  if (p.clip > 0)
    b.attr("clip", p.clip);
  if (p.linearBeforeReset)
    b.attr("linear_before_reset", int64_t(1));
  if (p.inputForget)
    b.attr("input_forget", int64_t(1));
  om::OpDef op = b.op();
  if (!p.activations.empty()) {
    auto *list = (*op.mutable_attr())["activations"].mutable_list();
    for (const std::string &a : p.activations)
      list->add_s(a);
  }
  for (auto [name, values] : {std::pair{"activation_alpha", &p.alpha},
                              std::pair{"activation_beta", &p.beta}})
    for (float v : *values)
      (*op.mutable_attr())[name].mutable_list()->add_f(v);
  return op;
}

/// Runs the kernel at every block count and checks Y, Y_h (and Y_c).
void check(const Problem &p) {
  SCOPED_TRACE(p.type() + " " + p.direction);
  Data data = makeData(p);
  Outputs want = reference(p, data);
  std::vector<HostTensor> in = {
      tensor<float>({p.dirs(), p.steps * p.batch, p.width()},
                    projection(p, data)),
      tensor<float>({p.dirs(), p.width(), p.hidden}, data.r)};
  in.push_back(p.bias ? tensor<float>({p.dirs(), 2 * p.width()}, data.b)
                      : HostTensor{});
  in.push_back(p.seqLens ? tensor<int32_t>({p.batch}, p.lens) : HostTensor{});
  in.push_back(p.initial ? tensor<float>(p.stateShape(), data.h0)
                         : HostTensor{});
  if (p.cell == CellKind::kLstm) {
    in.push_back(p.initial ? tensor<float>(p.stateShape(), data.c0)
                           : HostTensor{});
    in.push_back(p.peepholes ? tensor<float>({p.dirs(), 3 * p.hidden}, data.p)
                             : HostTensor{});
  }
  om::OpDef op = recurrenceOp(p);
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAic);
  auto asFloat = [](const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
  };
  expectNear(runAll<float>(op, in, 0), asFloat(want.y), 1e-4);
  expectNear(runAll<float>(op, in, 1), asFloat(want.yh), 1e-4);
  if (p.cell == CellKind::kLstm)
    expectNear(runAll<float>(op, in, 2), asFloat(want.yc), 1e-4);
}

TEST(RecurrenceKernel, LstmForwardDefaults) { check({}); }

TEST(RecurrenceKernel, LstmBidirectionalWithEverything) {
  Problem p;
  p.direction = "bidirectional";
  p.bias = p.initial = p.peepholes = p.seqLens = true;
  p.lens = {3, 1};
  check(p);
}

TEST(RecurrenceKernel, LstmReverseBatchFirstClipped) {
  Problem p;
  p.direction = "reverse";
  p.batchFirst = true;
  p.bias = p.initial = true;
  p.clip = 0.5f;
  check(p);
}

TEST(RecurrenceKernel, LstmInputForgetAndActivations) {
  Problem p;
  p.bias = true;
  p.inputForget = true;
  p.activations = {"HardSigmoid", "LeakyRelu", "ScaledTanh"};
  p.alpha = {0.3f, 0.1f, 1.5f};
  p.beta = {0.4f, 0.7f};
  // HardSigmoid takes alpha 0.3, beta 0.4; LeakyRelu 0.1; ScaledTanh 1.5, 0.7.
  Problem ref = p;
  ref.alpha = {0.3f, 0.1f, 1.5f};
  ref.beta = {0.4f, 0.0f, 0.7f};
  Data data = makeData(p);
  Outputs want = reference(ref, data);
  std::vector<HostTensor> in = {
      tensor<float>({1, p.steps * p.batch, p.width()}, projection(p, data)),
      tensor<float>({1, p.width(), p.hidden}, data.r),
      tensor<float>({1, 2 * p.width()}, data.b)};
  auto y = runAll<float>(recurrenceOp(p), in, 0);
  expectNear(y, std::vector<float>(want.y.begin(), want.y.end()), 1e-4);
}

TEST(RecurrenceKernel, GruForwardAndLinearBeforeReset) {
  Problem p;
  p.cell = CellKind::kGru;
  p.bias = p.initial = true;
  check(p);
  p.linearBeforeReset = true;
  check(p);
}

TEST(RecurrenceKernel, GruBidirectionalSequenceLengths) {
  Problem p;
  p.cell = CellKind::kGru;
  p.direction = "bidirectional";
  p.batchFirst = true;
  p.bias = p.seqLens = true;
  p.lens = {2, 0};
  check(p);
}

TEST(RecurrenceKernel, RnnActivationsPerDirection) {
  Problem p;
  p.cell = CellKind::kRnn;
  p.direction = "bidirectional";
  p.bias = p.initial = true;
  p.activations = {"Relu", "Softsign"};
  check(p);
  p.activations = {"Elu", "Softplus"};
  p.alpha = {0.5f};
  check(p);
  p.activations = {"Affine", "ThresholdedRelu"};
  p.alpha = {0.5f, 0.2f};
  p.beta = {0.25f};
  check(p);
}

// One unit, one step, numbers worked by hand: h = tanh(XW + R * h0 + Wb +
// Rb) = tanh(1 + 0.25 * 2 + 0.1 + 0.2); a sequence of length 0 outputs zeros
// and keeps its initial state.
TEST(RecurrenceKernel, RnnByHand) {
  om::OpDef op = OpBuilder("rnn_recurrence")
                     .input(om::DT_FLOAT, {1, 2, 1})
                     .input(om::DT_FLOAT, {1, 1, 1})
                     .input(om::DT_FLOAT, {1, 2})
                     .input(om::DT_INT32, {2})
                     .input(om::DT_FLOAT, {1, 2, 1})
                     .output(om::DT_FLOAT, {1, 1, 2, 1})
                     .output(om::DT_FLOAT, {1, 2, 1})
                     .attr("hidden_size", int64_t(1));
  std::vector<HostTensor> in = {
      tensor<float>({1, 2, 1}, {1.0f, 7.0f}), tensor<float>({1, 1, 1}, {0.25f}),
      tensor<float>({1, 2}, {0.1f, 0.2f}), tensor<int32_t>({2}, {1, 0}),
      tensor<float>({1, 2, 1}, {2.0f, -3.0f})};
  float h = std::tanh(1.0f + 0.25f * 2.0f + 0.3f);
  expectNear(runAll<float>(op, in, 0), {h, 0.0f});
  expectNear(runAll<float>(op, in, 1), {h, -3.0f});
}

TEST(RecurrenceKernel, CostIsTheSumOfTheSteps) {
  Problem p;
  p.steps = 10;
  KernelPlan plan;
  ASSERT_TRUE(planKernel(recurrenceOp(p), &plan).isOk());
  Problem once = p;
  once.steps = 1;
  KernelPlan one;
  ASSERT_TRUE(planKernel(recurrenceOp(once), &one).isOk());
  EXPECT_DOUBLE_EQ(plan.cost.flops, 10 * one.cost.flops);
  EXPECT_GE(plan.cost.flops,
            10.0 * 2 * p.batch * p.hidden * p.width()); // the GEMMs alone
}

TEST(RecurrenceKernel, BadActivationIsAnError) {
  Problem p;
  p.cell = CellKind::kRnn;
  p.activations = {"Swish"};
  KernelPlan plan;
  rt::Status st = planKernel(recurrenceOp(p), &plan);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("unknown activation 'swish'"), std::string::npos);
}

// --- einsum ------------------------------------------------------------------

om::OpDef einsumOp(const std::string &equation,
                   const std::vector<HostTensor> &in, const Shape &out) {
  OpBuilder b("einsum");
  for (const HostTensor &t : in)
    b.input(t);
  return b.output(in[0].desc.dtype(), out).attr("equation", equation);
}

TEST(EinsumKernel, BatchDiagonal) {
  std::vector<HostTensor> in = {
      tensor<float>({2, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, //
                                -1, 0, 0, 0, -2, 0, 0, 0, -3})};
  EXPECT_EQ(runAll<float>(einsumOp("...ii ->...i", in, {2, 3}), in),
            (std::vector<float>{1, 5, 9, -1, -2, -3}));
}

TEST(EinsumKernel, TraceAndImplicitOutput) {
  std::vector<HostTensor> in = {tensor<int64_t>({2, 2}, {1, 2, 3, 4})};
  EXPECT_EQ(runAll<int64_t>(einsumOp("ii", in, {}), in),
            (std::vector<int64_t>{5}));
  // Implicit: letters once each, in ASCII order: "ba" -> "ab" is a transpose.
  EXPECT_EQ(runAll<int64_t>(einsumOp("ba", in, {2, 2}), in),
            (std::vector<int64_t>{1, 3, 2, 4}));
}

TEST(EinsumKernel, ThreeOperandsAndBroadcastEllipsis) {
  // sum_j a[i, j] * b[j] * c[j] with a broadcast batch of 1 against 2.
  std::vector<HostTensor> in = {tensor<double>({1, 2, 2}, {1, 2, 3, 4}),
                                tensor<double>({2}, {10, 100}),
                                tensor<double>({2, 1, 2}, {1, 1, 2, 0})};
  EXPECT_EQ(runAll<double>(einsumOp("...ij,j,...kj->...i", in, {2, 2}), in),
            (std::vector<double>{210, 430, 20, 60}));
}

TEST(EinsumKernel, MatmulAgainstLoops) {
  std::vector<float> a = random(2 * 3 * 4, 11), b = random(2 * 4 * 5, 12);
  std::vector<float> want(2 * 3 * 5, 0);
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 5; ++k)
        for (int j = 0; j < 4; ++j)
          want[(n * 3 + i) * 5 + k] +=
              a[(n * 3 + i) * 4 + j] * b[(n * 4 + j) * 5 + k];
  std::vector<HostTensor> in = {tensor<float>({2, 3, 4}, a),
                                tensor<float>({2, 4, 5}, b)};
  expectNear(runAll<float>(einsumOp("bij,bjk->bik", in, {2, 3, 5}), in), want);
}

TEST(EinsumKernel, MalformedEquationIsAnError) {
  std::vector<HostTensor> in = {tensor<float>({2, 2}, {1, 2, 3, 4})};
  KernelPlan plan;
  rt::Status st = planKernel(einsumOp("ij,jk->ik", in, {2, 2}), &plan);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("names 2 operand(s) but there are 1"),
            std::string::npos);
}

} // namespace
