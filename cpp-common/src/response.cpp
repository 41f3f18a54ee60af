#include "response.hpp"

#include <boost/json.hpp>
#include <string>

namespace saasbench {

std::string_view reason_phrase(unsigned status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Error";
  }
}

Response problem(unsigned status, std::string_view detail, std::string_view field) {
  boost::json::object o{
      {"type", "about:blank"}, {"title", reason_phrase(status)}, {"status", status}, {"detail", detail}};
  if (!field.empty()) o["field"] = field;
  Response r;
  r.status = status;
  r.content_type = "application/problem+json";
  r.body = boost::json::serialize(o);
  return r;
}

}  // namespace saasbench
