#include "admin_auth.hpp"

#include <stdexcept>

namespace saasbench {

std::vector<std::string> parse_tokens(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\v\f";
  std::vector<std::string> tokens;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    const auto first = line.find_first_not_of(kSpace);
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(kSpace) - first + 1);
    tokens.emplace_back(line);
  }
  return tokens;
}

std::vector<std::string> read_token_file(const std::filesystem::path& path) {
  std::string error;
  const auto text = read_whole_file(path, error);
  if (!text) throw std::runtime_error("cannot read admin token file " + path.string() + ": " + error);
  auto tokens = parse_tokens(*text);
  if (tokens.empty()) throw std::runtime_error("admin token file " + path.string() + " lists no token");
  return tokens;
}

AdminAuth::AdminAuth(std::vector<std::string> tokens)
    : enabled_(!tokens.empty()), tokens_(std::make_shared<const std::vector<std::string>>(std::move(tokens))) {}

AdminAuth::Tokens AdminAuth::current() const {
  std::lock_guard lock(mutex_);
  return tokens_;
}

std::size_t AdminAuth::size() const { return current()->size(); }

bool AdminAuth::replace(std::vector<std::string> tokens) {
  if (!enabled_ || tokens.empty()) return false;
  auto next = std::make_shared<const std::vector<std::string>>(std::move(tokens));
  std::lock_guard lock(mutex_);
  tokens_ = std::move(next);
  return true;
}

namespace {
// Equal in time independent of the contents: the loop runs over the caller's bytes and never
// stops early, so the timing reveals neither a matching prefix nor the token's length.
bool same(std::string_view given, std::string_view token) {
  if (token.empty()) return false;
  unsigned char diff = given.size() == token.size() ? 0 : 1;
  for (std::size_t i = 0; i < given.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ token[i % token.size()]);
  return diff == 0;
}
}  // namespace

bool AdminAuth::allows(std::string_view authorization) const {
  constexpr std::string_view kScheme = "Bearer ";
  if (!enabled_ || !authorization.starts_with(kScheme)) return false;
  const auto given = authorization.substr(kScheme.size());
  bool match = false;
  for (const auto& token : *current()) match |= same(given, token);  // no early exit either
  return match;
}

FileHandler admin_token_file(AdminAuth& auth, std::function<void(bool applied)> counted) {
  return {"admin token",
          [&auth](std::string_view text) -> FileHandler::Result {
            auto tokens = parse_tokens(text);
            const auto n = tokens.size();
            if (!auth.replace(std::move(tokens))) return {false, "the file lists no token"};
            return {true, std::to_string(n) + (n == 1 ? " token" : " tokens")};
          },
          std::move(counted)};
}

}  // namespace saasbench
