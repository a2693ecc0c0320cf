//===- DeviceReports.cpp - Callbacks on subscribed host threads -----------===//
//
// aclrtSubscribeReport ties a stream to a host thread; that thread runs the
// stream's callbacks when it calls aclrtProcessReport. Streams nobody
// subscribed have their callbacks run on the worker pool.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"

namespace geflow::rt {

Status Device::subscribeReport(uint64_t threadId, Stream *stream) {
  Stream *s = resolve(stream);
  std::lock_guard<std::mutex> lock(reportMu_);
  auto &q = reportQueues_[threadId];
  if (!q)
    q = std::make_shared<ReportQueue>(threadId);
  subscriptions_[s->id()] = threadId;
  return Status::ok();
}

Status Device::unsubscribeReport(uint64_t threadId, Stream *stream) {
  Stream *s = resolve(stream);
  std::lock_guard<std::mutex> lock(reportMu_);
  auto it = subscriptions_.find(s->id());
  if (it == subscriptions_.end() || it->second != threadId)
    return makeStatus(StatusCode::kInvalidArgument,
                      "unsubscribe: stream " + std::to_string(s->id()) +
                          " is not subscribed to that thread");
  subscriptions_.erase(it);
  return Status::ok();
}

Status Device::processReport(uint64_t threadId, int32_t timeoutMs) {
  std::shared_ptr<ReportQueue> q;
  {
    std::lock_guard<std::mutex> lock(reportMu_);
    auto it = reportQueues_.find(threadId);
    if (it != reportQueues_.end())
      q = it->second;
  }
  if (!q)
    return makeStatus(StatusCode::kFailedPrecondition,
                      "process report: no stream is subscribed to this thread");
  return q->process(timeoutMs);
}

std::shared_ptr<ReportQueue> Device::reportQueueFor(StreamId stream) {
  std::lock_guard<std::mutex> lock(reportMu_);
  auto it = subscriptions_.find(stream);
  if (it == subscriptions_.end())
    return nullptr;
  return reportQueues_[it->second];
}

} // namespace geflow::rt
