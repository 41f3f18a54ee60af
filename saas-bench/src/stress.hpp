// The three stress functions of a request, in the SAC'20 order: allocate and touch memory,
// compute, write the result to a file, free the memory. Units: docs/saas-bench.md#units.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "tenant.hpp"

namespace saasbench::stress {

inline constexpr std::size_t kMemoryUnitBytes = 1024;
inline constexpr std::uint64_t kCpuStepsPerUnit = 10'000;
inline constexpr std::size_t kIoBlockBytes = 4096;

// memory (checksum = seed when units is 0): `units` KiB of fresh anonymous memory (its own mmap, so every request pays
// the page faults, whatever malloc's thresholds), every byte written, one word per 64-byte line read back; unmapped
// when the block goes out of scope. The checksum keeps the work from being elided.
class MemoryBlock {
 public:
  MemoryBlock(std::uint32_t units, std::uint64_t seed);  // throws std::bad_alloc
  ~MemoryBlock();
  MemoryBlock(const MemoryBlock&) = delete;
  MemoryBlock& operator=(const MemoryBlock&) = delete;
  std::size_t size() const { return size_; }
  std::uint64_t checksum() const { return checksum_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_;
  std::uint64_t checksum_;
};

// cpu: `units` × 10,000 dependent xorshift64 steps folded into one value.
std::uint64_t cpu(std::uint32_t units, std::uint64_t seed);

// A file that one worker thread owns and overwrites (from offset 0) on every request, so
// the data directory's size stays bounded. Closed and removed on destruction.
class ScratchFile {
 public:
  explicit ScratchFile(std::filesystem::path path);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_;
};

// io: `units` 4 KiB blocks, each filled from `value` and written with its own pwrite at
// offset i × 4 KiB; then one fdatasync when `fsync`. Throws std::system_error on failure.
void io(const ScratchFile& file, std::uint32_t units, std::uint64_t value, bool fsync);

// Runs a whole profile; returns the computed value.
std::uint64_t run(const Profile& p, const ScratchFile& file, std::uint64_t seed);

// One ScratchFile per worker thread, in `dir` (created if missing).
class ScratchFiles {
 public:
  ScratchFiles(const std::filesystem::path& dir, std::size_t count);
  const ScratchFile& at(std::size_t worker) const { return *files_.at(worker); }

 private:
  std::vector<std::unique_ptr<ScratchFile>> files_;
};

}  // namespace saasbench::stress
