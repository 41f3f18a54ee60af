#include "table_watcher.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "metrics.hpp"

using namespace saasbench;
namespace fs = std::filesystem;

namespace {
struct TableWatcherTest : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("saasbench-watch-" + std::to_string(::getpid()));
  fs::path file = dir / "tenants.json";
  TenantRegistry registry;
  Metrics metrics;
  FileWatcher watcher{file, tenant_table_file(registry, metrics.table_file_counter())};
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  // Writes via rename, as the kubelet's ConfigMap update does (a new inode each time).
  void put(const std::string& text) const {
    const auto tmp = dir / "next";
    std::ofstream(tmp) << text;
    fs::rename(tmp, file);
  }
};
}  // namespace

TEST_F(TableWatcherTest, AppliesChangesOnly) {
  put(R"({"version":"v1","tenants":{"a":{"profile":{}}}})");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_EQ(registry.current()->version(), "v1");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::unchanged);
  put(R"({"version":"v2","tenants":{}})");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_EQ(registry.current()->version(), "v2");
}

TEST_F(TableWatcherTest, BadOrMissingFileKeepsTheActiveTable) {
  put(R"({"version":"v1","tenants":{"a":{"profile":{}}}})");
  watcher.check_now();
  put(R"({"version":"v2","tenants":{"a":{"profi)");  // partial write
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::rejected);
  EXPECT_EQ(registry.current()->version(), "v1");
  fs::remove(file);
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::missing);
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::missing);
  EXPECT_NE(registry.current()->find("a"), nullptr);
  const auto text = metrics.expose({});
  EXPECT_NE(text.find("saasbench_tenant_table_updates_total{source=\"file\",result=\"rejected\"} 2"), std::string::npos)
      << "one rejected parse + one disappearance (reported once)";
  put(R"({"version":"v3","tenants":{}})");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
}

// doc-claim: docs/saas-bench.md: a table whose `revision` is lower than the active one's is not applied
TEST_F(TableWatcherTest, AFileOlderThanAPushedTableIsNotApplied) {
  ASSERT_FALSE(registry.replace(TenantTableSpec{"pushed", {}, 5}));
  put(R"({"version":"late","revision":4,"tenants":{}})");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::rejected);
  EXPECT_EQ(registry.current()->version(), "pushed");
  put(R"({"version":"caught-up","revision":5,"tenants":{}})");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_EQ(registry.current()->version(), "caught-up");
}
