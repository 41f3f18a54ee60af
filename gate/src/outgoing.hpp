// What the gate writes on for a relayed message: its header as one contiguous text, taken once
// when the message is admitted, then the body in the pieces the parser hands over, chunk-framed
// when the message is chunked. Pure (buffers, no sockets): shared by the session and the fuzzer.
// It replaces Beast's serializer on the relay path, whose layered buffer views cost more CPU
// per request than the rest of the gate's own code (profiled under the gate-overhead load).
#pragma once
#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/message.hpp>
#include <charconv>
#include <string>
#include <string_view>

namespace isolato::gate {

namespace detail {
inline void append_version(std::string& out, unsigned version) {
  out += "HTTP/";
  out += static_cast<char>('0' + version / 10 % 10);
  out += '.';
  out += static_cast<char>('0' + version % 10);
}

inline void append_fields(std::string& out, const boost::beast::http::fields& f) {
  for (const auto& field : f) {
    out.append(field.name_string());
    out += ": ";
    out.append(field.value());
    out += "\r\n";
  }
  out += "\r\n";
}
}  // namespace detail

// "METHOD target HTTP/x.y\r\n" + fields + "\r\n" into `out` (cleared; its capacity is reused).
inline void write_header(const boost::beast::http::request_header<>& h, std::string& out) {
  out.clear();
  out.append(h.method_string());
  out += ' ';
  out.append(h.target());
  out += ' ';
  detail::append_version(out, h.version());
  out += "\r\n";
  detail::append_fields(out, h);
}

// "HTTP/x.y NNN reason\r\n" + fields + "\r\n"; an absent reason is the status's usual one.
inline void write_header(const boost::beast::http::response_header<>& h, std::string& out) {
  out.clear();
  detail::append_version(out, h.version());
  out += ' ';
  const unsigned status = h.result_int();
  out += static_cast<char>('0' + status / 100 % 10);
  out += static_cast<char>('0' + status / 10 % 10);
  out += static_cast<char>('0' + status % 10);
  out += ' ';
  const std::string_view reason = h.reason();
  out.append(reason.empty() ? std::string_view(boost::beast::http::obsolete_reason(h.result())) : reason);
  out += "\r\n";
  detail::append_fields(out, h);
}

class Outgoing {
 public:
  using Buffers = std::array<boost::asio::const_buffer, 4>;

  // A new message: `chunked` when its body is sent chunk by chunk (a chunked message whose
  // body is still to come; a header-only answer such as HEAD's has no body to frame).
  std::string& start(bool chunked) {
    chunked_ = chunked;
    head_sent_ = false;
    return head_;
  }
  // The header again (a retry on a fresh connection).
  void resend_header() { head_sent_ = false; }
  // One gather write: the header until it is sent, then `n` body bytes at `data`, and when
  // `last` the end of the body (the last chunk). Valid until the next call; call sent() after
  // the write.
  Buffers piece(const char* data, std::size_t n, bool last) {
    namespace asio = boost::asio;
    Buffers b{};
    std::size_t i = 0;
    if (!head_sent_) b[i++] = asio::buffer(head_);
    if (!chunked_) {
      b[i] = asio::buffer(data, n);
      return b;
    }
    std::size_t frame = 0;
    if (n > 0) {
      frame = static_cast<std::size_t>(std::to_chars(size_line_.data(), size_line_.data() + 16, n, 16).ptr -
                                       size_line_.data());
      size_line_[frame++] = '\r';
      size_line_[frame++] = '\n';
      b[i++] = asio::buffer(size_line_.data(), frame);
      b[i++] = asio::buffer(data, n);
    }
    // The chunk's CRLF, then (last) the zero-size chunk and the empty trailer.
    constexpr std::string_view kEnd = "\r\n0\r\n\r\n";
    const std::string_view end = n > 0 ? (last ? kEnd : kEnd.substr(0, 2)) : (last ? kEnd.substr(2) : "");
    b[i] = asio::buffer(end.data(), end.size());
    return b;
  }
  void sent() { head_sent_ = true; }

 private:
  std::string head_;
  bool chunked_ = false;
  bool head_sent_ = false;
  std::array<char, 20> size_line_{};  // 16 hex digits and CRLF
};

}  // namespace isolato::gate
