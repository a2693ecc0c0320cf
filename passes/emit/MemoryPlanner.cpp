//===- MemoryPlanner.cpp - offsets in one workspace, reusing dead buffers -===//

#include "passes/emit/MemoryPlanner.h"

#include <algorithm>
#include <numeric>

namespace geflow::passes {

bool orderedOnOneStream(const BufferRequest &earlier,
                        const BufferRequest &later) {
  return earlier.lastUse < later.def;
}

OrderedBefore orderedByHappensBefore(const HappensBefore &order) {
  return [&order](const BufferRequest &earlier, const BufferRequest &later) {
    auto done = [&](HappensBefore::TaskId task) {
      return order.completesBefore(task, later.writer);
    };
    return done(earlier.writer) &&
           std::all_of(earlier.readers.begin(), earlier.readers.end(), done);
  };
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

  std::vector<size_t> placed;
  std::vector<std::pair<uint64_t, uint64_t>> busy; // [begin, end) of conflicts
  for (size_t i : order) {
    busy.clear();
    for (size_t j : placed)
      if (conflict(i, j))
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
    placed.push_back(i);
  }
  return result;
}

} // namespace geflow::passes
