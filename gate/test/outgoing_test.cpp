// The relay's own writing of a message (outgoing.hpp): the header as one text, then the body
// pieces, chunk-framed when chunked; what it writes must parse back to the same message.
#include "outgoing.hpp"

#include <gtest/gtest.h>

#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

namespace {
namespace http = boost::beast::http;
using isolato::gate::Outgoing;
using isolato::gate::write_header;

std::string wire(Outgoing& out, const Outgoing::Buffers& b) {
  std::string s;
  for (const auto& piece : b) s.append(static_cast<const char*>(piece.data()), piece.size());
  out.sent();
  return s;
}

TEST(Outgoing, ResponseHeaderKeepsTheReasonOrFallsBackToTheStatusOne) {
  http::response_header<> h;
  h.version(11);
  h.result(http::status::not_found);
  h.set(http::field::content_length, "0");
  std::string out;
  write_header(h, out);
  EXPECT_EQ(out, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
  h.reason("Nope");
  h.version(10);
  write_header(h, out);
  EXPECT_EQ(out, "HTTP/1.0 404 Nope\r\nContent-Length: 0\r\n\r\n");
}

TEST(Outgoing, ChunkedBodyIsFramedAndParsesBack) {
  http::request_header<> h;
  h.method(http::verb::post);
  h.target("/x?y=1");
  h.version(11);
  h.set(http::field::host, "t");
  h.set(http::field::transfer_encoding, "chunked");
  Outgoing out;
  write_header(h, out.start(true));
  std::string all = wire(out, out.piece("hello", 5, false));  // header and the first chunk together
  EXPECT_EQ(all, "POST /x?y=1 HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
  all += wire(out, out.piece(" world, and more", 16, false));
  all += wire(out, out.piece(nullptr, 0, true));  // the end alone
  http::request_parser<http::string_body> p;
  p.eager(true);
  boost::beast::error_code ec;
  p.put(boost::asio::buffer(all), ec);
  ASSERT_FALSE(ec) << ec.message();
  ASSERT_TRUE(p.is_done());
  EXPECT_EQ(p.get().body(), "hello world, and more");
}

TEST(Outgoing, LengthFramedBodyIsRelayedAsIs) {
  Outgoing out;
  out.start(false) = "HEAD\r\n";
  EXPECT_EQ(wire(out, out.piece("abc", 3, false)), "HEAD\r\nabc");
  EXPECT_EQ(wire(out, out.piece("de", 2, true)), "de");
  out.resend_header();  // a retry on a fresh connection sends the header again
  EXPECT_EQ(wire(out, out.piece(nullptr, 0, true)), "HEAD\r\n");
}

}  // namespace
