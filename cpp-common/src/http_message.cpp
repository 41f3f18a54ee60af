#include "http_message.hpp"

namespace saasbench {
namespace http = boost::beast::http;

HttpResponse to_message(Response r, bool keep_alive) {
  HttpResponse m{static_cast<http::status>(r.status), 11};
  m.set(http::field::content_type, r.content_type);
  if (r.retry_after_s) m.set(http::field::retry_after, std::to_string(*r.retry_after_s));
  if (!r.allow.empty()) m.set(http::field::allow, r.allow);
  if (r.www_authenticate) m.set(http::field::www_authenticate, "Bearer");
  m.body() = std::move(r.body);
  m.prepare_payload();
  m.keep_alive(keep_alive);
  return m;
}

}  // namespace saasbench
