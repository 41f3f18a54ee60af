#include "config.hpp"

#include <gtest/gtest.h>

using namespace saasbench;

namespace {
Config ok(const std::vector<std::string>& args) {
  auto r = parse_args(args);
  EXPECT_TRUE(std::holds_alternative<Config>(r)) << std::get<std::string>(r);
  return std::holds_alternative<Config>(r) ? std::get<Config>(r) : Config{};
}
std::string error(const std::vector<std::string>& args) {
  auto r = parse_args(args);
  EXPECT_TRUE(std::holds_alternative<std::string>(r));
  return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}
}  // namespace

TEST(Config, Defaults) {
  const Config c = ok({});
  EXPECT_EQ(c.command, Config::Command::serve);
  EXPECT_EQ(c.listen.address, "0.0.0.0");
  EXPECT_EQ(c.listen.port, 8080);
  EXPECT_EQ(c.data_dir, "/data");
  EXPECT_FALSE(c.workers);
}

TEST(Config, ParsesOptions) {
  const Config c =
      ok({"serve",   "--listen",           "127.0.0.1:0", "--io-threads",   "2",  "--workers",       "3", "--tenants",
          "/t.json", "--admin-token-file", "/tok",        "--data-dir",     "/d", "--max-in-flight", "9", "--grace-ms",
          "500",     "--read-timeout-ms",  "100",         "--file-poll-ms", "50"});
  EXPECT_EQ(c.listen.address, "127.0.0.1");
  EXPECT_EQ(c.listen.port, 0);
  EXPECT_EQ(c.listen.io_threads, 2u);
  EXPECT_EQ(*c.workers, 3u);
  EXPECT_EQ(*c.tenants_file, "/t.json");
  EXPECT_EQ(*c.admin_token_file, "/tok");
  EXPECT_EQ(c.max_in_flight, 9);
  EXPECT_EQ(c.grace.count(), 500);
  EXPECT_EQ(c.read_timeout.count(), 100);
  EXPECT_EQ(c.file_poll.count(), 50);
  EXPECT_EQ(ok({"calibrate", "--data-dir", "/x"}).command, Config::Command::calibrate);
  const Config soak = ok({"soak", "--workers", "2"});
  EXPECT_EQ(soak.command, Config::Command::soak);
  EXPECT_EQ(soak.workers, 2U);
  EXPECT_EQ(ok({"--help"}).command, Config::Command::help);
}

TEST(Config, ErrorsNameTheOption) {
  EXPECT_EQ(error({"--listen", "8080"}), "--listen: must be ADDRESS:PORT");
  EXPECT_EQ(error({"--listen", "a:70000"}), "--listen: must be ADDRESS:PORT");
  EXPECT_EQ(error({"--workers", "0"}), "--workers: must be between 1 and 256");
  EXPECT_EQ(error({"--workers"}), "--workers: missing value");
  EXPECT_EQ(error({"--grace-ms", "-5"}), "--grace-ms: must be milliseconds between 1 and 86400000");
  EXPECT_EQ(error({"--bogus"}), "unknown argument --bogus");
}
