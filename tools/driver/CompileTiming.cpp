//===- CompileTiming.cpp - wall time and peak memory per compile phase ----===//

#include "tools/driver/CompileTiming.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <fstream>
#include <string>

namespace geflow::driver {

namespace {

/// A "VmHWM:   1234 kB" line of /proc/self/status, in bytes; 0 if absent.
uint64_t readHighWaterMark() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0)
      return std::stoull(line.substr(6)) * 1024;
  return 0;
}

/// "5" resets the high-water mark to the current RSS (Linux >= 4.0).
bool resetHighWaterMark() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return clear.good();
}

} // namespace

uint64_t peakResidentBytes() { return readHighWaterMark(); }

CompileTimingManager::CompileTimingManager() { root_.name = "Total"; }

CompileTimingManager::~CompileTimingManager() = default;

std::optional<void *> CompileTimingManager::rootTimer() { return &root_; }

void CompileTimingManager::sampleMemory() {
  uint64_t peak = readHighWaterMark();
  for (Node *node : running_)
    node->peakBytes = std::max(node->peakBytes, peak);
  if (resetWorks_)
    resetWorks_ = resetHighWaterMark();
}

void CompileTimingManager::startTimer(void *handle) {
  auto *node = static_cast<Node *>(handle);
  sampleMemory();
  if (node->running++ == 0) {
    node->start = std::chrono::steady_clock::now();
    running_.push_back(node);
  }
}

void CompileTimingManager::stopTimer(void *handle) {
  auto *node = static_cast<Node *>(handle);
  if (node->running == 0)
    return;
  sampleMemory();
  if (--node->running > 0)
    return;
  node->seconds += std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - node->start)
                       .count();
  running_.erase(std::find(running_.begin(), running_.end(), node));
}

void *
CompileTimingManager::nestTimer(void *handle, const void *id,
                                llvm::function_ref<std::string()> nameBuilder) {
  auto *parent = static_cast<Node *>(handle);
  Node *&child = parent->byId[id];
  if (!child) {
    parent->children.push_back(std::make_unique<Node>());
    child = parent->children.back().get();
    child->name = nameBuilder();
  }
  return child;
}

void CompileTimingManager::printNode(llvm::raw_ostream &os, const Node &node,
                                     unsigned indent, double total) {
  double share = total > 0 ? 100 * node.seconds / total : 0;
  os << llvm::formatv("  {0,10:F4} ({1,5:F1}%)  {2,10:F1} MiB  {3}{4}\n",
                      node.seconds, share, node.peakBytes / (1024.0 * 1024.0),
                      std::string(indent * 2, ' '), node.name);
  for (const auto &child : node.children)
    printNode(os, *child, indent + 1, total);
}

void CompileTimingManager::print(llvm::raw_ostream &os) {
  while (!running_.empty())
    stopTimer(running_.back());
  double total = root_.seconds;
  os << "===" << std::string(73, '-') << "===\n"
     << std::string(26, ' ') << "... Execution time report ...\n"
     << "===" << std::string(73, '-') << "===\n"
     << llvm::formatv("  Total Execution Time: {0:F4} seconds\n", total);
  if (!resetWorks_)
    os << "  (peak RSS is the process's peak so far: /proc/self/clear_refs "
          "is not writable)\n";
  os << "\n  ----Wall Time----  ---Peak RSS---  ----Name----\n";
  for (const auto &child : root_.children)
    printNode(os, *child, 0, total);
  os << llvm::formatv("  {0,10:F4} ({1,5:F1}%)  {2,10:F1} MiB  {3}\n", total,
                      100.0, root_.peakBytes / (1024.0 * 1024.0), root_.name);
}

} // namespace geflow::driver
