// A Response (response.hpp) as a Beast HTTP/1.1 message, for saas-bench and isolato-gate.
#pragma once
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "response.hpp"

namespace saasbench {

using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

// The HTTP/1.1 message for `r` (body moved in): Content-Type, Content-Length, the optional
// headers, and Connection: close unless `keep_alive`.
HttpResponse to_message(Response r, bool keep_alive);

}  // namespace saasbench
