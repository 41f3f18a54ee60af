#include "stress.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>

using namespace saasbench;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir(const char* name) {
  auto d = fs::temp_directory_path() / ("saasbench-" + std::string(name) + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}
}  // namespace

TEST(Stress, MemoryBlockHasUnitsKiBAndDeterministicChecksum) {
  stress::MemoryBlock a(100, 7), b(100, 7), c(100, 8), none(0, 7);
  EXPECT_EQ(a.size(), 100u * 1024);
  EXPECT_EQ(a.checksum(), b.checksum());
  EXPECT_NE(a.checksum(), c.checksum());
  EXPECT_EQ(none.size(), 0u);
}

TEST(Stress, CpuIsDeterministicAndDependsOnUnitsAndSeed) {
  EXPECT_EQ(stress::cpu(3, 1), stress::cpu(3, 1));
  EXPECT_NE(stress::cpu(3, 1), stress::cpu(4, 1));
  EXPECT_NE(stress::cpu(3, 1), stress::cpu(3, 2));
  EXPECT_EQ(stress::cpu(0, 5), 5u | 1u);
}

TEST(Stress, IoWritesUnitsBlocksOfTheValue) {
  const auto dir = temp_dir("io");
  {
    stress::ScratchFiles files(dir, 2);
    const auto& f = files.at(1);
    stress::io(f, 3, 0x0102030405060708ULL, true);
    EXPECT_EQ(fs::file_size(f.path()), 3u * 4096);
    std::ifstream in(f.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::uint64_t first, last;
    std::memcpy(&first, bytes.data(), 8);
    std::memcpy(&last, bytes.data() + bytes.size() - 8, 8);
    EXPECT_EQ(first, 0x0102030405060708ULL);
    EXPECT_EQ(last, 0x0102030405060708ULL + 2);
    // A later, smaller request overwrites from offset 0: the file does not grow.
    stress::io(f, 1, 9, false);
    EXPECT_EQ(fs::file_size(f.path()), 3u * 4096);
  }
  EXPECT_TRUE(fs::is_empty(dir)) << "scratch files are removed with their owner";
  fs::remove_all(dir);
}

TEST(Stress, IoFailureThrows) {
  const auto dir = temp_dir("iofail");
  stress::ScratchFiles files(dir, 1);
  // Make the fd unwritable underneath the file object: writes must fail loudly.
  const int ro = ::open(files.at(0).path().c_str(), O_RDONLY);
  ASSERT_GE(ro, 0);
  ASSERT_GE(::dup2(ro, files.at(0).fd()), 0);
  ::close(ro);
  EXPECT_THROW(stress::io(files.at(0), 1, 1, false), std::system_error);
  fs::remove_all(dir);
}

TEST(Stress, RunFollowsTheProfile) {
  const auto dir = temp_dir("run");
  stress::ScratchFiles files(dir, 1);
  EXPECT_EQ(stress::run({0, 0, 0, false}, files.at(0), 4), 4u);
  const auto v = stress::run({2, 0, 0, false}, files.at(0), 4);
  EXPECT_EQ(v, stress::cpu(2, 4));
  EXPECT_EQ(fs::file_size(files.at(0).path()), 0u);
  stress::run({1, 16, 2, false}, files.at(0), 4);
  EXPECT_EQ(fs::file_size(files.at(0).path()), 2u * 4096);
  fs::remove_all(dir);
}
