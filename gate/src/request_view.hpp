// What the gate reads from and changes in a parsed request header, shared by the session and
// the fuzzer: the parts the tenant key looks at, and the hop-by-hop fields that end here.
#pragma once
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/message.hpp>

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

}  // namespace isolato::gate
