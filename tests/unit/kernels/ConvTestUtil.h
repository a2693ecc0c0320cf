//===- ConvTestUtil.h - conv cases and the plain-loop reference -*- C++ -*-===//
//
// What ConvTest.cpp and ConvFastPathTest.cpp share: a conv's attributes as a
// test case, the OpDef built from them, ONNX's geometry and the plain loops
// every fast path is checked against.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_KERNELS_CONVTESTUTIL_H
#define GEFLOW_TESTS_UNIT_KERNELS_CONVTESTUTIL_H

#include "tests/unit/kernels/KernelTestUtil.h"

namespace geflow::kernels::test {

/// Runs `op` as `blockDim` blocks; `threads` runs them concurrently on host
/// threads. `constantWeight` hands input 1 to the kernel at creation as a
/// constant.
inline rt::Status runConv(const om::OpDef &op,
                          const std::vector<const float *> &in, float *out,
                          uint32_t blockDim, bool threads = false,
                          bool constantWeight = false) {
  return runBuffers(op, {in.begin(), in.end()}, {out}, blockDim,
                    {rt::Engine::kAic, threads, constantWeight ? 1 : -1});
}

/// Attributes of one test case; empty lists are left out of the OpDef.
struct ConvCase {
  Shape x, w;
  int64_t group;
  Shape strides, pads, dilations;
  std::string autoPad; // "" = attribute absent
  bool bias;
  Shape outputPadding = {}, outputShape = {}; // conv_transpose only
};

/// Spatial geometry the reference uses, padded to 3 dims with leading 1s.
struct Geo {
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1},
          s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0, 0, 0};
};

inline Shape valueOr(const Shape &v, size_t r, int64_t fallback) {
  return v.empty() ? Shape(r, fallback) : v;
}

/// ONNX Conv output size and begin pads, straight from the operator spec.
inline Geo convGeometry(const ConvCase &c) {
  size_t r = c.x.size() - 2;
  Shape st = valueOr(c.strides, r, 1), dl = valueOr(c.dilations, r, 1),
        pd = valueOr(c.pads, 2 * r, 0);
  Geo g;
  for (size_t i = 0; i < r; ++i) {
    size_t j = 3 - r + i;
    g.in[j] = c.x[2 + i];
    g.k[j] = c.w[2 + i];
    g.s[j] = st[i];
    g.d[j] = dl[i];
    int64_t span = (g.k[j] - 1) * g.d[j] + 1;
    if (c.autoPad == "SAME_UPPER" || c.autoPad == "SAME_LOWER") {
      g.out[j] = (g.in[j] + g.s[j] - 1) / g.s[j];
      int64_t total =
          std::max<int64_t>(0, (g.out[j] - 1) * g.s[j] + span - g.in[j]);
      g.pb[j] = c.autoPad == "SAME_UPPER" ? total / 2 : (total + 1) / 2;
    } else if (c.autoPad == "VALID") {
      g.out[j] = (g.in[j] - span) / g.s[j] + 1;
    } else {
      g.pb[j] = pd[i];
      g.out[j] = (g.in[j] + pd[i] + pd[i + r] - span) / g.s[j] + 1;
    }
  }
  return g;
}

inline om::OpDef makeOp(const std::string &type, const ConvCase &c,
                        const Shape &y) {
  om::OpDef op;
  op.set_name(type + "0");
  op.set_type(type);
  *op.add_input_desc() = desc(c.x);
  *op.add_input_desc() = desc(c.w);
  if (c.bias)
    *op.add_input_desc() = desc({y[1]});
  *op.add_output_desc() = desc(y);
  if (c.group != 1)
    (*op.mutable_attr())["group"].set_i(c.group);
  if (!c.strides.empty())
    setInts(op, "strides", c.strides);
  if (!c.pads.empty())
    setInts(op, "pads", c.pads);
  if (!c.dilations.empty())
    setInts(op, "dilations", c.dilations);
  if (!c.autoPad.empty())
    (*op.mutable_attr())["auto_pad"].set_s(c.autoPad);
  if (!c.outputPadding.empty())
    setInts(op, "output_padding", c.outputPadding);
  if (!c.outputShape.empty())
    setInts(op, "output_shape", c.outputShape);
  return op;
}

inline std::vector<float> referenceConv(const ConvCase &c, const Geo &g,
                                        const std::vector<float> &x,
                                        const std::vector<float> &w,
                                        const std::vector<float> &b,
                                        int64_t m) {
  int64_t n = c.x[0], ch = c.x[1], cg = ch / c.group, mg = m / c.group;
  int64_t inSz = g.in[0] * g.in[1] * g.in[2],
          outSz = g.out[0] * g.out[1] * g.out[2];
  int64_t kSz = g.k[0] * g.k[1] * g.k[2];
  std::vector<float> y(n * m * outSz);
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t mi = 0; mi < m; ++mi) {
      int64_t grp = mi / mg;
      for (int64_t o0 = 0; o0 < g.out[0]; ++o0)
        for (int64_t o1 = 0; o1 < g.out[1]; ++o1)
          for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
            double acc = c.bias ? b[mi] : 0.0;
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t k0 = 0; k0 < g.k[0]; ++k0)
                for (int64_t k1 = 0; k1 < g.k[1]; ++k1)
                  for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
                    int64_t i0 = o0 * g.s[0] - g.pb[0] + k0 * g.d[0];
                    int64_t i1 = o1 * g.s[1] - g.pb[1] + k1 * g.d[1];
                    int64_t i2 = o2 * g.s[2] - g.pb[2] + k2 * g.d[2];
                    if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1] ||
                        i2 < 0 || i2 >= g.in[2])
                      continue;
                    float xv = x[(ni * ch + grp * cg + ci) * inSz +
                                 (i0 * g.in[1] + i1) * g.in[2] + i2];
                    float wv = w[(mi * cg + ci) * kSz +
                                 (k0 * g.k[1] + k1) * g.k[2] + k2];
                    acc += double(xv) * wv;
                  }
            y[(ni * m + mi) * outSz + (o0 * g.out[1] + o1) * g.out[2] + o2] =
                static_cast<float>(acc);
          }
    }
  return y;
}

} // namespace geflow::kernels::test

#endif // GEFLOW_TESTS_UNIT_KERNELS_CONVTESTUTIL_H
