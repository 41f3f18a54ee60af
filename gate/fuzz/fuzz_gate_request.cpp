// libFuzzer target: the gate's request path up to the upstream — Beast's header parser with
// the gate's limits, tenant-key extraction in all three key modes, the hop-by-hop strip, the
// header written out as admitted and the body read in relay-sized pieces through buffer_body
// and framed again (outgoing.hpp). Invariants: the upstream's copy of the request names the same
// tenant the gate admitted (a request cannot be admitted as one tenant and reach the app as
// another, not even by a trailer), and it parses back to the same body.
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstdint>
#include <cstdlib>

#include "outgoing.hpp"
#include "request_view.hpp"

namespace {
namespace http = boost::beast::http;
using namespace isolato::gate;

std::string describe(const KeyResult& r) {
  if (const auto* id = std::get_if<std::string_view>(&r)) return std::string(*id);
  return std::holds_alternative<KeyMissing>(r) ? "\x01missing" : "\x01invalid";
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const TenantKey keys[] = {
      {TenantKey::Kind::header, "X-Tenant"}, {TenantKey::Kind::path, "/v1/tenants/"}, {TenantKey::Kind::host, ""}};
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  http::request_parser<http::empty_body> header;
  header.header_limit(8192);
  header.body_limit(1 << 20);
  boost::beast::error_code ec;
  const std::size_t used = header.put(boost::asio::buffer(input.data(), input.size()), ec);
  if (!header.is_header_done()) return 0;  // the gate answers 400/413/431 and closes
  std::string admitted[3];
  for (int k = 0; k < 3; ++k) admitted[k] = describe(extract_tenant(keys[k], key_source(keys[k], header.get())));

  http::request_parser<http::buffer_body> relay(std::move(header));
  strip_hop_by_hop(relay.get());
  relay.get().version(11);
  Outgoing out;  // as the session does: the header written when admitted, then the pieces
  write_header(relay.get(), out.start(relay.chunked() && !relay.is_done()));
  std::string wire;
  const auto emit = [&](const char* data, std::size_t n, bool last) {
    for (const auto& b : out.piece(data, n, last)) wire.append(static_cast<const char*>(b.data()), b.size());
    out.sent();
  };
  std::string_view rest = input.substr(std::min(used, input.size()));
  char chunk[64];
  std::string body;
  emit(nullptr, 0, relay.is_done());  // the header (the session sends it with the first piece)
  while (!relay.is_done() && !rest.empty()) {
    relay.get().body().data = chunk;
    relay.get().body().size = sizeof chunk;
    const std::size_t n = relay.put(boost::asio::buffer(rest.data(), rest.size()), ec);
    if (ec == http::error::need_buffer) ec = {};
    if (ec && ec != http::error::need_more) return 0;  // malformed body: 400 and close
    const std::size_t got = sizeof chunk - relay.get().body().size;
    body.append(chunk, got);
    emit(chunk, got, relay.is_done());
    rest.remove_prefix(std::min(n, rest.size()));
    if (n == 0 && got == 0) break;
  }
  http::request_parser<http::string_body> seen;  // the upstream's view of what the gate wrote
  seen.body_limit(boost::none);
  seen.eager(true);
  seen.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  if (!seen.is_header_done()) std::abort();  // the gate would send the app something unparsable
  for (int k = 0; k < 3; ++k)
    if (describe(extract_tenant(keys[k], key_source(keys[k], seen.get()))) != admitted[k]) std::abort();
  if (seen.get()[http::field::connection].size() != 0) std::abort();
  if (relay.is_done()) {  // the whole request relayed: the app reads the same body, and no more
    if (!seen.is_done() || seen.get().body() != body) std::abort();
  }
  return 0;
}
