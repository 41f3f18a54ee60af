// Bearer-token check for the admin endpoints. The tokens come from a file (a mounted Secret)
// holding one or more tokens, one per line; any of them is accepted, so a rotation can list
// the old and the new token until every client has the new one. The file is reloaded when
// it changes (see admin_token_file); the token set is swapped atomically.
#pragma once
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "file_watcher.hpp"

namespace saasbench {

// One token per line; surrounding whitespace and blank lines are ignored.
std::vector<std::string> parse_tokens(std::string_view text);
// parse_tokens of the file; throws std::runtime_error when it cannot be read or lists none.
std::vector<std::string> read_token_file(const std::filesystem::path& path);

class AdminAuth {
 public:
  // No tokens = admin endpoints disabled (every request is refused), for good.
  explicit AdminAuth(std::vector<std::string> tokens = {});

  bool enabled() const { return enabled_; }
  // `authorization` is the raw Authorization header value ("Bearer <token>"). Every listed
  // token is compared, each in time independent of where the bytes differ.
  bool allows(std::string_view authorization) const;
  // Installs a new, non-empty token set (an empty one is refused: returns false).
  bool replace(std::vector<std::string> tokens);
  std::size_t size() const;

 private:
  using Tokens = std::shared_ptr<const std::vector<std::string>>;
  Tokens current() const;

  bool enabled_;
  mutable std::mutex mutex_;  // guards the pointer only; readers copy it and let go
  Tokens tokens_;
};

// The token file as a FileWatcher feed: a file listing at least one token replaces the set;
// an empty, unreadable or missing one keeps it (logged and counted in
// the caller's reload counter through `counted`).
FileHandler admin_token_file(AdminAuth& auth, std::function<void(bool applied)> counted);

}  // namespace saasbench
