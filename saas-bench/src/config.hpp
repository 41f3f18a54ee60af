// Command line of saas-bench (`saas-bench --help`). Parsing is pure: errors come back as text.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "http_server.hpp"

namespace saasbench {

struct Config {
  enum class Command { serve, calibrate, soak, help };
  Command command = Command::serve;
  ListenOptions listen;
  std::optional<unsigned> workers;  // default: from the cgroup CPU limit (serve and soak)
  std::optional<std::filesystem::path> tenants_file;
  std::optional<std::filesystem::path> admin_token_file;
  std::filesystem::path data_dir = "/data";
  std::int64_t max_in_flight = 256;
  std::size_t max_body_bytes = 1 << 20;
  std::chrono::milliseconds read_timeout{15000};
  std::chrono::milliseconds grace{20000};
  std::chrono::milliseconds file_poll{500};  // tenant table and admin token files
};

std::variant<Config, std::string> parse_args(const std::vector<std::string>& args);
std::string usage();

}  // namespace saasbench
