// Bearer-token check for the admin endpoints; the token is read once from a file.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace saasbench {

class AdminAuth {
 public:
  // No token = admin endpoints disabled (every request is refused).
  explicit AdminAuth(std::optional<std::string> token = std::nullopt);
  // Reads the token (surrounding whitespace trimmed); throws std::runtime_error when the file
  // cannot be read or holds no token.
  static AdminAuth from_file(const std::filesystem::path& path);

  bool enabled() const { return token_.has_value(); }
  // `authorization` is the raw Authorization header value ("Bearer <token>").
  bool allows(std::string_view authorization) const;

 private:
  std::optional<std::string> token_;
};

}  // namespace saasbench
