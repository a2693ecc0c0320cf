//===- ShadowMemory.cpp - Interval map of accesses ------------------------===//
#include "runtime/sanitizer/ShadowMemory.h"

#include <algorithm>

namespace geflow::rt::sanitizer {

const char *hazardName(Hazard h) {
  switch (h) {
  case Hazard::kReadAfterWrite:
    return "read-after-write";
  case Hazard::kWriteAfterRead:
    return "write-after-read";
  case Hazard::kWriteAfterWrite:
    return "write-after-write";
  case Hazard::kUseAfterFree:
    return "use-after-free";
  case Hazard::kFreeWhileInUse:
    return "free-while-in-use";
  case Hazard::kUninitializedRead:
    return "uninitialized-read";
  }
  return "?";
}

namespace {

/// Appends a conflict, extending the previous one when it continues it, so
/// one access that crosses several ranges reports each clash once.
void addConflict(std::vector<Conflict> &out, Hazard hazard, const Epoch &other,
                 uintptr_t begin, uintptr_t end) {
  if (!out.empty()) {
    Conflict &last = out.back();
    if (last.hazard == hazard && last.other == other && last.end == begin) {
      last.end = end;
      return;
    }
  }
  out.push_back(Conflict{hazard, other, begin, end});
}

} // namespace

ShadowMemory::Map::iterator
ShadowMemory::insertRange(Map::iterator hint, uintptr_t begin, Range range) {
  if (spare_.empty())
    return ranges_.emplace_hint(hint, begin, std::move(range));
  Map::node_type node = std::move(spare_.back());
  spare_.pop_back();
  node.key() = begin;
  node.mapped() = std::move(range);
  return ranges_.insert(hint, std::move(node));
}

ShadowMemory::Map::iterator ShadowMemory::eraseRange(Map::iterator it) {
  Map::iterator next = std::next(it);
  if (spare_.size() < kSpareNodes)
    spare_.push_back(ranges_.extract(it));
  else
    ranges_.erase(it);
  return next;
}

void ShadowMemory::replace(uintptr_t begin, uintptr_t end, State state) {
  splitAt(begin);
  splitAt(end);
  auto it = ranges_.lower_bound(begin);
  while (it != ranges_.end() && it->first < end)
    it = eraseRange(it);
  insertRange(it, begin, Range{end, std::move(state)});
}

void ShadowMemory::splitAt(uintptr_t at) {
  auto it = ranges_.upper_bound(at);
  if (it == ranges_.begin())
    return;
  --it;
  if (it->first < at && at < it->second.end) {
    Range tail{it->second.end, it->second.state};
    it->second.end = at;
    insertRange(std::next(it), at, std::move(tail));
  }
}

ShadowMemory::Map::iterator ShadowMemory::cover(uintptr_t begin,
                                                uintptr_t end) {
  splitAt(begin);
  splitAt(end);
  auto it = ranges_.lower_bound(begin);
  auto first = ranges_.end();
  uintptr_t at = begin;
  while (at < end) {
    if (it == ranges_.end() || it->first > at) {
      uintptr_t gapEnd = it == ranges_.end() ? end : std::min(end, it->first);
      it = insertRange(it, at, Range{gapEnd, State()});
    }
    if (first == ranges_.end())
      first = it;
    at = it->second.end;
    ++it;
  }
  return first;
}

void ShadowMemory::mergeAround(uintptr_t begin, uintptr_t end) {
  auto it = ranges_.lower_bound(begin);
  if (it != ranges_.begin())
    --it;
  while (it != ranges_.end() && it->first <= end) {
    auto next = std::next(it);
    if (next != ranges_.end() && it->second.end == next->first &&
        it->second.state == next->second.state) {
      it->second.end = next->second.end;
      eraseRange(next);
      continue;
    }
    it = next;
  }
}

void ShadowMemory::access(uintptr_t begin, uintptr_t end, AccessMode mode,
                          const Epoch &self, const VectorClock &clock,
                          std::vector<Conflict> &out) {
  if (begin >= end)
    return;
  const bool reads = mode != AccessMode::kWrite;
  const bool writes = mode != AccessMode::kRead;
  for (auto it = cover(begin, end); it != ranges_.end() && it->first < end;
       ++it) {
    uintptr_t b = it->first, e = it->second.end;
    State &st = it->second.state;
    if (st.freedBy.valid())
      addConflict(out, Hazard::kUseAfterFree, st.freedBy, b, e);
    if (st.write.valid() && !st.write.orderedBefore(clock))
      addConflict(out,
                  writes ? Hazard::kWriteAfterWrite : Hazard::kReadAfterWrite,
                  st.write, b, e);
    if (reads && st.tracked && !st.written)
      addConflict(out, Hazard::kUninitializedRead, Epoch(), b, e);
    if (writes) {
      for (const Epoch &r : st.reads)
        if (r.stream != self.stream && !r.orderedBefore(clock))
          addConflict(out, Hazard::kWriteAfterRead, r, b, e);
      st.write = self;
      st.reads.clear();
      st.written = true;
    } else {
      auto pos = std::lower_bound(
          st.reads.begin(), st.reads.end(), self.stream,
          [](const Epoch &r, StreamId s) { return r.stream < s; });
      if (pos != st.reads.end() && pos->stream == self.stream)
        *pos = self;
      else
        st.reads.insert(pos, self);
    }
  }
  mergeAround(begin, end);
}

void ShadowMemory::allocate(uintptr_t begin, uintptr_t end) {
  if (begin >= end)
    return;
  State fresh;
  fresh.tracked = true;
  replace(begin, end, std::move(fresh));
}

void ShadowMemory::release(uintptr_t begin, uintptr_t end,
                           const Epoch &freePoint, const VectorClock &clock,
                           std::vector<Conflict> &out) {
  if (begin >= end)
    return;
  for (auto it = cover(begin, end); it != ranges_.end() && it->first < end;
       ++it) {
    uintptr_t b = it->first, e = it->second.end;
    State &st = it->second.state;
    if (st.write.valid() && !st.write.orderedBefore(clock))
      addConflict(out, Hazard::kFreeWhileInUse, st.write, b, e);
    for (const Epoch &r : st.reads)
      if (!r.orderedBefore(clock))
        addConflict(out, Hazard::kFreeWhileInUse, r, b, e);
  }
  State freed;
  freed.freedBy = freePoint;
  replace(begin, end, std::move(freed));
  mergeAround(begin, end);
}

void ShadowMemory::prune(const VectorClock &host) {
  for (auto it = ranges_.begin(); it != ranges_.end();) {
    State &st = it->second.state;
    if (st.write.valid() && st.write.orderedBefore(host))
      st.write = Epoch();
    st.reads.erase(
        std::remove_if(st.reads.begin(), st.reads.end(),
                       [&](const Epoch &r) { return r.orderedBefore(host); }),
        st.reads.end());
    if (st.empty()) {
      it = eraseRange(it);
      continue;
    }
    auto prev = it;
    if (prev != ranges_.begin()) {
      --prev;
      if (prev->second.end == it->first && prev->second.state == st) {
        prev->second.end = it->second.end;
        eraseRange(it);
        it = std::next(prev);
        continue;
      }
    }
    ++it;
  }
}

} // namespace geflow::rt::sanitizer
