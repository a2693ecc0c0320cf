//===- MemoryPlanner.cpp - offsets in one workspace, reusing dead buffers -===//

#include "passes/emit/MemoryPlanner.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

namespace geflow::passes {

namespace {

/// The spans [horizon, lastUse] of all requests, for "which spans overlap
/// request i's": those that contain its start (a segment tree over
/// positions, each span stored in O(log n) nodes, stabbed root to leaf) and
/// those that start inside it (sorted by start).
class SpanIndex {
public:
  explicit SpanIndex(const std::vector<BufferRequest> &requests)
      : requests_(requests) {
    int64_t last = 0;
    for (const BufferRequest &r : requests)
      last = std::max(last, r.lastUse);
    leaves_ = 1;
    while (leaves_ <= uint64_t(last))
      leaves_ *= 2;
    nodes_.resize(2 * leaves_);
    byStart_.resize(requests.size());
    for (uint32_t i = 0; i < requests.size(); ++i) {
      byStart_[i] = i;
      uint64_t lo = uint64_t(start(i)) + leaves_;
      uint64_t hi = uint64_t(requests[i].lastUse) + leaves_ + 1;
      for (; lo < hi; lo /= 2, hi /= 2) {
        if (lo & 1)
          nodes_[lo++].push_back(i);
        if (hi & 1)
          nodes_[--hi].push_back(i);
      }
    }
    std::stable_sort(
        byStart_.begin(), byStart_.end(),
        [&](uint32_t a, uint32_t b) { return start(a) < start(b); });
  }

  /// Every request whose span overlaps request i's, i included.
  void overlapping(size_t i, std::vector<uint32_t> &out) const {
    out.clear();
    int64_t from = start(i);
    for (uint64_t node = uint64_t(from) + leaves_; node >= 1; node /= 2)
      out.insert(out.end(), nodes_[node].begin(), nodes_[node].end());
    auto first = std::upper_bound(
        byStart_.begin(), byStart_.end(), from,
        [&](int64_t position, uint32_t r) { return position < start(r); });
    for (auto it = first;
         it != byStart_.end() && start(*it) <= requests_[i].lastUse; ++it)
      out.push_back(*it);
  }

private:
  /// A horizon past lastUse promises more than the planner needs; it is
  /// clamped so every span is well formed.
  int64_t start(size_t i) const {
    return std::clamp<int64_t>(requests_[i].horizon, 0, requests_[i].lastUse);
  }

  const std::vector<BufferRequest> &requests_;
  uint64_t leaves_ = 1;
  std::vector<std::vector<uint32_t>> nodes_;
  std::vector<uint32_t> byStart_;
};

} // namespace

bool orderedOnOneStream(const BufferRequest &earlier,
                        const BufferRequest &later) {
  return earlier.lastUse < later.def;
}

OrderedBefore orderedByHappensBefore(const HappensBefore &order) {
  return [&order](const BufferRequest &earlier, const BufferRequest &later) {
    auto doneBefore = [&](HappensBefore::TaskId writer) {
      auto done = [&](HappensBefore::TaskId task) {
        return order.completesBefore(task, writer);
      };
      return done(earlier.writer) && llvm::all_of(earlier.moreWriters, done) &&
             llvm::all_of(earlier.readers, done);
    };
    return doneBefore(later.writer) &&
           llvm::all_of(later.moreWriters, doneBefore);
  };
}

int64_t
orderedHorizon(const HappensBefore &order, HappensBefore::TaskId writer,
               const std::vector<std::vector<int64_t>> &streamPositions) {
  int64_t horizon = INT64_MAX;
  for (uint32_t s = 0; s < streamPositions.size(); ++s) {
    uint32_t done = order.completedBefore(writer, s);
    if (done < streamPositions[s].size())
      horizon = std::min(horizon, streamPositions[s][done]);
  }
  return horizon;
}

uint64_t alignedBufferSize(uint64_t size, uint64_t alignment) {
  if (alignment == 0)
    alignment = 1;
  uint64_t units = std::max<uint64_t>((size + alignment - 1) / alignment, 1);
  return units * alignment;
}

MemoryPlanResult planBuffers(const std::vector<BufferRequest> &requests,
                             const MemoryPlanOptions &options) {
  MemoryPlanResult result;
  size_t n = requests.size();
  result.offsets.assign(n, 0);
  std::vector<uint64_t> sizes(n);
  for (size_t i = 0; i < n; ++i) {
    sizes[i] = alignedBufferSize(requests[i].size, options.alignment);
    result.workspaceSizeWithoutReuse += sizes[i];
  }

  if (!options.reuse) {
    uint64_t next = 0;
    for (size_t i = 0; i < n; ++i) {
      result.offsets[i] = next;
      next += sizes[i];
    }
    result.workspaceSize = next;
    return result;
  }

  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sizes[a] != sizes[b])
      return sizes[a] > sizes[b];
    return requests[a].def < requests[b].def;
  });

  auto conflict = [&](size_t a, size_t b) {
    return !options.orderedBefore(requests[a], requests[b]) &&
           !options.orderedBefore(requests[b], requests[a]);
  };

  SpanIndex spans(requests);
  std::vector<bool> placed(n, false);
  std::vector<uint32_t> overlapping;
  std::vector<std::pair<uint64_t, uint64_t>> busy; // [begin, end) of conflicts
  for (size_t i : order) {
    busy.clear();
    spans.overlapping(i, overlapping);
    for (uint32_t j : overlapping)
      if (placed[j] && conflict(i, j))
        busy.emplace_back(result.offsets[j], result.offsets[j] + sizes[j]);
    std::sort(busy.begin(), busy.end());

    // Best fit: the smallest gap between conflicting buffers that holds it.
    uint64_t bestOffset = 0, bestGap = UINT64_MAX, cursor = 0;
    bool found = false;
    for (const auto &[begin, end] : busy) {
      if (begin > cursor) {
        uint64_t gap = begin - cursor;
        if (gap >= sizes[i] && gap < bestGap) {
          bestGap = gap;
          bestOffset = cursor;
          found = true;
        }
      }
      cursor = std::max(cursor, end);
    }
    result.offsets[i] = found ? bestOffset : cursor;
    result.workspaceSize =
        std::max(result.workspaceSize, result.offsets[i] + sizes[i]);
    placed[i] = true;
  }
  return result;
}

} // namespace geflow::passes
