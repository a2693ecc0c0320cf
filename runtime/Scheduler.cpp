//===- Scheduler.cpp - Dispatch rounds and completions --------------------===//
#include "runtime/Scheduler.h"

#include <algorithm>
#include <cstring>

namespace geflow::rt {

const char *taskKindName(TaskKind k) {
  switch (k) {
  case TaskKind::kKernel:
    return "KERNEL";
  case TaskKind::kMemcpy:
    return "MEMCPY";
  case TaskKind::kCallback:
    return "CALLBACK";
  case TaskKind::kEventRecord:
    return "EVENT_RECORD";
  case TaskKind::kEventWait:
    return "EVENT_WAIT";
  }
  return "?";
}

Scheduler::Scheduler(const CostModel &cost, WorkerPool &workers,
                     ReportRoute route)
    : cost_(cost), workers_(workers), route_(std::move(route)) {
  for (int g = 0; g < kNumCoreGroups; ++g)
    free_[g] = cost.groupSize(static_cast<CoreGroup>(g));
}

void Scheduler::markDirty(Stream *s) {
  if (!s->queued_) {
    s->queued_ = true;
    dirty_.push_back(s);
  }
}

void Scheduler::round() {
  while (!dirty_.empty()) {
    batch_.clear();
    std::swap(batch_, dirty_);
    for (Stream *s : batch_)
      s->queued_ = false;
    if (batch_.size() > 1) {
      // Higher priority (lower value) first; within a priority, round robin
      // starting at the stream after the last one that dispatched.
      StreamId rr = rrNext_;
      std::sort(batch_.begin(), batch_.end(), [rr](Stream *a, Stream *b) {
        if (a->priority() != b->priority())
          return a->priority() < b->priority();
        uint64_t ka = a->id() >= rr ? a->id() : a->id() + (1ull << 32);
        uint64_t kb = b->id() >= rr ? b->id() : b->id() + (1ull << 32);
        return ka < kb;
      });
    }
    for (Stream *s : batch_)
      tryDispatch(s);
  }
}

uint32_t Scheduler::grant(Stream *s, const Task &t, uint32_t want) {
  const uint32_t kNoLimit = UINT32_MAX;
  uint32_t aicLimit = t.aicoreNum ? t.aicoreNum : kNoLimit;
  uint32_t aivLimit = t.vectorcoreNum ? t.vectorcoreNum : kNoLimit;
  uint32_t &cube = free_[static_cast<int>(CoreGroup::kCube)];
  uint32_t &vec = free_[static_cast<int>(CoreGroup::kVector)];
  uint32_t g = 0;
  switch (t.engine) {
  case Engine::kAic:
    g = std::min({want, aicLimit, cube});
    cube -= g;
    s->grantCube_ = g;
    break;
  case Engine::kAiv:
    g = std::min({want, aivLimit, vec});
    vec -= g;
    s->grantVector_ = g;
    break;
  case Engine::kMix: {
    uint32_t r = cost_.mixVectorRatio();
    g = std::min({want, aicLimit, cube, vec / r});
    if (aivLimit != kNoLimit)
      g = std::min(g, std::max<uint32_t>(1, aivLimit / r));
    cube -= g;
    vec -= g * r;
    s->grantCube_ = g;
    s->grantVector_ = g * r;
    break;
  }
  case Engine::kAiCpu:
  case Engine::kDvpp: {
    uint32_t &pool = free_[static_cast<int>(
        t.engine == Engine::kAiCpu ? CoreGroup::kAiCpu : CoreGroup::kDvpp)];
    g = std::min(want, pool);
    pool -= g;
    s->grantOther_ = g;
    break;
  }
  }
  return g;
}

void Scheduler::tryDispatch(Stream *s) {
  if (s->running_ || s->blockedOn_)
    return;
  Task *t = s->head();
  if (!t)
    return;
  const bool skipWork = !s->error_.isOk(); // a failed stream only keeps time
  std::optional<VirtualNs> dur = 0;
  switch (t->kind) {
  case TaskKind::kEventWait:
    dur = passEventWait(s, *t);
    break;
  case TaskKind::kEventRecord:
    break;
  case TaskKind::kKernel:
    dur = dispatchKernelWave(s, *t, skipWork);
    break;
  case TaskKind::kMemcpy:
    dur = copyMemory(*t, skipWork);
    break;
  case TaskKind::kCallback:
    dur = startCallback(s, *t, skipWork);
    break;
  }
  if (!dur) // the stream now waits for an event or for cores
    return;
  startRunning(s, *t, *dur);
}

std::optional<VirtualNs> Scheduler::passEventWait(Stream *s, Task &t) {
  if (!t.event->isComplete(t.eventSeq)) {
    s->blockedOn_ = t.event;
    t.event->waiters_.push_back(s);
    return std::nullopt;
  }
  // The latency runs from the record, not from this dispatch: waits
  // queued back to back overlap, and one on an old record is free.
  VirtualNs wake = t.event->wakeNs(t.eventSeq, cost_.eventLatencyNs());
  return wake > now_ ? wake - now_ : 0;
}

std::optional<VirtualNs> Scheduler::dispatchKernelWave(Stream *s, Task &t,
                                                       bool skipWork) {
  uint32_t want = s->kernelStarted_ ? s->blocksLeft_ : t.blockDim;
  uint32_t cores = grant(s, t, std::max<uint32_t>(1, want));
  if (cores == 0) {
    waitForCores(s, t);
    return std::nullopt;
  }
  // One wave: `cores` blocks at once. The hardware hands a kernel's blocks
  // to whichever cores are free, so each later wave takes the cores free
  // when the previous one ends rather than keeping the first grant.
  VirtualNs dur = cost_.blockTimeNs(t.engine, t.cost, t.blockDim);
  if (!s->kernelStarted_) {
    startKernel(s, t, cores, skipWork);
    dur = addNs(dur, cost_.launchLatencyNs());
  }
  accountWave(s, t, cores, dur);
  return dur;
}

void Scheduler::waitForCores(Stream *s, const Task &t) {
  CoreGroup g = CoreGroup::kCube;
  if (t.engine == Engine::kAiv ||
      (t.engine == Engine::kMix && freeCores(CoreGroup::kCube) > 0))
    g = CoreGroup::kVector;
  else if (t.engine == Engine::kAiCpu)
    g = CoreGroup::kAiCpu;
  else if (t.engine == Engine::kDvpp)
    g = CoreGroup::kDvpp;
  s->blockedOn_ = &coreWaiters_[static_cast<int>(g)];
  coreWaiters_[static_cast<int>(g)].push_back(s);
}

void Scheduler::startKernel(Stream *s, Task &t, uint32_t cores, bool skipWork) {
  s->kernelStarted_ = true;
  s->blocksLeft_ = std::max<uint32_t>(1, t.blockDim);
  s->peakGrant_ = s->peakGrantVector_ = 0;
  s->coreTimeNs_ = s->vectorCoreTimeNs_ = 0;
  s->readyNs_ = std::max(s->lastEndNs_, t.submitNs);
  s->startNs_ = now_;
  if (t.fn && !skipWork)
    startKernelJob(s, t, cores);
}

void Scheduler::startKernelJob(Stream *s, Task &t, uint32_t cores) {
  s->job_ = std::make_shared<HostJob>(&t.fn, t.blockDim, &t.name, s->id());
  if (traceEnabled())
    s->job_->timeBlocks();
  // Blocks start on the workers now; complete() runs whatever they
  // have not claimed by then on this thread. A small kernel wakes
  // nobody: complete() runs it all. With no other job to join first,
  // this thread joins this one next and takes a block itself, so a
  // worker handed the last one would only add a hand-off.
  uint32_t copies = worthSharing(t.cost) ? std::min(t.blockDim, cores) : 0;
  if (liveJobs_ == 0)
    copies = std::min(copies, t.blockDim - 1);
  else if (copies == 0)
    // Another stream's kernel is in flight, which this thread will
    // join first: a worker runs this small one meanwhile, so
    // concurrent streams (concurrent requests) run in parallel on the
    // host too. If no worker is free, the join runs it here as before.
    copies = 1;
  ++liveJobs_;
  s->job_->setHostThreads(1 + std::min(copies, workers_.size()));
  if (copies > 0)
    workers_.submit(s->job_, copies);
}

void Scheduler::accountWave(Stream *s, const Task &t, uint32_t cores,
                            VirtualNs dur) {
  s->blocksLeft_ -= std::min(cores, s->blocksLeft_);
  uint32_t mainGrant = t.engine == Engine::kAiv ? s->grantVector_
                       : s->grantOther_         ? s->grantOther_
                                                : s->grantCube_;
  s->peakGrant_ = std::max(s->peakGrant_, mainGrant);
  s->coreTimeNs_ = addNs(s->coreTimeNs_, mulNs(dur, mainGrant));
  if (t.engine == Engine::kMix) {
    s->peakGrantVector_ = std::max(s->peakGrantVector_, s->grantVector_);
    s->vectorCoreTimeNs_ =
        addNs(s->vectorCoreTimeNs_, mulNs(dur, s->grantVector_));
  }
}

VirtualNs Scheduler::copyMemory(const Task &t, bool skipWork) {
  // The copy happens at dispatch: every task it depends on has completed.
  if (!skipWork && t.bytes) {
    if (t.src)
      std::memmove(t.dst, t.src, t.bytes);
    else
      std::memset(t.dst, t.fillByte, t.bytes);
  }
  return cost_.memcpyTimeNs(t.copyKind, t.bytes);
}

VirtualNs Scheduler::startCallback(Stream *s, Task &t, bool skipWork) {
  if (t.callback && !skipWork) {
    std::shared_ptr<ReportQueue> q =
        t.callbackOnReportThread && route_ ? route_(s->id()) : nullptr;
    auto job =
        std::make_shared<HostJob>(std::move(t.callback), q.get(), s->id());
    if (q)
      q->push(job);
    else
      workers_.submit(job, 1);
    // A non-blocking callback on a report thread runs whenever that thread
    // gets to it; the stream goes on. Any other is waited for (one with no
    // report thread is run by whoever waits, when no worker has).
    if (t.callbackBlocks || !q) {
      s->job_ = std::move(job);
      ++liveJobs_;
    }
  }
  return cost_.launchLatencyNs();
}

void Scheduler::startRunning(Stream *s, const Task &t, VirtualNs dur) {
  s->running_ = true;
  if (t.kind != TaskKind::kKernel) {
    s->readyNs_ = std::max(s->lastEndNs_, t.submitNs);
    s->startNs_ = now_;
  }
  s->endNs_ = addNs(now_, dur);
  heap_.push(Completion{s->endNs_, dispatchOrder_++, s});
  rrNext_ = s->id() + 1;
}

void Scheduler::wakeCoreWaiters(CoreGroup g) {
  std::vector<Stream *> &w = coreWaiters_[static_cast<int>(g)];
  for (Stream *s : w) {
    s->blockedOn_ = nullptr;
    markDirty(s);
  }
  w.clear();
}

void Scheduler::releaseCores(Stream *s, const Task &t) {
  if (s->grantCube_ || s->grantVector_ || s->grantOther_) {
    free_[static_cast<int>(CoreGroup::kCube)] += s->grantCube_;
    free_[static_cast<int>(CoreGroup::kVector)] += s->grantVector_;
    if (s->grantCube_)
      wakeCoreWaiters(CoreGroup::kCube);
    if (s->grantVector_)
      wakeCoreWaiters(CoreGroup::kVector);
    if (s->grantOther_) {
      CoreGroup g =
          t.engine == Engine::kAiCpu ? CoreGroup::kAiCpu : CoreGroup::kDvpp;
      free_[static_cast<int>(g)] += s->grantOther_;
      wakeCoreWaiters(g);
    }
  }
  s->grantCube_ = s->grantVector_ = s->grantOther_ = 0;
}

void Scheduler::complete(Stream *s) {
  Task &t = s->active_[s->head_];
  releaseCores(s, t);
  if (t.kind == TaskKind::kKernel && s->blocksLeft_ > 0) {
    // Another wave: the kernel stays at the head and asks for cores again.
    s->running_ = false;
    markDirty(s);
    return;
  }
  s->kernelStarted_ = false;
  bool failed = false;
  uint64_t hostNs = 0, hostWallNs = 0;
  if (s->job_) {
    Status st = s->job_->join();
    hostNs = s->job_->hostNs();
    hostWallNs = s->job_->hostWallNs();
    s->job_.reset();
    --liveJobs_;
    if (!st.isOk()) {
      failed = true;
      if (s->error_.isOk())
        s->error_ = st;
    }
  }
  if (t.kind == TaskKind::kEventRecord) {
    t.event->markComplete(t.eventSeq, now_, cost_.eventLatencyNs());
    for (Stream *w : t.event->waiters_) {
      w->blockedOn_ = nullptr;
      markDirty(w);
    }
    t.event->waiters_.clear();
  }
  if (traceEnabled()) {
    TaskRecord r;
    r.name = std::move(t.name);
    r.opType = std::move(t.opType);
    r.kind = t.kind;
    r.engine = t.engine;
    r.stream = s->id();
    r.seq = t.seq;
    r.blockDim = t.kind == TaskKind::kKernel ? t.blockDim : 0;
    r.coresGranted = t.kind == TaskKind::kKernel ? s->peakGrant_ : 0;
    r.vectorCoresGranted = t.engine == Engine::kMix ? s->peakGrantVector_ : 0;
    r.coreTimeNs = t.kind == TaskKind::kKernel ? s->coreTimeNs_ : 0;
    r.vectorCoreTimeNs = t.engine == Engine::kMix ? s->vectorCoreTimeNs_ : 0;
    if (t.event) {
      r.eventId = t.event->id();
      r.eventSeq = t.eventSeq;
    }
    r.bytes = t.bytes;
    r.copyKind = t.copyKind;
    r.failed = failed;
    r.submitNs = t.submitNs;
    r.readyNs = s->readyNs_;
    r.startNs = s->startNs_;
    r.endNs = s->endNs_;
    r.hostNs = hostNs;
    r.hostWallNs = hostWallNs;
    if (aclRuntimeTraceEnabled())
      printAclTraceLine(r);
    records_.push_back(std::move(r));
  }
  s->lastEndNs_ = now_;
  s->running_ = false;
  ++s->head_;
  // Release: a host thread that sees the count sees the task's effects.
  s->completed_.store(t.seq, std::memory_order_release);
  markDirty(s);
}

bool Scheduler::hasUnseenTasks(Stream *s) {
  uint64_t seen = s->active_.empty() ? s->completed() : s->active_.back().seq;
  return s->enqueued() > seen;
}

void Scheduler::completeReturnedCallbacks() {
  for (size_t i = 0; i < putAside_.size();) {
    Stream *s = putAside_[i];
    if (!s->job_->done()) {
      ++i;
      continue;
    }
    putAside_.erase(putAside_.begin() + static_cast<std::ptrdiff_t>(i));
    s->endNs_ = std::max(s->endNs_, now_); // it held its stream until now
    complete(s);
  }
}

Status Scheduler::waitForPutAsideCallback() {
  for (Stream *s : putAside_)
    if (s->job_.get() != currentCallbackJob()) {
      hostWait_ = s->job_;
      return makeStatus(StatusCode::kNotReady, "waiting for a host callback");
    }
  return makeStatus(StatusCode::kDeadlock,
                    "a synchronize from the callback on stream " +
                        std::to_string(putAside_.front()->id()) +
                        " needs that callback to have returned");
}

Status Scheduler::runUntil(const std::function<bool()> &done,
                           const std::vector<Stream *> &streams) {
  // Any stream may have received tasks since the last run.
  for (Stream *s : streams)
    markDirty(s);
  for (;;) {
    if (!putAside_.empty())
      completeReturnedCallbacks();
    if (done())
      return Status::ok();
    round();
    if (heap_.empty()) {
      // Nothing runs and nothing can start, unless a stream received tasks
      // (from a callback, or another host thread) since it was last looked at.
      // A stream blocked on an event or on cores cannot reach its new tasks:
      // counting them would spin here forever once a wait is never met.
      bool fresh = false;
      for (Stream *s : streams)
        if (!s->blockedOn_ && hasUnseenTasks(s)) {
          fresh = true;
          markDirty(s);
        }
      if (fresh)
        continue;
      if (done())
        return Status::ok();
      if (!putAside_.empty())
        return waitForPutAsideCallback();
      return diagnoseDeadlock(streams);
    }
    now_ = heap_.top().end;
    while (!heap_.empty() && heap_.top().end == now_) {
      Stream *s = heap_.top().stream;
      const HostJob *job = s->job_.get();
      if (job && job->isCallback() && !job->done()) {
        if (job != currentCallbackJob()) {
          hostWait_ = s->job_;
          return makeStatus(StatusCode::kNotReady,
                            "waiting for a host callback");
        }
        heap_.pop();
        putAside_.push_back(s);
        continue;
      }
      heap_.pop();
      complete(s);
    }
  }
}

} // namespace geflow::rt
