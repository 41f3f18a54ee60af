// HTTP responses, independent of the HTTP library: errors as RFC 9457 problem+json, and
// the wire format (written by hand: cheaper than building a Beast message per response).
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

// Serialises `r` as an HTTP/1.1 response into `out` (cleared first, capacity kept): status
// line, Content-Type, Content-Length, the optional headers, Connection: close unless
// `keep_alive`, then the body.
void serialize(const Response& r, bool keep_alive, std::string& out);

}  // namespace saasbench
