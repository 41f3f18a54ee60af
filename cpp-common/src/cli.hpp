// Command-line helpers shared by saas-bench and isolato-gate: every option takes one value
// and stores it, or says why the value is wrong. Pure: errors come back as text.
#pragma once
#include <charconv>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace saasbench::cli {

// A whole string as a number in [min, max]; nullopt otherwise.
template <typename T> std::optional<T> number(const std::string& s, T min, T max) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || v < min || v > max) return std::nullopt;
  return v;
}

struct HostPort {
  std::string host;
  unsigned short port = 0;
};
// "ADDRESS:PORT" (the last colon splits; port 0..65535).
std::optional<HostPort> host_port(const std::string& s);

// Stores the value or returns why it is wrong.
using Setter = std::function<std::optional<std::string>(const std::string&)>;
using Options = std::map<std::string, Setter, std::less<>>;

Setter milliseconds(std::chrono::milliseconds& out);  // 1 .. 86400000
Setter path(std::optional<std::filesystem::path>& out);
template <typename T> Setter count(T& out, T min, T max) {
  return [&out, min, max](const std::string& v) -> std::optional<std::string> {
    auto n = number<T>(v, min, max);
    if (!n) return "must be between " + std::to_string(min) + " and " + std::to_string(max);
    out = *n;
    return std::nullopt;
  };
}

enum class Parsed { ok, help };
// Applies args[start..] (pairs "--flag value"; -h/--help stops with Parsed::help). `flags`
// are options without a value (set to true when present).
std::variant<Parsed, std::string> apply(const std::vector<std::string>& args, std::size_t start, const Options& options,
                                        const std::map<std::string, bool*, std::less<>>& flags = {});

}  // namespace saasbench::cli
