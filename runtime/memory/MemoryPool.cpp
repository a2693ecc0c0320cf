//===- MemoryPool.cpp -----------------------------------------------------===//
#include "runtime/memory/MemoryPool.h"

#include "runtime/support/MemoryPages.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace geflow::rt {
namespace {

size_t roundUp(size_t v, size_t to) { return (v + to - 1) / to * to; }

/// Segments of a huge page or more are huge-page mappings (MemoryPages.h):
/// a model's workspace is one, touched on every run.
char *allocateSegment(size_t size, bool *hugePages) {
  *hugePages = false;
  if (size >= kHugePageBytes)
    if (void *p = mapHugePages(size)) {
      *hugePages = true;
      return static_cast<char *>(p);
    }
  return static_cast<char *>(std::aligned_alloc(4096, roundUp(size, 4096)));
}

void freeSegment(char *base, size_t size, bool hugePages) {
  if (hugePages)
    unmapHugePages(base, size);
  else
    std::free(base);
}

std::string mib(uint64_t bytes) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed << static_cast<double>(bytes) / (1 << 20) << " MiB";
  return os.str();
}

} // namespace

std::string PoolStats::toString() const {
  std::ostringstream os;
  os << "in use " << mib(inUseBytes) << ", reserved " << mib(reservedBytes)
     << ", peak " << mib(peakInUseBytes) << ", largest free block "
     << mib(largestFreeBlock) << ", fragmentation ";
  os.precision(2);
  os << std::fixed << fragmentation << ", limit "
     << (limitBytes ? mib(limitBytes) : std::string("none"));
  return os.str();
}

MemoryPool::MemoryPool(uint64_t limitBytes) : limit_(limitBytes) {}

MemoryPool::~MemoryPool() {
  // Blocks still allocated at destruction are the caller's leak; their
  // storage goes with the segments.
  for (auto &[ptr, block] : allocated_)
    delete block;
  for (FreeSet *set : {&smallFree_, &largeFree_})
    for (Block *b : *set)
      delete b;
  for (Segment *s : segments_) {
    freeSegment(s->base, s->size, s->hugePages);
    delete s;
  }
}

void MemoryPool::setOracle(StreamOrderOracle oracle) {
  std::lock_guard<std::mutex> lock(mu_);
  oracle_ = std::move(oracle);
}

void MemoryPool::setLimit(uint64_t limitBytes) {
  std::lock_guard<std::mutex> lock(mu_);
  limit_ = limitBytes;
}

bool MemoryPool::usableBy(Block *b, StreamId stream) {
  if (b->freeStream == kNoStream || b->freeStream == stream)
    return true;
  if (!oracle_)
    return false;
  // Once the free point has run, nobody can still be using the block: drop
  // the restriction for good so later lookups and merges are cheap.
  if (oracle_(kNoStream, b->freeStream, b->freeSeq)) {
    b->freeStream = kNoStream;
    return true;
  }
  return stream != kNoStream && oracle_(stream, b->freeStream, b->freeSeq);
}

MemoryPool::Block *MemoryPool::findFree(size_t size, bool small,
                                        StreamId stream) {
  FreeSet &set = freeSetFor(small);
  Block probe;
  probe.size = size;
  // Best fit among the blocks this stream may use.
  for (auto it = set.lower_bound(&probe); it != set.end(); ++it) {
    Block *b = *it;
    if (usableBy(b, stream)) {
      set.erase(it);
      return b;
    }
  }
  return nullptr;
}

Status MemoryPool::newSegment(size_t size, bool small, Block **out) {
  if (limit_ && stats_.reservedBytes + size > limit_)
    return makeStatus(StatusCode::kOutOfMemory, "limit");
  bool hugePages = false;
  char *base = allocateSegment(size, &hugePages);
  if (!base)
    return makeStatus(StatusCode::kOutOfMemory, "host allocation failed");
  auto *seg = new Segment{base, size, small, hugePages};
  segments_.push_back(seg);
  auto *b = new Block;
  b->ptr = seg->base;
  b->size = size;
  b->segment = seg;
  stats_.reservedBytes += size;
  stats_.numSegments = segments_.size();
  *out = b;
  return Status::ok();
}

void MemoryPool::splitIfWorthIt(Block *b, size_t size, bool small) {
  size_t rest = b->size - size;
  // Small blocks split down to the alignment; a large block keeps a remainder
  // that only the small pool could use, as a GPU caching allocator does.
  if (small ? rest < kAlignment : rest <= kSmallLimit)
    return;
  auto *r = new Block;
  r->ptr = b->ptr + size;
  r->size = rest;
  r->segment = b->segment;
  r->prev = b;
  r->next = b->next;
  r->freeStream = b->freeStream;
  r->freeSeq = b->freeSeq;
  if (b->next)
    b->next->prev = r;
  b->next = r;
  b->size = size;
  freeSetFor(small).insert(r);
}

Status MemoryPool::allocate(size_t size, StreamId stream, void **out) {
  if (!out)
    return makeStatus(StatusCode::kInvalidArgument, "malloc: null out pointer");
  *out = nullptr;
  if (size == 0)
    return makeStatus(StatusCode::kInvalidArgument, "malloc: size is 0");
  // Rounding a size near SIZE_MAX up to the alignment would wrap to 0 and
  // hand out a zero-byte block for it.
  if (size > kMaxAllocation)
    return makeStatus(StatusCode::kOutOfMemory,
                      "out of device memory: " + std::to_string(size) +
                          " bytes requested, more than any device holds");
  std::lock_guard<std::mutex> lock(mu_);
  size_t rounded = roundUp(size, kAlignment);
  bool small = rounded <= kSmallLimit;
  Block *b = findFree(rounded, small, stream);
  if (b) {
    ++stats_.numCacheHits;
  } else {
    size_t segSize = small ? kSmallSegment : roundUp(rounded, kLargeRounding);
    Status st = newSegment(segSize, small, &b);
    if (!st.isOk()) {
      releaseCachedLocked();
      st = newSegment(segSize, small, &b);
    }
    if (!st.isOk()) {
      ++stats_.numOoms;
      std::string where =
          stream == kNoStream ? "" : " on stream " + std::to_string(stream);
      return makeStatus(StatusCode::kOutOfMemory,
                        "out of device memory: " + std::to_string(size) +
                            " bytes requested" + where + " (a new " +
                            mib(segSize) + " segment is needed); " +
                            statsLocked().toString());
    }
  }
  splitIfWorthIt(b, rounded, small);
  b->allocated = true;
  b->freeStream = kNoStream;
  allocated_[b->ptr] = b;
  stats_.inUseBytes += b->size;
  stats_.peakInUseBytes = std::max(stats_.peakInUseBytes, stats_.inUseBytes);
  ++stats_.numAllocs;
  *out = b->ptr;
  return Status::ok();
}

bool MemoryPool::tryMerge(Block *left, Block *right) {
  // Only blocks with the same reuse restriction merge: merging would
  // otherwise hide free space from streams that could use half of it.
  if (left->allocated || right->allocated ||
      left->freeStream != right->freeStream)
    return false;
  bool small = left->segment->small;
  FreeSet &set = freeSetFor(small);
  set.erase(left);
  set.erase(right);
  left->size += right->size;
  left->freeSeq = std::max(left->freeSeq, right->freeSeq);
  left->next = right->next;
  if (right->next)
    right->next->prev = left;
  delete right;
  return true;
}

Status MemoryPool::freeOnStream(void *ptr, StreamId stream, uint64_t seq) {
  if (!ptr)
    return makeStatus(StatusCode::kInvalidArgument, "free: null pointer");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = allocated_.find(ptr);
  if (it == allocated_.end())
    return makeStatus(StatusCode::kInvalidArgument,
                      "free: pointer was not returned by this device's malloc "
                      "or was already freed");
  Block *b = it->second;
  allocated_.erase(it);
  stats_.inUseBytes -= b->size;
  b->allocated = false;
  b->freeStream = stream;
  b->freeSeq = seq;
  FreeSet &set = freeSetFor(b->segment->small);
  // Neighbours whose free point has run lose their restriction first, so a
  // block freed synchronously merges with them.
  for (Block *n : {b->prev, b->next})
    if (n && !n->allocated && n->freeStream != kNoStream && oracle_ &&
        oracle_(kNoStream, n->freeStream, n->freeSeq))
      n->freeStream = kNoStream;
  set.insert(b);
  if (b->next)
    tryMerge(b, b->next);
  Block *prev = b->prev;
  if (prev && tryMerge(prev, b))
    b = prev;
  set.insert(b);
  return Status::ok();
}

Status MemoryPool::free(void *ptr) { return freeOnStream(ptr, kNoStream, 0); }

void MemoryPool::releaseCachedLocked() {
  std::vector<Segment *> kept;
  for (Segment *s : segments_) {
    // A wholly free segment is one block with no neighbours.
    Block *only = nullptr;
    FreeSet &set = freeSetFor(s->small);
    for (Block *b : set)
      if (b->segment == s && !b->prev && !b->next) {
        only = b;
        break;
      }
    if (only && usableBy(only, kNoStream)) {
      set.erase(only);
      delete only;
      stats_.reservedBytes -= s->size;
      freeSegment(s->base, s->size, s->hugePages);
      delete s;
      continue;
    }
    kept.push_back(s);
  }
  segments_ = std::move(kept);
  stats_.numSegments = segments_.size();
}

void MemoryPool::releaseCached() {
  std::lock_guard<std::mutex> lock(mu_);
  releaseCachedLocked();
}

bool MemoryPool::owns(const void *ptr) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const Segment *s : segments_)
    if (ptr >= s->base && ptr < s->base + s->size)
      return true;
  return false;
}

size_t MemoryPool::blockSize(const void *ptr) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = allocated_.find(ptr);
  return it == allocated_.end() ? 0 : it->second->size;
}

PoolStats MemoryPool::statsLocked() const {
  PoolStats s = stats_;
  s.limitBytes = limit_;
  s.largestFreeBlock = 0;
  for (const FreeSet *set : {&smallFree_, &largeFree_})
    if (!set->empty())
      s.largestFreeBlock =
          std::max<uint64_t>(s.largestFreeBlock, (*set->rbegin())->size);
  uint64_t freeBytes = s.reservedBytes - s.inUseBytes;
  s.fragmentation =
      freeBytes == 0
          ? 0
          : 1.0 - static_cast<double>(s.largestFreeBlock) / freeBytes;
  return s;
}

PoolStats MemoryPool::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return statsLocked();
}

} // namespace geflow::rt
