//===- ServingStats.h - Latency percentiles and Jain's fairness -*- C++ -*-===//
//
// The figures a serving loop reports over its requests, shared by
// `geflow run --concurrency` and examples/decode so both mean the same
// thing by "p99" and "fairness".
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_RUNNER_SERVINGSTATS_H
#define GEFLOW_EXECUTOR_RUNNER_SERVINGSTATS_H

#include <algorithm>
#include <vector>

namespace geflow::exec {

/// Jain's fairness index, (sum x)^2 / (n sum x^2): 1 when every request got
/// the same rate, 1/n when one got everything.
inline double jainIndex(const std::vector<double> &x) {
  double sum = 0, sq = 0;
  for (double v : x) {
    sum += v;
    sq += v * v;
  }
  return sq > 0 ? sum * sum / (double(x.size()) * sq) : 1;
}

/// The nearest-rank `p` quantile (0..1) of `values`; 0 when empty.
inline double percentile(std::vector<double> values, double p) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t i = size_t(p * double(values.size() - 1) + 0.5);
  return values[std::min(i, values.size() - 1)];
}

} // namespace geflow::exec

#endif // GEFLOW_EXECUTOR_RUNNER_SERVINGSTATS_H
