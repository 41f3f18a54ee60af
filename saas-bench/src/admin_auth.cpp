#include "admin_auth.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace saasbench {

AdminAuth::AdminAuth(std::optional<std::string> token) : token_(std::move(token)) {}

AdminAuth AdminAuth::from_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read admin token file " + path.string());
  std::stringstream s;
  s << in.rdbuf();
  std::string token = s.str();
  const auto first = token.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw std::runtime_error("admin token file " + path.string() + " is empty");
  token = token.substr(first, token.find_last_not_of(" \t\r\n") - first + 1);
  return AdminAuth(std::move(token));
}

bool AdminAuth::allows(std::string_view authorization) const {
  constexpr std::string_view kScheme = "Bearer ";
  if (!token_ || authorization.size() != kScheme.size() + token_->size() ||
      authorization.substr(0, kScheme.size()) != kScheme)
    return false;
  // Constant time over the token so response timing does not reveal a matching prefix.
  unsigned char diff = 0;
  const auto given = authorization.substr(kScheme.size());
  for (std::size_t i = 0; i < token_->size(); ++i)
    diff |= static_cast<unsigned char>(given[i] ^ (*token_)[i]);
  return diff == 0;
}

}  // namespace saasbench
