//===- MemoryPool.h - Caching, stream-ordered device memory ---------------===//
//
// Device memory lives in host RAM. The pool caches it the way a GPU caching
// allocator does: requests are rounded to size classes, carved out of large
// segments by splitting free blocks, and merged back with their neighbours on
// free. Segments are only returned to the host by releaseCached() or when the
// limit is hit.
//
// Stream order: a block freed on stream A at A's task sequence number `seq` is
// reusable by A at once (A's later tasks run after its earlier ones), and by
// another stream B only once B is ordered after A's task `seq` — because B
// waited on an event recorded on A after the free, or because the simulation
// already ran A past it. The pool asks the owner of the streams (the Device)
// through a StreamOrderOracle.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_MEMORY_MEMORYPOOL_H
#define GEFLOW_RUNTIME_MEMORY_MEMORYPOOL_H

#include "runtime/Task.h"
#include "runtime/support/Status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace geflow::rt {

struct PoolStats {
  uint64_t inUseBytes = 0;    // handed out (rounded sizes)
  uint64_t reservedBytes = 0; // taken from the host, in segments
  uint64_t peakInUseBytes = 0;
  uint64_t largestFreeBlock = 0;
  uint64_t limitBytes = 0; // 0 = no limit
  uint64_t numSegments = 0;
  uint64_t numAllocs = 0;    // successful allocations
  uint64_t numCacheHits = 0; // allocations served without a new segment
  uint64_t numOoms = 0;
  /// 1 - largest free block / free bytes: 0 when free space is one piece.
  double fragmentation = 0;

  std::string toString() const;
};

/// True when tasks enqueued on `consumer` from now on run after task `seq` of
/// stream `producer`. With consumer == kNoStream: when that task has already
/// run. Called with the pool's lock held; must not call back into the pool.
using StreamOrderOracle =
    std::function<bool(StreamId consumer, StreamId producer, uint64_t seq)>;

class MemoryPool {
public:
  static constexpr size_t kAlignment = 512;         // every block
  static constexpr size_t kSmallLimit = 1 << 20;    // small pool: <= 1 MiB
  static constexpr size_t kSmallSegment = 2 << 20;  // small pool segments
  static constexpr size_t kLargeRounding = 2 << 20; // large segment rounding
  /// Larger requests fail as out of memory; rounding them up cannot wrap.
  static constexpr size_t kMaxAllocation = SIZE_MAX / 2;

  explicit MemoryPool(uint64_t limitBytes = 0);
  ~MemoryPool();
  MemoryPool(const MemoryPool &) = delete;
  MemoryPool &operator=(const MemoryPool &) = delete;

  void setOracle(StreamOrderOracle oracle);
  void setLimit(uint64_t limitBytes);

  /// Allocates `size` bytes for use on `stream` (kNoStream: any stream, from
  /// blocks no stream still orders). Out of memory carries the statistics.
  Status allocate(size_t size, StreamId stream, void **out);
  /// Frees at once: the caller guarantees no queued task still uses it.
  Status free(void *ptr);
  /// Stream-ordered free after task `seq` of `stream` (the last one enqueued).
  Status freeOnStream(void *ptr, StreamId stream, uint64_t seq);
  /// Returns wholly free, unrestricted segments to the host.
  void releaseCached();

  bool owns(const void *ptr) const;
  /// The usable size of the block starting at `ptr`, or 0.
  size_t blockSize(const void *ptr) const;
  PoolStats stats() const;

private:
  struct Segment;
  struct Block {
    char *ptr = nullptr;
    size_t size = 0;
    Segment *segment = nullptr;
    Block *prev = nullptr; // neighbours in the segment, by address
    Block *next = nullptr;
    bool allocated = false;
    // For a free block: the stream that freed it and its sequence number then.
    StreamId freeStream = kNoStream;
    uint64_t freeSeq = 0;
  };
  struct Segment {
    char *base = nullptr;
    size_t size = 0;
    bool small = false;
    bool hugePages = false; // base is a mapping of mapHugePages(size)
  };
  struct BySize {
    bool operator()(const Block *a, const Block *b) const {
      return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
    }
  };
  using FreeSet = std::set<Block *, BySize>;

  FreeSet &freeSetFor(bool small) { return small ? smallFree_ : largeFree_; }
  bool usableBy(Block *b, StreamId stream);
  Block *findFree(size_t size, bool small, StreamId stream);
  Status newSegment(size_t size, bool small, Block **out);
  void splitIfWorthIt(Block *b, size_t size, bool small);
  void insertFree(Block *b);
  bool tryMerge(Block *left, Block *right);
  void releaseCachedLocked();
  PoolStats statsLocked() const;

  mutable std::mutex mu_; // guards everything below; any host thread
  StreamOrderOracle oracle_;
  uint64_t limit_ = 0;
  FreeSet smallFree_, largeFree_;
  std::unordered_map<const void *, Block *> allocated_;
  std::vector<Segment *> segments_;
  PoolStats stats_;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_MEMORY_MEMORYPOOL_H
