//===- Deadlock.cpp - Naming what a stuck simulation waits on -------------===//
//
// Called when nothing runs and nothing can dispatch. Every stream that still
// has a task is then parked on an event wait; for each, find the stream that
// holds the record it needs (if any), and report the chain or cycle.
//
//===----------------------------------------------------------------------===//
#include "runtime/Scheduler.h"

#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace geflow::rt {
Status Scheduler::diagnoseDeadlock(const std::vector<Stream *> &streams) {
  struct Blocked {
    Stream *stream;
    Task *wait;
    Stream *holder; // stream whose queue holds the awaited record, or null
  };
  std::vector<Blocked> blocked;
  for (Stream *s : streams) {
    if (s->running_ || s->head_ >= s->active_.size())
      continue;
    Task &t = s->active_[s->head_];
    if (t.kind != TaskKind::kEventWait)
      continue;
    blocked.push_back({s, &t, nullptr});
  }
  // Locate each awaited record: in a stream's not-yet-run tasks, or in the
  // pending part another thread may still be appending to.
  for (Blocked &b : blocked) {
    for (Stream *s : streams) {
      for (size_t i = s->head_; i < s->active_.size() && !b.holder; ++i) {
        const Task &t = s->active_[i];
        if (t.kind == TaskKind::kEventRecord && t.event == b.wait->event &&
            t.eventSeq == b.wait->eventSeq)
          b.holder = s;
      }
      if (!b.holder) {
        std::lock_guard<std::mutex> lock(s->mu_);
        for (const Task &t : s->pending_)
          if (t.kind == TaskKind::kEventRecord && t.event == b.wait->event &&
              t.eventSeq == b.wait->eventSeq) {
            b.holder = s;
            break;
          }
      }
      if (b.holder)
        break;
    }
  }

  std::ostringstream os;
  os << "deadlock at " << now_ / 1000.0 << " us: ";
  if (blocked.empty()) {
    os << "no stream can make progress";
    return makeStatus(StatusCode::kDeadlock, os.str());
  }
  std::map<Stream *, Stream *> next;
  bool first = true;
  for (const Blocked &b : blocked) {
    if (!first)
      os << "; ";
    first = false;
    os << "stream " << b.stream->id() << " waits on event "
       << b.wait->event->id() << " (record #" << b.wait->eventSeq << ")";
    if (!b.holder)
      os << ", which is never recorded";
    else if (b.holder == b.stream)
      os << ", recorded later on the same stream";
    else
      os << ", recorded on stream " << b.holder->id()
         << " behind its own blocked tasks";
    if (b.holder)
      next[b.stream] = b.holder;
  }
  // A cycle of waits: follow stream -> holder links.
  for (const Blocked &b : blocked) {
    std::vector<Stream *> path;
    std::set<Stream *> seen;
    Stream *cur = b.stream;
    while (cur && !seen.count(cur)) {
      seen.insert(cur);
      path.push_back(cur);
      auto it = next.find(cur);
      cur = it == next.end() ? nullptr : it->second;
    }
    if (cur == b.stream && path.size() > 1) {
      os << "; cycle of waits: ";
      for (Stream *p : path)
        os << "stream " << p->id() << " -> ";
      os << "stream " << b.stream->id();
      break;
    }
  }
  return makeStatus(StatusCode::kDeadlock, os.str());
}

} // namespace geflow::rt
