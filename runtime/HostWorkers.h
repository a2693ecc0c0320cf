//===- HostWorkers.h - Where kernels' host functions really run -----------===//
//
// When the scheduler dispatches a kernel it hands the kernel's blocks to the
// worker pool as a HostJob and carries on simulating. When the kernel's
// virtual completion comes up, the scheduler joins the job: it runs the
// blocks no worker has claimed yet itself, then waits for the rest. So the
// virtual timeline never gets ahead of the real results, and a short kernel
// costs no thread hand-off at all.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_HOSTWORKERS_H
#define GEFLOW_RUNTIME_HOSTWORKERS_H

#include "runtime/Task.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace geflow::rt {

/// True on a thread while it runs a kernel's block. A kernel must not
/// synchronize: the device is waiting for it with the simulation held.
bool inKernelWork();

/// The error of a synchronous call made from a kernel's block: the device
/// waits for the block with the simulation held, so the call could never
/// return.
Status refuseInsideKernel(const char *what);

class HostJob;
class ReportQueue;

/// The callback job the calling thread is running, or null. A synchronize
/// from a callback may run the device (CANN allows it), but not wait for
/// this very callback.
const HostJob *currentCallbackJob();

/// The report queue whose callbacks the calling thread is running inside
/// aclrtProcessReport, or null: while it does, that queue's other callbacks
/// cannot start.
const ReportQueue *currentReportQueue();

/// On a thread running a kernel's block: how many host threads may run that
/// kernel's blocks (this one, and the workers it was handed to); 1 outside
/// a block. Kernels that fold their blocks into one share per host thread
/// (a share builds its operands once) fold into this many, so a kernel run
/// by one thread is one share, whatever the machine's core count.
unsigned hostThreadsOfKernel();

/// Sets hostThreadsOfKernel() on this thread for its lifetime: HostJob's
/// blocks, and tests that run a kernel's blocks on threads of their own.
class KernelHostThreadsScope {
public:
  explicit KernelHostThreadsScope(unsigned threads);
  ~KernelHostThreadsScope();
  KernelHostThreadsScope(const KernelHostThreadsScope &) = delete;
  KernelHostThreadsScope &operator=(const KernelHostThreadsScope &) = delete;

private:
  unsigned outer_;
};

/// Whether a kernel of this cost is worth handing to the workers. Below the
/// cut the wake-up, the job's cache lines moving between cores and the
/// join cost more than splitting the work saves: the thread that joins the
/// kernel runs every block itself and wakes nobody.
bool worthSharing(const KernelCost &cost);

class HostJob {
public:
  /// A kernel: `fn` (owned by the task, which outlives the job's runs) is
  /// called for blocks 0..blockDim-1.
  /// `name` is the task's, which outlives the job's runs; the error text is
  /// only built if a block fails.
  HostJob(const KernelFn *fn, uint32_t blockDim, const std::string *name,
          uint32_t stream)
      : fn_(fn), blockDim_(blockDim), name_(name), stream_(stream),
        unclaimed_(uint64_t(blockDim) << 32) {}
  /// A host callback, which the job owns: the device may give up on it (a
  /// synchronize that reports a deadlock, a device reset) while a report
  /// thread still holds it. One block; when `reportQueue` is set only that
  /// queue's thread may run it, so join() does not help. The queue holds
  /// the job, so the job only names the queue (the device owns both).
  HostJob(HostFn callback, const ReportQueue *reportQueue, uint32_t stream)
      : callback_(std::move(callback)), blockDim_(1),
        helpable_(reportQueue == nullptr), stream_(stream),
        reportQueue_(reportQueue), unclaimed_(uint64_t(1) << 32) {}

  /// Claims and runs blocks until none are left. Any thread. The workers
  /// claim from the first block on, and join() from the last when the job
  /// is shared: a kernel's first host share runs on a worker and its last
  /// on the joining thread, kernel after kernel, so the part of a tensor a
  /// share wrote is still in that core's caches when the next kernel's same
  /// share reads it. Taken in any order, half of it came from the other
  /// core, about 200 ns a line on a 2-vCPU EPYC VM (430 ns round trip):
  /// at two threads EfficientNet 6.3 -> 5.7 ms, BERT 4.3 -> 4.0, MobileNet
  /// v3 3.4 -> 3.3, DenseNet 23.9 -> 23.1.
  void work(bool fromBack = false);
  /// Runs what is left (if helpable) and blocks until every block is done.
  /// Returns the first failure.
  Status join();
  /// Waits up to `ms` for every block to be done; whether they are.
  bool waitDone(uint32_t ms);
  bool done() const {
    return done_.load(std::memory_order_acquire) == blockDim_;
  }
  /// Whether a thread has claimed a block (from either end).
  bool started() const {
    return unclaimed_.load(std::memory_order_relaxed) != uint64_t(blockDim_)
                                                             << 32;
  }
  bool isCallback() const { return static_cast<bool>(callback_); }
  /// Whether any thread may run it (join() helps), else only the report
  /// queue's thread.
  bool helpable() const { return helpable_; }
  const ReportQueue *reportQueue() const { return reportQueue_; }
  uint32_t stream() const { return stream_; }
  /// The host threads that may run this job's blocks (see
  /// hostThreadsOfKernel). Call before the job is submitted.
  void setHostThreads(unsigned threads) { hostThreads_ = threads; }
  /// Times every block from here on; hostNs() is then the CPU time the
  /// blocks took, summed over the threads that ran them (a profile's host
  /// time of the kernel). Call before the job is submitted.
  void timeBlocks() { timed_ = true; }
  uint64_t hostNs() const { return hostNs_.load(std::memory_order_relaxed); }
  /// With timeBlocks: the wall time from the first block's start to the
  /// last block's end (what the kernel adds to host latency, where hostNs
  /// sums its threads).
  uint64_t hostWallNs() const {
    const uint64_t first = firstStartNs_.load(std::memory_order_relaxed);
    const uint64_t last = lastEndNs_.load(std::memory_order_relaxed);
    return last > first ? last - first : 0;
  }

private:
  void runBlock(uint32_t idx);

  const KernelFn *fn_ = nullptr;
  const HostFn callback_;
  const uint32_t blockDim_;
  const bool helpable_ = true;
  bool timed_ = false;
  unsigned hostThreads_ = 1;
  std::atomic<uint64_t> hostNs_{0};
  std::atomic<uint32_t> timing_{0}; // threads in a timed work()
  std::atomic<uint64_t> firstStartNs_{UINT64_MAX}, lastEndNs_{0};
  const std::string *name_ = nullptr; // kernel name, for errors
  const uint32_t stream_;
  const ReportQueue *const reportQueue_ = nullptr;
  bool claim(bool fromBack, uint32_t *idx);

  // The blocks not yet claimed: [low 32 bits, high 32 bits); a claim moves
  // one end (compare-exchange), so each index goes to exactly one thread.
  std::atomic<uint64_t> unclaimed_;
  // Release on each finished block so join() (acquire) sees its writes.
  std::atomic<uint32_t> done_{0};
  std::mutex mu_; // guards error_ and the join wake-up
  std::condition_variable cv_;
  Status error_;
};

/// A fixed set of threads taking HostJobs from one queue.
class WorkerPool {
public:
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  /// Offers `job` to up to `copies` workers at once.
  void submit(const std::shared_ptr<HostJob> &job, unsigned copies);
  unsigned size() const { return static_cast<unsigned>(threads_.size()); }

private:
  void loop();

  /// Polls for a job for a short while before sleeping on cv_.
  void pollForWork() const;

  std::mutex mu_; // guards queue_ and stop_
  std::condition_variable cv_;
  std::deque<std::shared_ptr<HostJob>> queue_;
  // queue_.size(), written under mu_, read without it by polling workers
  // (relaxed: a stale value only ends or lengthens a poll; mu_ orders the
  // queue itself).
  std::atomic<size_t> queued_{0};
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

/// Callbacks for streams subscribed to one host thread (aclrtSubscribeReport);
/// that thread drains them in aclrtProcessReport.
class ReportQueue {
public:
  explicit ReportQueue(uint64_t threadId) : threadId_(threadId) {}
  void push(std::shared_ptr<HostJob> job);
  /// Runs every queued callback, waiting up to `timeoutMs` (-1: forever) for
  /// the first. kTimeout if none came.
  Status process(int32_t timeoutMs);
  uint64_t threadId() const { return threadId_; }
  /// Whether no thread is inside process() and none has been for `ms`:
  /// its thread has stopped serving callbacks (or never started).
  bool idleFor(uint32_t ms) const;

private:
  const uint64_t threadId_;
  std::atomic<int> serving_{0};           // threads inside process()
  std::atomic<int64_t> lastServedMs_{-1}; // steady clock; -1 = never
  std::mutex mu_;                         // guards jobs_
  std::condition_variable cv_;
  std::deque<std::shared_ptr<HostJob>> jobs_;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_HOSTWORKERS_H
