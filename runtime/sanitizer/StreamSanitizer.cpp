//===- StreamSanitizer.cpp - Vector clocks, checks and findings -----------===//
#include "runtime/sanitizer/StreamSanitizer.h"

#include "runtime/Event.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace geflow::rt {

using sanitizer::Conflict;
using sanitizer::Epoch;
using sanitizer::Hazard;
using sanitizer::VectorClock;

namespace {

/// Adds the host time of a scope to the sanitizer's own cost.
class CostTimer {
public:
  explicit CostTimer(double &seconds)
      : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  ~CostTimer() {
    seconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
  }

private:
  double &seconds_;
  std::chrono::steady_clock::time_point start_;
};

std::string hex(uintptr_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%" PRIxPTR, v);
  return buf;
}

} // namespace

StreamSanitizer::StreamState &StreamSanitizer::stateOf(StreamId s) {
  if (s >= streams_.size())
    streams_.resize(s + 1);
  StreamState &st = streams_[s];
  if (st.hostGen < hostGen_) {
    st.clock.join(host_);
    st.hostGen = hostGen_;
  }
  return st;
}

uint32_t StreamSanitizer::nameId(const std::string &name) {
  auto it = nameIds_.find(name);
  if (it != nameIds_.end())
    return it->second;
  names_.push_back(name);
  auto id = static_cast<uint32_t>(names_.size() - 1);
  nameIds_.emplace(name, id);
  return id;
}

void StreamSanitizer::onTask(StreamId stream, uint64_t seq, const Task &task,
                             const std::vector<MemoryAccess> *accesses) {
  CostTimer timer(stats_.checkSeconds);
  ++stats_.tasksChecked;
  StreamState &st = stateOf(stream);
  if (st.pending.empty() && apply(stream, seq, task, accesses)) {
    if (task.kind == TaskKind::kEventRecord && !blocked_.empty())
      drainBlocked();
    return;
  }
  // Behind a wait whose record is not enqueued yet: checked once it is.
  PendingTask p;
  p.seq = seq;
  p.task.kind = task.kind;
  p.task.event = task.event;
  p.task.eventSeq = task.eventSeq;
  p.task.name = task.name;
  p.task.copyKind = task.copyKind;
  p.task.src = task.src;
  p.task.dst = task.dst;
  p.task.bytes = task.bytes;
  if (accesses)
    p.accesses = *accesses;
  st.pending.push_back(std::move(p));
  blocked_.insert(stream);
}

void StreamSanitizer::drainBlocked() {
  // A record may unblock a stream whose own records unblock others.
  for (bool progress = true; progress;) {
    progress = false;
    for (auto it = blocked_.begin(); it != blocked_.end();) {
      std::deque<PendingTask> &pending = streams_[*it].pending;
      while (!pending.empty() &&
             apply(*it, pending.front().seq, pending.front().task,
                   &pending.front().accesses)) {
        pending.pop_front();
        progress = true;
      }
      it = pending.empty() ? blocked_.erase(it) : std::next(it);
    }
  }
}

bool StreamSanitizer::apply(StreamId stream, uint64_t seq, const Task &task,
                            const std::vector<MemoryAccess> *accesses) {
  StreamState &st = stateOf(stream);
  switch (task.kind) {
  case TaskKind::kEventRecord: {
    st.clock.advance(stream, seq);
    std::deque<RecordState> &recent = records_[task.event->id()];
    recent.push_back(RecordState{task.eventSeq, st.clock});
    if (recent.size() > kRecordsKept)
      recent.pop_front();
    return true;
  }
  case TaskKind::kEventWait: {
    // The wait binds to record eventSeq: the latest one enqueued before it,
    // or the first one to come.
    auto it = records_.find(task.event->id());
    if (it == records_.end() || it->second.back().seq < task.eventSeq)
      return false;
    st.clock.advance(stream, seq);
    for (const RecordState &r : it->second)
      if (r.seq == task.eventSeq) {
        st.clock.join(r.clock);
        return true;
      }
    ++stats_.unboundWaits;
    return true;
  }
  case TaskKind::kMemcpy: {
    st.clock.advance(stream, seq);
    if (task.bytes == 0)
      return true;
    Epoch self{
        stream,
        nameId(task.src ? std::string("memcpy ") + memcpyKindName(task.copyKind)
                        : std::string("memset")),
        seq};
    if (task.src) // a null source is a fill
      check(MemoryAccess{task.src, task.bytes, AccessMode::kRead}, self,
            st.clock);
    check(MemoryAccess{task.dst, task.bytes, AccessMode::kWrite}, self,
          st.clock);
    return true;
  }
  case TaskKind::kKernel: {
    st.clock.advance(stream, seq);
    if (!accesses || accesses->empty())
      return true;
    Epoch self{stream, nameId(task.name), seq};
    for (const MemoryAccess &a : *accesses)
      check(a, self, st.clock);
    return true;
  }
  case TaskKind::kCallback:
    st.clock.advance(stream, seq);
    return true;
  }
  return true;
}

void StreamSanitizer::check(const MemoryAccess &access, const Epoch &self,
                            const VectorClock &clock) {
  if (!access.ptr || access.bytes == 0)
    return;
  ++stats_.accessesChecked;
  auto begin = reinterpret_cast<uintptr_t>(access.ptr);
  conflicts_.clear();
  shadow_.access(begin, begin + access.bytes, access.mode, self, clock,
                 conflicts_);
  for (const Conflict &c : conflicts_)
    report(c, self, access.mode);
}

std::string StreamSanitizer::describeTask(const Epoch &e) const {
  const std::string &name = names_[e.name];
  if (e.stream == kNoStream)
    return "'" + name + "' (host)";
  const std::string &stream = streams_[e.stream].name;
  return "'" + name + "' (" +
         (stream.empty() ? "stream " + std::to_string(e.stream) : stream) +
         ", task " + std::to_string(e.seq) + ")";
}

std::string StreamSanitizer::describeRange(uintptr_t begin,
                                           uintptr_t end) const {
  auto it = allocations_.upper_bound(begin);
  if (it != allocations_.begin()) {
    --it;
    if (begin < it->first + it->second.size)
      return "buffer " + hex(it->first) + " bytes [" +
             std::to_string(begin - it->first) + ", " +
             std::to_string(end - it->first) + ")";
  }
  return "memory [" + hex(begin) + ", " + hex(end) + ")";
}

void StreamSanitizer::report(const Conflict &c, const Epoch &self,
                             AccessMode mode) {
  std::string range = describeRange(c.begin, c.end);
  std::string me = describeTask(self);
  std::string text = std::string(sanitizer::hazardName(c.hazard)) + ": ";
  const char *unordered = "; no event orders them";
  switch (c.hazard) {
  case Hazard::kReadAfterWrite:
    text += me + " reads " + range + " written by " + describeTask(c.other) +
            unordered;
    break;
  case Hazard::kWriteAfterRead:
    text += me + " writes " + range + " read by " + describeTask(c.other) +
            unordered;
    break;
  case Hazard::kWriteAfterWrite:
    text += me + " writes " + range + " also written by " +
            describeTask(c.other) + unordered;
    break;
  case Hazard::kUseAfterFree:
    text += me + (mode == AccessMode::kRead ? " reads " : " writes ") + range +
            " after " + describeTask(c.other) + " freed it";
    break;
  case Hazard::kFreeWhileInUse:
    text += me + " frees " + range + " that " + describeTask(c.other) +
            " accesses; no event orders the access before the free";
    break;
  case Hazard::kUninitializedRead:
    text +=
        me + " reads " + range + ", which nothing wrote since it was allocated";
    break;
  }
  addFinding(std::move(text));
}

void StreamSanitizer::addFinding(std::string message) {
  ++stats_.findings;
  if (findings_.size() < kMaxListed)
    findings_.push_back(std::move(message));
}

void StreamSanitizer::nameStream(StreamId stream, std::string name) {
  std::lock_guard<std::mutex> lock(mu_);
  stateOf(stream).name = std::move(name);
}

void StreamSanitizer::onStreamDestroyed(StreamId stream) {
  std::lock_guard<std::mutex> lock(mu_);
  // Its name stays: the shadow may still name its tasks.
  if (stream < streams_.size())
    streams_[stream].clock = VectorClock();
}

void StreamSanitizer::onEventDestroyed(uint32_t event) {
  std::lock_guard<std::mutex> lock(mu_);
  records_.erase(event);
}

VectorClock StreamSanitizer::streamPoint(StreamId stream) {
  return stateOf(stream).clock;
}

VectorClock StreamSanitizer::devicePoint(const std::vector<StreamId> &streams) {
  VectorClock point;
  for (StreamId s : streams)
    point.join(stateOf(s).clock);
  return point;
}

VectorClock StreamSanitizer::eventPoint(uint32_t event) {
  auto it = records_.find(event);
  return it == records_.end() ? VectorClock() : it->second.back().clock;
}

void StreamSanitizer::reached(const VectorClock &point) {
  std::lock_guard<std::mutex> lock(mu_);
  CostTimer timer(stats_.checkSeconds);
  host_.join(point);
  ++hostGen_;
  maybePrune();
}

void StreamSanitizer::maybePrune() {
  // Amortized: the shadow is walked once it has doubled since the last walk.
  if (shadow_.numRanges() < pruneAt_)
    return;
  shadow_.prune(host_);
  pruneAt_ = std::max<size_t>(1024, 2 * shadow_.numRanges());
}

void StreamSanitizer::onAllocate(const void *ptr, size_t size) {
  if (!ptr || size == 0)
    return;
  std::lock_guard<std::mutex> lock(mu_);
  CostTimer timer(stats_.checkSeconds);
  auto begin = reinterpret_cast<uintptr_t>(ptr);
  // Blocks freed earlier may have been split or merged into this one.
  auto it = allocations_.lower_bound(begin);
  if (it != allocations_.begin() &&
      std::prev(it)->first + std::prev(it)->second.size > begin)
    --it;
  while (it != allocations_.end() && it->first < begin + size)
    it = allocations_.erase(it);
  allocations_[begin] = Allocation{size, true};
  shadow_.allocate(begin, begin + size);
}

void StreamSanitizer::onFree(const void *ptr, StreamId stream) {
  std::lock_guard<std::mutex> lock(mu_);
  CostTimer timer(stats_.checkSeconds);
  auto begin = reinterpret_cast<uintptr_t>(ptr);
  auto it = allocations_.find(begin);
  if (it == allocations_.end() || !it->second.live)
    return;
  it->second.live = false;
  Epoch point;
  VectorClock clock;
  if (stream == kNoStream) {
    // A synchronous free: whatever used the block must be behind a
    // synchronize already.
    clock = host_;
    point = Epoch{kNoStream, nameId("free"), 1};
  } else {
    clock = stateOf(stream).clock;
    uint64_t seq = clock.get(stream);
    point = Epoch{stream, nameId("freeAsync"), std::max<uint64_t>(seq, 1)};
  }
  conflicts_.clear();
  shadow_.release(begin, begin + it->second.size, point, clock, conflicts_);
  for (const Conflict &c : conflicts_)
    report(c, point, AccessMode::kWrite);
}

Status StreamSanitizer::takeNewFindings() {
  std::lock_guard<std::mutex> lock(mu_);
  if (reportedFindings_ == stats_.findings)
    return Status::ok();
  uint64_t fresh = stats_.findings - reportedFindings_;
  std::string first = reportedFindings_ < findings_.size()
                          ? findings_[reportedFindings_]
                          : std::string("(past the listed ones)");
  reportedFindings_ = stats_.findings;
  return makeStatus(StatusCode::kDataRace,
                    "stream sanitizer: " + std::to_string(fresh) +
                        " finding(s); first: " + first);
}

std::vector<std::string> StreamSanitizer::findings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return findings_;
}

SanitizerStats StreamSanitizer::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

} // namespace geflow::rt
