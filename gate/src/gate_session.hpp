// One client connection of the gate. Per request: read the header, answer the gate's own
// endpoints or a rejection itself, else relay the request to the upstream and the response
// back, both bodies in 16 KiB pieces through Beast's buffer_body (never held whole), written on
// as gather writes of header and piece (outgoing.hpp).
#pragma once
#include <array>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <memory>
#include <optional>

#include "gate.hpp"
#include "http_message.hpp"
#include "outgoing.hpp"
#include "tenant_registry.hpp"

namespace isolato::gate {

class GateSession : public std::enable_shared_from_this<GateSession> {
 public:
  // probes_only: a connection over --max-connections (GateConfig::probe_connections)
  GateSession(Socket socket, GateShared& shared, bool probes_only = false);
  ~GateSession();
  GateSession(const GateSession&) = delete;
  GateSession& operator=(const GateSession&) = delete;
  void start() { read_header(); }
  // The gate is draining: close now if between requests; else after the current response.
  void drain();
  // Called by the gate's sweep (Gate::sweep) every tick: ends the header read in progress as a
  // timeout once its deadline has passed.
  void check_deadline(std::chrono::steady_clock::time_point now);

 private:
  using Clock = std::chrono::steady_clock;
  using Header = boost::beast::http::request_parser<boost::beast::http::empty_body>;
  using Whole = boost::beast::http::request_parser<boost::beast::http::string_body>;
  using RequestRelay = boost::beast::http::request_parser<boost::beast::http::buffer_body>;
  using ResponseRelay = boost::beast::http::response_parser<boost::beast::http::buffer_body>;

  void read_header();
  // The two reads of every request (the client's next header, the upstream's response header)
  // have a deadline the gate's sweep checks, not a timer each: arming and cancelling a timer
  // cost a timer-queue update and a handler run through the loop per read. They end up to one
  // sweep tick late (Gate::tick_).
  void expect_by(std::chrono::milliseconds timeout, bool upstream);
  boost::beast::error_code met_deadline(boost::beast::error_code ec);  // the read ended: its outcome
  void on_header(boost::beast::error_code ec);
  // A request the gate answers itself: read (and for admin PUT, use) its body, then answer.
  void answer_after_body(saasbench::Response r);
  void local(std::string_view path);
  void readyz();
  void admin_put_forwarded(saasbench::Response applied, std::string body, const std::string& authorization);
  void write_local(saasbench::Response r);
  // The relay: a slot of the app's (or a wait for one), connect (or reuse), request header +
  // body up, response header + body down.
  void forward();
  void relay();
  void set_queued(bool queued);
  void queue_timed_out();
  void release_slot();  // the slot goes to the oldest waiter, or back
  void connect();
  void send_request();
  void relay_request();
  void on_request_piece(boost::beast::error_code ec);
  void write_up(std::size_t n);  // the header until sent, then n bytes of up_chunk_
  void relay_response();
  void on_response_piece(boost::beast::error_code ec);
  void write_down(std::size_t n);
  void on_response_header(boost::beast::error_code ec);
  void upstream_failed(UpstreamError kind, std::string_view what);
  void finish(unsigned status, Clock::time_point now = Clock::now());
  void close();

  Stream client_;
  boost::beast::flat_buffer client_buf_;
  GateShared& shared_;
  std::optional<Header> header_;
  std::optional<Whole> whole_;
  std::optional<RequestRelay> request_;
  std::optional<ResponseRelay> response_;
  Outgoing up_;    // the request as relayed
  Outgoing down_;  // the response as relayed
  saasbench::HttpResponse local_out_;
  std::unique_ptr<Stream> upstream_;
  boost::beast::flat_buffer upstream_buf_;
  // Relay buffers, written before they are read: left uninitialised (zeroing 32 KiB per
  // connection showed in the profile).
  std::array<char, 16384> up_chunk_;
  std::array<char, 16384> down_chunk_;

  Clock::time_point deadline_ = Clock::time_point::max();  // of the header read in progress
  bool deadline_upstream_ = false;                         // ... on the upstream connection
  bool timed_out_ = false;

  // The request in progress.
  Clock::time_point start_;
  std::shared_ptr<saasbench::TenantState> tenant_;  // keeps tenant_metrics_ alive
  saasbench::TenantMetrics* tenant_metrics_ = nullptr;
  bool probes_only_ = false;
  bool keep_alive_ = true;
  bool busy_ = false;    // a request is being served
  bool queued_ = false;  // waiting for an upstream slot (GateShared::slots)
  bool holds_slot_ = false;
  bool reused_ = false;   // upstream_ came from the pool
  bool retried_ = false;  // a stale pooled connection was replaced once
  bool response_started_ = false;
  bool bodyless_ = false;           // the request had no body
  bool upstream_reusable_ = false;  // the upstream's response leaves its connection open
};

}  // namespace isolato::gate
