#include "cgroup_cpu.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

using namespace saasbench;
namespace fs = std::filesystem;

namespace {
void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
struct TempRoot {
  fs::path dir = fs::temp_directory_path() / ("saasbench-cgroup-" + std::to_string(::getpid()));
  TempRoot() { fs::remove_all(dir); }
  ~TempRoot() { fs::remove_all(dir); }
};
}  // namespace

TEST(CgroupCpu, ParsesV2CpuMax) {
  EXPECT_DOUBLE_EQ(*parse_cpu_max("23700 100000\n"), 0.237);
  EXPECT_FALSE(parse_cpu_max("max 100000\n"));
  EXPECT_FALSE(parse_cpu_max("garbage"));
  EXPECT_FALSE(parse_cpu_max("0 100000"));
}

TEST(CgroupCpu, ParsesV1Cfs) {
  EXPECT_DOUBLE_EQ(*parse_cfs("95000\n", "100000\n"), 0.95);
  EXPECT_FALSE(parse_cfs("-1\n", "100000\n"));
  EXPECT_FALSE(parse_cfs("x", "100000"));
}

TEST(CgroupCpu, ReadsV1HybridTreeOfThisProcess) {
  TempRoot t;
  write(t.dir / "cpu,cpuacct/kubepods/pod1/c1/cpu.cfs_quota_us", "23700\n");
  write(t.dir / "cpu,cpuacct/kubepods/pod1/c1/cpu.cfs_period_us", "100000\n");
  const std::string self = "12:cpu,cpuacct:/kubepods/pod1/c1\n1:name=systemd:/\n0::/\n";
  EXPECT_DOUBLE_EQ(*read_cpu_limit(t.dir, self), 0.237);
}

TEST(CgroupCpu, InsideAContainerTheMountRootIsTheOwnCgroup) {
  TempRoot t;
  write(t.dir / "cpu/cpu.cfs_quota_us", "150000\n");
  write(t.dir / "cpu/cpu.cfs_period_us", "100000\n");
  EXPECT_DOUBLE_EQ(*read_cpu_limit(t.dir, "3:cpu:/kubepods/besteffort/x\n"), 1.5);
}

TEST(CgroupCpu, ReadsV2) {
  TempRoot t;
  write(t.dir / "kubepods/x/cpu.max", "50000 100000\n");
  EXPECT_DOUBLE_EQ(*read_cpu_limit(t.dir, "0::/kubepods/x\n"), 0.5);
  write(t.dir / "cpu.max", "max 100000\n");
  EXPECT_FALSE(read_cpu_limit(t.dir, "0::/\n"));
}

TEST(CgroupCpu, NothingFoundMeansNoLimit) {
  TempRoot t;
  EXPECT_FALSE(read_cpu_limit(t.dir, "0::/\n"));
}

TEST(CgroupCpu, WorkersFromLimit) {
  EXPECT_EQ(workers_for(0.237, 8), 1u);
  EXPECT_EQ(workers_for(0.95, 8), 1u);
  EXPECT_EQ(workers_for(1.0, 8), 1u);
  EXPECT_EQ(workers_for(1.5, 8), 2u);
  EXPECT_EQ(workers_for(std::nullopt, 8), 8u);
  EXPECT_EQ(workers_for(std::nullopt, 0), 1u);
}
