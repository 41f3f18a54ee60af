#include "stress.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <system_error>

namespace saasbench::stress {

namespace {
[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}
}  // namespace

MemoryBlock::MemoryBlock(std::uint32_t units, std::uint64_t seed)
    : size_(std::size_t{units} * kMemoryUnitBytes), checksum_(seed) {
  if (size_ == 0) return;
  void* p = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<std::byte*>(p);
  std::memset(data_, static_cast<int>(seed | 1U) & 0xff, size_);
  std::uint64_t sum = seed;
  for (std::size_t off = 0; off + sizeof(std::uint64_t) <= size_; off += 64) {
    std::uint64_t word;
    std::memcpy(&word, data_ + off, sizeof word);
    sum = sum * 31 + word;
  }
  checksum_ = sum;
}

MemoryBlock::~MemoryBlock() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

std::uint64_t cpu(std::uint32_t units, std::uint64_t seed) {
  std::uint64_t x = seed | 1U;  // xorshift64 must not start at 0
  std::uint64_t acc = 0;
  const std::uint64_t steps = std::uint64_t{units} * kCpuStepsPerUnit;
  for (std::uint64_t i = 0; i < steps; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc += x * 0x9E3779B97F4A7C15ULL;
  }
  return acc ^ x;
}

ScratchFile::ScratchFile(std::filesystem::path path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) throw_errno("open " + path_.string());
}

ScratchFile::~ScratchFile() {
  ::close(fd_);
  std::error_code ignored;  // best effort: the directory may be gone already
  std::filesystem::remove(path_, ignored);
}

void io(const ScratchFile& file, std::uint32_t units, std::uint64_t value, bool fsync) {
  std::array<std::uint64_t, kIoBlockBytes / sizeof(std::uint64_t)> block;
  for (std::uint32_t i = 0; i < units; ++i) {
    block.fill(value + i);
    const auto off = static_cast<off_t>(std::size_t{i} * kIoBlockBytes);
    const ssize_t n = ::pwrite(file.fd(), block.data(), kIoBlockBytes, off);
    if (n != static_cast<ssize_t>(kIoBlockBytes)) throw_errno("pwrite " + file.path().string());
  }
  if (fsync && units > 0 && ::fdatasync(file.fd()) != 0) throw_errno("fdatasync " + file.path().string());
}

std::uint64_t run(const Profile& p, const ScratchFile& file, std::uint64_t seed) {
  MemoryBlock memory(p.memory, seed);
  const std::uint64_t value = p.cpu ? cpu(p.cpu, memory.checksum()) : memory.checksum();
  if (p.io) io(file, p.io, value, p.fsync);
  return value;
}  // memory freed here, after the write, as in the paper

ScratchFiles::ScratchFiles(const std::filesystem::path& dir, std::size_t count) {
  std::filesystem::create_directories(dir);
  const std::string pid = std::to_string(::getpid());
  for (std::size_t i = 0; i < count; ++i)
    files_.push_back(std::make_unique<ScratchFile>(dir / ("worker-" + pid + "-" + std::to_string(i) + ".dat")));
}

}  // namespace saasbench::stress
