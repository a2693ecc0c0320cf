//===- EinsumEquation.h - ONNX Einsum equations, parsed ------------*- C++
//-*-===//
//
// What an Einsum equation says about operands of known shapes: a label per
// operand dim, the output's labels and each label's size. Plain C++ with no
// includes of ours, header only, like GeOpTable.def: the verifier (ir/), the
// lowering (passes/) and the kernel (executor/kernels/, which links no MLIR)
// read equations through this one parser so they agree on every rule.
//
// Rules (ONNX Einsum, as numpy's einsum): letters a-z and A-Z; spaces are
// ignored; `...` stands for the dims a letter does not name, right-aligned
// across operands and broadcast numpy-style; a letter repeated in one operand
// takes its diagonal. Without `->` the output is the ellipsis dims, then the
// letters used exactly once, in ASCII order.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_IR_EINSUMEQUATION_H
#define GEFLOW_IR_EINSUMEQUATION_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace geflow::einsum {

/// Letters are labels 0..51; ellipsis dim k (of the widest ellipsis,
/// left to right) is label kFirstEllipsisLabel + k.
constexpr int kLetters = 52;
constexpr int kFirstEllipsisLabel = kLetters;

struct Equation {
  /// The label of each dim of each operand.
  std::vector<std::vector<int>> inputs;
  /// The labels of the output's dims.
  std::vector<int> output;
  /// Each label's size (the largest of its dims; 0 when unused).
  std::vector<int64_t> sizes;

  /// The output's shape.
  std::vector<int64_t> outputShape() const {
    std::vector<int64_t> shape;
    for (int label : output)
      shape.push_back(sizes[label]);
    return shape;
  }
  /// Labels of the operands that are not in the output (summed over), in
  /// label order.
  std::vector<int> summedLabels() const {
    std::vector<bool> used(sizes.size(), false), kept(sizes.size(), false);
    for (const auto &dims : inputs)
      for (int label : dims)
        used[label] = true;
    for (int label : output)
      kept[label] = true;
    std::vector<int> summed;
    for (size_t l = 0; l < sizes.size(); ++l)
      if (used[l] && !kept[l])
        summed.push_back(static_cast<int>(l));
    return summed;
  }
};

namespace detail {
inline int letterLabel(char c) {
  if (c >= 'a' && c <= 'z')
    return c - 'a';
  if (c >= 'A' && c <= 'Z')
    return 26 + (c - 'A');
  return -1;
}
/// "ab...c" into labels with -2 where the ellipsis stands; false when a
/// character is not a letter or there are two ellipses.
inline bool parseTerm(const std::string &term, std::vector<int> *labels,
                      std::string *why) {
  bool ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term.compare(i, 3, "...") == 0) {
      if (ellipsis) {
        *why = "'" + term + "' has two ellipses";
        return false;
      }
      ellipsis = true;
      labels->push_back(-2);
      i += 2;
      continue;
    }
    int label = letterLabel(term[i]);
    if (label < 0) {
      *why = std::string("'") + term[i] + "' is not a letter or '...'";
      return false;
    }
    labels->push_back(label);
  }
  return true;
}
} // namespace detail

/// Parses `text` for operands of `shapes`. False, with the reason in `why`,
/// when the equation is malformed or does not fit the shapes.
inline bool parseEquation(const std::string &text,
                          const std::vector<std::vector<int64_t>> &shapes,
                          Equation *out, std::string *why) {
  std::string eq;
  for (char c : text)
    if (c != ' ' && c != '\t')
      eq.push_back(c);
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms(1);
  for (char c : lhs) {
    if (c == ',')
      terms.emplace_back();
    else
      terms.back().push_back(c);
  }
  if (terms.size() != shapes.size()) {
    *why = "equation '" + text + "' names " + std::to_string(terms.size()) +
           " operand(s) but there are " + std::to_string(shapes.size());
    return false;
  }
  std::vector<std::vector<int>> raw(terms.size());
  int ellipsisRank = 0;
  std::vector<int> ellipsisOf(terms.size(), 0);
  for (size_t k = 0; k < terms.size(); ++k) {
    if (!detail::parseTerm(terms[k], &raw[k], why))
      return false;
    bool hasEllipsis = std::count(raw[k].begin(), raw[k].end(), -2) > 0;
    int64_t named = static_cast<int64_t>(raw[k].size()) - (hasEllipsis ? 1 : 0);
    int64_t rank = static_cast<int64_t>(shapes[k].size());
    if (hasEllipsis ? named > rank : named != rank) {
      *why = "operand " + std::to_string(k) + " has rank " +
             std::to_string(rank) + " but '" + terms[k] + "' names " +
             std::to_string(named) + " dim(s)";
      return false;
    }
    ellipsisOf[k] = hasEllipsis ? static_cast<int>(rank - named) : 0;
    ellipsisRank = std::max(ellipsisRank, ellipsisOf[k]);
  }
  Equation e;
  e.sizes.assign(kLetters + ellipsisRank, 0);
  std::vector<int> count(e.sizes.size(), 0);
  for (size_t k = 0; k < terms.size(); ++k) {
    std::vector<int> &dims = e.inputs.emplace_back();
    for (int label : raw[k]) {
      if (label != -2) {
        dims.push_back(label);
        continue;
      }
      for (int j = 0; j < ellipsisOf[k]; ++j)
        dims.push_back(kFirstEllipsisLabel + ellipsisRank - ellipsisOf[k] + j);
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      int64_t dim = shapes[k][d];
      int64_t &size = e.sizes[dims[d]];
      ++count[dims[d]];
      if (size > 1 && dim > 1 && size != dim) {
        *why = "operand " + std::to_string(k) + " dim " + std::to_string(d) +
               " is " + std::to_string(dim) + " but the same label is " +
               std::to_string(size) + " elsewhere";
        return false;
      }
      if (count[dims[d]] == 1 || dim > size)
        size = dim;
    }
  }
  if (arrow == std::string::npos) {
    for (int j = 0; j < ellipsisRank; ++j)
      e.output.push_back(kFirstEllipsisLabel + j);
    std::vector<char> once;
    for (char c : lhs)
      if (detail::letterLabel(c) >= 0 && count[detail::letterLabel(c)] == 1)
        once.push_back(c);
    std::sort(once.begin(), once.end());
    for (char c : once)
      e.output.push_back(detail::letterLabel(c));
  } else {
    std::vector<int> labels;
    if (!detail::parseTerm(eq.substr(arrow + 2), &labels, why))
      return false;
    std::vector<bool> seen(e.sizes.size(), false);
    for (int label : labels) {
      if (label == -2) {
        for (int j = 0; j < ellipsisRank; ++j)
          e.output.push_back(kFirstEllipsisLabel + j);
        continue;
      }
      if (!count[label]) {
        char letter = label < 26 ? 'a' + label : 'A' + (label - 26);
        *why = std::string("output label '") + letter + "' is in no operand";
        return false;
      }
      if (seen[label]) {
        *why = "the output repeats a label";
        return false;
      }
      seen[label] = true;
      e.output.push_back(label);
    }
  }
  *out = std::move(e);
  return true;
}

} // namespace geflow::einsum

#endif // GEFLOW_IR_EINSUMEQUATION_H
