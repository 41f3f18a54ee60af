#include "admin_auth.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "metrics.hpp"

using namespace saasbench;
namespace fs = std::filesystem;

TEST(AdminTokens, OnePerLineBlankLinesAndSurroundingSpaceIgnored) {
  EXPECT_EQ(parse_tokens("  old-token \r\n\n\t\nnew-token\n  \n"),
            (std::vector<std::string>{"old-token", "new-token"}));
  EXPECT_EQ(parse_tokens("single"), (std::vector<std::string>{"single"}));
  EXPECT_EQ(parse_tokens("with inner space\n"), (std::vector<std::string>{"with inner space"}));
  EXPECT_TRUE(parse_tokens(" \n\r\n\t").empty());
  EXPECT_TRUE(parse_tokens("").empty());
}

TEST(AdminTokens, AnyListedTokenIsAcceptedAndNothingElse) {
  const AdminAuth auth({"old-token", "new-token"});
  EXPECT_TRUE(auth.enabled());
  EXPECT_TRUE(auth.allows("Bearer old-token"));
  EXPECT_TRUE(auth.allows("Bearer new-token"));
  for (const char* wrong : {"", "Bearer ", "Bearer old", "Bearer old-token2", "Bearer old-tokem", "bearer old-token",
                            "Basic old-token", "old-token", "Bearer  old-token", "Bearer old-token\nnew-token"})
    EXPECT_FALSE(auth.allows(wrong)) << wrong;
}

TEST(AdminTokens, NoTokensMeansDisabledForGood) {
  AdminAuth none;
  EXPECT_FALSE(none.enabled());
  EXPECT_FALSE(none.allows("Bearer "));
  EXPECT_FALSE(none.replace({"late"})) << "a token file cannot appear later to enable admin";
  EXPECT_FALSE(none.allows("Bearer late"));
  AdminAuth some({"a"});
  EXPECT_FALSE(some.replace({})) << "an empty set never replaces tokens";
  EXPECT_TRUE(some.allows("Bearer a"));
}

namespace {
// A token file mounted from a Secret, laid out as the kubelet does: token -> ..data/token,
// ..data -> ..<generation>/; an update writes a new generation directory, swaps ..data by
// rename(2) and removes the old directory.
struct TokenFileTest : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("saasbench-tokens-" + std::to_string(::getpid()));
  fs::path file = dir / "token";
  Metrics metrics;
  AdminAuth auth{{"boot"}};
  FileWatcher watcher{file, admin_token_file(auth, metrics.token_reload_counter())};
  int generation = 0;
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  void kubelet_update(const std::string& content) {
    const auto next = "..gen" + std::to_string(++generation);
    fs::create_directory(dir / next);
    std::ofstream(dir / next / "token") << content;
    fs::create_directory_symlink(next, dir / "..data_tmp");
    fs::rename(dir / "..data_tmp", dir / "..data");
    if (!fs::is_symlink(file)) fs::create_symlink("..data/token", file);
    if (generation > 1) fs::remove_all(dir / ("..gen" + std::to_string(generation - 1)));
  }
  std::string reloads(const char* result) const {
    const auto text = metrics.expose({});
    const std::string key = std::string("saasbench_admin_token_reloads_total{result=\"") + result + "\"} ";
    const auto at = text.find(key);
    return at == std::string::npos ? "?" : text.substr(at + key.size(), text.find('\n', at) - at - key.size());
  }
};
}  // namespace

TEST_F(TokenFileTest, ReadsEveryTokenOfTheFile) {
  std::ofstream(file) << "first\n\n  second  \n";
  EXPECT_EQ(read_token_file(file), (std::vector<std::string>{"first", "second"}));
  std::ofstream(file) << " \n";
  EXPECT_THROW(read_token_file(file), std::runtime_error);
  EXPECT_THROW(read_token_file(dir / "absent"), std::runtime_error);
}

TEST_F(TokenFileTest, KubeletSymlinkSwapRotatesTheTokens) {
  kubelet_update("old\n");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_TRUE(auth.allows("Bearer old"));
  EXPECT_FALSE(auth.allows("Bearer boot"));
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::unchanged);

  kubelet_update("old\nnew\n");  // rotation step 1: both valid while clients switch
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_TRUE(auth.allows("Bearer old"));
  EXPECT_TRUE(auth.allows("Bearer new"));

  kubelet_update("new\n");  // step 2: the old token is withdrawn
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_FALSE(auth.allows("Bearer old"));
  EXPECT_TRUE(auth.allows("Bearer new"));
  EXPECT_EQ(reloads("applied"), "3");
}

TEST_F(TokenFileTest, SameSizeRewriteInPlaceIsSeen) {
  std::ofstream(file) << "aaaa\n";
  ASSERT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  std::ofstream(file) << "bbbb\n";  // same inode, same size: mtime/ctime tell
  const auto t = fs::last_write_time(file);
  fs::last_write_time(file, t + std::chrono::seconds(1));  // coarse clocks may not tick between writes
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_TRUE(auth.allows("Bearer bbbb"));
}

TEST_F(TokenFileTest, EmptyUnreadableOrMissingFileKeepsTheTokens) {
  kubelet_update("keep\n");
  ASSERT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);

  kubelet_update("\n   \n");  // a Secret re-created without the key's value
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::rejected);
  EXPECT_TRUE(auth.allows("Bearer keep"));

  fs::remove_all(dir / ("..gen" + std::to_string(generation)));  // dangling ..data: gone
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::missing);
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::missing);
  EXPECT_TRUE(auth.allows("Bearer keep"));

  fs::create_directories(dir / ("..gen" + std::to_string(generation)) / "token");  // unreadable: a directory
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::rejected);
  EXPECT_TRUE(auth.allows("Bearer keep"));
  EXPECT_EQ(reloads("rejected"), "3") << "empty + missing (once) + unreadable";

  kubelet_update("fresh\n");
  EXPECT_EQ(watcher.check_now(), FileWatcher::Outcome::applied);
  EXPECT_TRUE(auth.allows("Bearer fresh"));
  EXPECT_FALSE(auth.allows("Bearer keep"));
}
