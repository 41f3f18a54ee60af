// HTTP responses, independent of the HTTP library: errors as RFC 9457 problem+json. The
// session turns them into Beast messages (to_message in http_session.hpp).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace saasbench {

struct Response {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::optional<long> retry_after_s;  // Retry-After header
  std::string allow;                  // Allow header (405)
  bool www_authenticate = false;      // WWW-Authenticate: Bearer (401)
};

// {"type":"about:blank","title":...,"status":...,"detail":...[,"field":...]}
Response problem(unsigned status, std::string_view detail, std::string_view field = {});
std::string_view reason_phrase(unsigned status);

}  // namespace saasbench
