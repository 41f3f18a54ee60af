// What the gate reads from and changes in a parsed request header, shared by the session and
// the fuzzer: the parts the tenant key looks at, and the hop-by-hop fields that end here.
#pragma once
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/message.hpp>
#include <iterator>

#include "tenant_key.hpp"

namespace isolato::gate {

// The parts of `req` the key reads (views into `req`).
inline KeySource key_source(const TenantKey& key, const boost::beast::http::request_header<>& req) {
  KeySource source{req.target(), req[boost::beast::http::field::host], std::nullopt};
  if (key.kind == TenantKey::Kind::header)
    if (auto it = req.find(key.name); it != req.end()) source.header = it->value();
  return source;
}

// Hop-by-hop fields (RFC 9110 7.6.1) end at the gate; each side has its own connection.
// Framing (Content-Length, Transfer-Encoding) stays: the body is relayed as it came.
inline void strip_hop_by_hop(boost::beast::http::fields& f) {
  namespace http = boost::beast::http;
  for (auto field : {http::field::connection, http::field::keep_alive, http::field::proxy_connection, http::field::te,
                     http::field::upgrade})
    f.erase(field);
}

// Beast adds a chunked body's trailer fields to the message's fields (next to fields of the
// same name). The upstream must see only the header the gate admitted: a trailer
// "X-Tenant: other" would otherwise reach the app as a second tenant key whenever the whole body
// arrived before the header was written. So a chunked request's admitted fields are kept, and
// put back when a trailer changed them.
inline void drop_trailer_fields(boost::beast::http::fields& now, const boost::beast::http::fields& admitted) {
  if (std::distance(now.begin(), now.end()) != std::distance(admitted.begin(), admitted.end())) now = admitted;
}

}  // namespace isolato::gate
