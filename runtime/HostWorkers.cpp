//===- HostWorkers.cpp ----------------------------------------------------===//
#include "runtime/HostWorkers.h"

#include <chrono>
#include <ctime>
#include <exception>

namespace geflow::rt {
namespace {
thread_local bool tlsInKernelWork = false;            // this thread only
thread_local const HostJob *tlsCallbackJob = nullptr; // this thread only
thread_local const ReportQueue *tlsReportQueue = nullptr;

int64_t steadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// CPU time of the calling thread: a block's cost without the time other
/// processes held the core (profiles are taken on shared machines).
uint64_t threadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

uint64_t wallNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// `bound` = min(bound, value), and max for raiseTo: the span of the
/// blocks that ran, from any thread.
void lowerTo(std::atomic<uint64_t> &bound, uint64_t value) {
  uint64_t seen = bound.load(std::memory_order_relaxed);
  while (value < seen &&
         !bound.compare_exchange_weak(seen, value, std::memory_order_relaxed))
    ;
}
void raiseTo(std::atomic<uint64_t> &bound, uint64_t value) {
  uint64_t seen = bound.load(std::memory_order_relaxed);
  while (value > seen &&
         !bound.compare_exchange_weak(seen, value, std::memory_order_relaxed))
    ;
}
} // namespace

bool inKernelWork() { return tlsInKernelWork; }

Status refuseInsideKernel(const char *what) {
  return makeStatus(StatusCode::kFailedPrecondition,
                    std::string(what) +
                        " called from a kernel function; the device is "
                        "waiting for that function to return");
}
const HostJob *currentCallbackJob() { return tlsCallbackJob; }
const ReportQueue *currentReportQueue() { return tlsReportQueue; }

namespace {
thread_local unsigned tlsKernelHostThreads = 1; // of the block running here
} // namespace

unsigned hostThreadsOfKernel() { return tlsKernelHostThreads; }

KernelHostThreadsScope::KernelHostThreadsScope(unsigned threads)
    : outer_(tlsKernelHostThreads) {
  tlsKernelHostThreads = threads;
}

KernelHostThreadsScope::~KernelHostThreadsScope() {
  tlsKernelHostThreads = outer_;
}

bool worthSharing(const KernelCost &cost) {
  // Host microseconds, roughly: one core does ~50 GFLOP/s in a packed GEMM
  // and streams ~20 GB/s. A polling worker takes a job in about a
  // microsecond, a sleeping one in tens: a kernel under ~10 us gains little
  // from a second thread and loses its whole run time to a late one.
  constexpr double kFlopsPerUs = 50e3, kBytesPerUs = 20e3, kCutUs = 10;
  return cost.flops / kFlopsPerUs + cost.bytes / kBytesPerUs >= kCutUs;
}

void HostJob::runBlock(uint32_t idx) {
  Status st;
  // A callback may synchronize and so run other jobs on this thread.
  const bool outerKernel = tlsInKernelWork;
  const HostJob *outerCallback = tlsCallbackJob;
  if (fn_)
    tlsInKernelWork = true;
  else
    tlsCallbackJob = this;
  KernelHostThreadsScope threads(hostThreads_);
  if (timed_)
    lowerTo(firstStartNs_, wallNs());
  try {
    if (fn_)
      st = (*fn_)(idx, blockDim_);
    else if (callback_)
      callback_();
  } catch (const std::exception &e) {
    st = makeStatus(StatusCode::kKernelFailed,
                    std::string("threw an exception: ") + e.what());
  } catch (...) {
    st = makeStatus(StatusCode::kKernelFailed, "threw an unknown exception");
  }
  tlsInKernelWork = outerKernel;
  tlsCallbackJob = outerCallback;
  if (timed_)
    raiseTo(lastEndNs_, wallNs());
  if (!st.isOk()) {
    std::lock_guard<std::mutex> lock(mu_);
    if (error_.isOk())
      error_ = makeStatus(
          StatusCode::kKernelFailed,
          (name_ ? "kernel '" + *name_ + "'" : std::string("callback")) +
              " on stream " + std::to_string(stream_) + " failed in block " +
              std::to_string(idx) + "/" + std::to_string(blockDim_) + ": " +
              st.message());
  }
  // acq_rel: publish this block's writes; the last finisher wakes join().
  if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == blockDim_) {
    std::lock_guard<std::mutex> lock(mu_);
    cv_.notify_all();
  }
}

bool HostJob::claim(bool fromBack, uint32_t *idx) {
  uint64_t seen = unclaimed_.load(std::memory_order_relaxed);
  for (;;) {
    const uint32_t front = static_cast<uint32_t>(seen);
    const uint32_t back = static_cast<uint32_t>(seen >> 32);
    if (front >= back)
      return false;
    const uint64_t next = fromBack ? (uint64_t(back - 1) << 32) | front
                                   : (uint64_t(back) << 32) | (front + 1);
    if (unclaimed_.compare_exchange_weak(seen, next,
                                         std::memory_order_relaxed)) {
      *idx = fromBack ? back - 1 : front;
      return true;
    }
  }
}

void HostJob::work(bool fromBack) {
  uint32_t idx;
  if (!timed_) {
    while (claim(fromBack, &idx))
      runBlock(idx);
    return;
  }
  // CPU time once per thread and job, not per block: the thread's CPU
  // clock is a system call in a VM (1.2 us here), which timed per block
  // had added 0.1 ms to a pool or an add of 48 blocks. join() waits for
  // timing_ to drop back, so the sum is whole when it returns.
  timing_.fetch_add(1, std::memory_order_acq_rel);
  const uint64_t started = threadCpuNs();
  while (claim(fromBack, &idx))
    runBlock(idx);
  hostNs_.fetch_add(threadCpuNs() - started, std::memory_order_relaxed);
  timing_.fetch_sub(1, std::memory_order_release);
}

Status HostJob::join() {
  if (helpable_)
    work(/*fromBack=*/hostThreads_ > 1);
  // The blocks other threads still run are about as long as the ones this
  // thread just ran: wait for them awake for a while (a sleep and its wake-up
  // cost tens of microseconds), and only then sleep.
  constexpr auto kSpin = std::chrono::microseconds(200);
  if (!done()) {
    auto until = std::chrono::steady_clock::now() + kSpin;
    while (!done() && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return done(); });
  lock.unlock(); // the last block's thread may still need mu_ to notify
  // A thread that ran blocks counted itself in timing_ before the first
  // (which done_ published); it adds its CPU time right after the last.
  while (timed_ && timing_.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
  lock.lock();
  return error_;
}

bool HostJob::waitDone(uint32_t ms) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, std::chrono::milliseconds(ms),
                      [&] { return done(); });
}

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned i = 0; i < threads; ++i)
    threads_.emplace_back([this] { loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (std::thread &t : threads_)
    t.join();
}

void WorkerPool::submit(const std::shared_ptr<HostJob> &job, unsigned copies) {
  if (threads_.empty())
    return; // join() runs everything on the scheduler's thread
  copies = std::min<unsigned>(copies, size());
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (unsigned i = 0; i < copies; ++i)
      queue_.push_back(job);
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  if (copies == 1)
    cv_.notify_one();
  else
    cv_.notify_all();
}

void WorkerPool::pollForWork() const {
  // A model's kernels arrive back to back, tens of microseconds apart: a
  // worker that polls that long takes the next one without the wake-up of a
  // sleeping thread, which would cost about as much as a small kernel.
  constexpr auto kPoll = std::chrono::microseconds(100);
  auto until = std::chrono::steady_clock::now() + kPoll;
  while (queued_.load(std::memory_order_relaxed) == 0 &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
}

void WorkerPool::loop() {
  for (;;) {
    pollForWork();
    std::shared_ptr<HostJob> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty())
        return; // stop_ and nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_relaxed);
    }
    job->work();
  }
}

void ReportQueue::push(std::shared_ptr<HostJob> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.push_back(std::move(job));
  }
  cv_.notify_all();
}

bool ReportQueue::idleFor(uint32_t ms) const {
  if (serving_.load(std::memory_order_acquire) > 0)
    return false;
  const int64_t last = lastServedMs_.load(std::memory_order_relaxed);
  return last < 0 || steadyMs() - last >= static_cast<int64_t>(ms);
}

Status ReportQueue::process(int32_t timeoutMs) {
  serving_.fetch_add(1, std::memory_order_acq_rel);
  struct Served {
    ReportQueue &q;
    const ReportQueue *outer = tlsReportQueue;
    explicit Served(ReportQueue &q) : q(q) { tlsReportQueue = &q; }
    ~Served() {
      tlsReportQueue = outer;
      q.lastServedMs_.store(steadyMs(), std::memory_order_relaxed);
      q.serving_.fetch_sub(1, std::memory_order_acq_rel);
    }
  } served(*this);
  std::deque<std::shared_ptr<HostJob>> batch;
  {
    std::unique_lock<std::mutex> lock(mu_);
    auto ready = [&] { return !jobs_.empty(); };
    if (timeoutMs < 0)
      cv_.wait(lock, ready);
    else if (!cv_.wait_for(lock, std::chrono::milliseconds(timeoutMs), ready))
      return makeStatus(StatusCode::kTimeout,
                        "process report: no callback within " +
                            std::to_string(timeoutMs) + " ms");
    batch.swap(jobs_);
  }
  for (auto &job : batch)
    job->work();
  return Status::ok();
}

} // namespace geflow::rt
