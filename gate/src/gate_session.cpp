#include "gate_session.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <cstdio>

#include "admin_api.hpp"
#include "log.hpp"
#include "readiness.hpp"
#include "request_view.hpp"

namespace isolato::gate {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using saasbench::problem;
using saasbench::Response;

namespace {
constexpr std::string_view kAdminTenants = "/v1/admin/tenants";

// What a connection over --max-connections may still ask for (GateConfig::probe_connections).
bool is_probe(std::string_view path) { return path == "/metrics" || path == "/healthz" || path == "/readyz"; }

bool is_local(std::string_view path) { return is_probe(path) || path == kAdminTenants; }

// Writes `b` at once when the socket takes all of it (the usual case: a header and a piece fit
// in its send buffer) and calls `done` right away, else writes the rest asynchronously within
// `timeout`. A write done at once costs no round trip through the loop and no timer.
template <class Done>
void write_now_or_later(Stream& s, const Outgoing::Buffers& b, std::chrono::milliseconds timeout, Done&& done) {
  beast::error_code ec;
  const std::size_t n = s.socket().write_some(b, ec);  // the socket is non-blocking
  if (ec == asio::error::would_block || ec == asio::error::try_again) ec = {};
  if (ec || n == asio::buffer_size(b)) return done(ec);
  beast::buffers_suffix<Outgoing::Buffers> rest(b);
  rest.consume(n);
  s.expires_after(timeout);
  asio::async_write(s, rest, [done = std::forward<Done>(done)](beast::error_code wec, std::size_t) { done(wec); });
}

// Parses the body bytes `buf` already holds into the parser's piece, reading nothing: true when
// the piece is ready to write on (the message ended, the piece is full, or a parse error in
// `ec`), false when more must be read. The body of a small message usually comes in the same
// segment as its header: no read, no round trip through the loop, no timer.
template <class Parser> bool piece_from_buffer(Parser& p, beast::flat_buffer& buf, beast::error_code& ec) {
  while (buf.size() > 0 && !p.is_done()) {
    const std::size_t used = p.put(buf.data(), ec);
    buf.consume(used);
    if (ec == http::error::need_buffer) {
      ec = {};
      return true;
    }
    if (ec == http::error::need_more) {
      ec = {};
      return false;
    }
    if (ec) return true;
    if (used == 0) return false;
  }
  return p.is_done();
}

bool quiet_close(beast::error_code ec) {
  return ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted ||
         ec == asio::error::connection_reset || ec == asio::error::eof || ec == http::error::partial_message;
}
}  // namespace

GateSession::GateSession(Socket socket, GateShared& shared, bool probes_only)
    : client_(std::move(socket)), shared_(shared), probes_only_(probes_only) {
  shared_.metrics.connections().fetch_add(1, std::memory_order_relaxed);
}

GateSession::~GateSession() {
  shared_.metrics.connections().fetch_sub(1, std::memory_order_relaxed);
  if (queued_) shared_.metrics.queued_requests().fetch_sub(1, std::memory_order_relaxed);
}

void GateSession::read_header() {
  busy_ = false;
  header_.emplace();
  header_->header_limit(static_cast<std::uint32_t>(shared_.config.max_header_bytes));
  header_->body_limit(shared_.config.max_body_bytes);
  expect_by(probes_only_ ? shared_.config.probe_read_timeout : shared_.config.read_timeout, false);
  client_.expires_never();  // timed by the deadline instead
  http::async_read_header(
      client_, client_buf_, *header_,
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(self->met_deadline(ec)); });
}

void GateSession::expect_by(std::chrono::milliseconds timeout, bool upstream) {
  deadline_ = Clock::now() + timeout;
  deadline_upstream_ = upstream;
  timed_out_ = false;
}

beast::error_code GateSession::met_deadline(beast::error_code ec) {
  deadline_ = Clock::time_point::max();
  return timed_out_ ? beast::error::timeout : ec;
}

void GateSession::check_deadline(Clock::time_point now) {
  if (now < deadline_) return;
  deadline_ = Clock::time_point::max();
  if (queued_) return queue_timed_out();
  timed_out_ = true;  // the read in progress ends as operation_aborted, reported as a timeout
  beast::error_code ignored;
  if (!deadline_upstream_)
    client_.socket().cancel(ignored);
  else if (upstream_)
    upstream_->socket().cancel(ignored);
}

void GateSession::on_header(beast::error_code ec) {
  if (quiet_close(ec)) return close();
  busy_ = true;
  start_ = Clock::now();
  tenant_.reset();
  tenant_metrics_ = nullptr;
  response_started_ = false;
  retried_ = false;
  if (ec) {  // a request nobody will serve: say why, then close
    keep_alive_ = false;
    if (ec == http::error::header_limit) return write_local(problem(431, "request header fields too large"));
    if (ec == http::error::body_limit) return write_local(problem(413, "request body too large"));
    return write_local(problem(400, "malformed HTTP request: " + ec.message()));
  }
  const auto& req = header_->get();
  keep_alive_ = req.keep_alive() && !shared_.draining;
  const std::string_view target = req.target();
  const auto path = target.substr(0, target.find('?'));
  if (probes_only_) {
    keep_alive_ = false;  // one answer, then the slot is free again
    if (is_probe(path)) return local(path);
    GateMetrics::rejected(shared_.metrics.unknown_tenant(), Reject::overload);
    Response r = problem(503, "the gate holds its maximum of connections; retry on a new connection");
    r.retry_after_s = 1;
    return write_local(std::move(r));  // its body stays unread: the connection closes after this
  }
  if (is_local(path)) return local(path);

  const KeyResult found = extract_tenant(shared_.config.tenant_key, key_source(shared_.config.tenant_key, req));
  auto& unknown = shared_.metrics.unknown_tenant();
  if (const auto* bad = std::get_if<KeyInvalid>(&found)) {
    tenant_metrics_ = &unknown;
    GateMetrics::rejected(unknown, Reject::unknown_tenant);
    return answer_after_body(problem(400, bad->reason, "tenantKey"));
  }
  if (const auto* id = std::get_if<std::string_view>(&found)) tenant_ = shared_.registry.current()->find(*id);
  if (!tenant_) {
    tenant_metrics_ = &unknown;
    if (!shared_.config.pass_unknown) {
      GateMetrics::rejected(unknown, Reject::unknown_tenant);
      return answer_after_body(std::holds_alternative<KeyMissing>(found)
                                   ? problem(400, "the request names no tenant", "tenantKey")
                                   : problem(404, "unknown tenant", "tenantKey"));
    }
  } else {
    tenant_metrics_ = &tenant_->metrics();
    const auto decision = tenant_->admit(start_);
    if (!decision.admitted) {
      char rate[32];
      std::snprintf(rate, sizeof rate, "%g", tenant_->spec().rate_rps.value_or(0));
      Response r = problem(429, "tenant exceeds its admitted rate of " + std::string(rate) + " requests/s");
      r.retry_after_s = saasbench::retry_after_seconds(decision.retry_after);
      GateMetrics::rejected(*tenant_metrics_, Reject::rate);
      return answer_after_body(std::move(r));
    }
  }
  if (shared_.draining) {
    GateMetrics::rejected(*tenant_metrics_, Reject::draining);
    keep_alive_ = false;
    return answer_after_body(problem(503, "shutting down"));
  }
  forward();
}

// ---- answered by the gate ----

void GateSession::answer_after_body(Response r) {
  // The body must be off the connection before the next request can be read; a rejected
  // request's body is read and dropped (bounded by --max-body-bytes).
  whole_.emplace(std::move(*header_));
  auto shared_r = std::make_shared<Response>(std::move(r));
  http::async_read(client_, client_buf_, *whole_,
                   [self = shared_from_this(), shared_r](beast::error_code ec, std::size_t) {
                     if (ec == http::error::body_limit) {
                       self->keep_alive_ = false;
                       return self->write_local(problem(413, "request body too large"));
                     }
                     if (ec) return self->close();
                     self->write_local(std::move(*shared_r));
                   });
}

void GateSession::local(std::string_view path) {
  const std::string_view method = header_->get().method_string();
  const bool get = method == "GET";
  if (path == kAdminTenants) {
    whole_.emplace(std::move(*header_));
    return http::async_read(
        client_, client_buf_, *whole_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
          if (ec == http::error::body_limit) {
            self->keep_alive_ = false;
            return self->write_local(problem(413, "request body too large"));
          }
          if (ec) return self->close();
          const auto& req = self->whole_->get();
          const std::string_view authorization = req[http::field::authorization];
          auto& m = self->shared_.metrics;
          Response r =
              saasbench::admin_tenants({req.method_string(), authorization, req.body()}, self->shared_.registry,
                                       self->shared_.auth, [&m](bool ok) { m.table_update(true, ok); });
          if (req.method() == http::verb::put && r.status == 200 && self->shared_.config.forward_table)
            return self->admin_put_forwarded(std::move(r), req.body(), std::string(authorization));
          self->write_local(std::move(r));
        });
  }
  if (!get) return answer_after_body(saasbench::method_not_allowed("GET"));
  if (path == "/healthz") return answer_after_body(healthy());
  if (path == "/readyz") return readyz();
  const auto table = shared_.registry.current();
  Response r;
  r.content_type = "text/plain; version=0.0.4";
  r.body = shared_.metrics.expose(table->version(), table->series());
  answer_after_body(std::move(r));
}

void GateSession::readyz() {
  check_readiness(client_.get_executor(), shared_.upstream, shared_.config.connect_timeout, shared_.draining,
                  [self = shared_from_this()](Response r) { self->answer_after_body(std::move(r)); });
}

void GateSession::admin_put_forwarded(Response applied, std::string body, const std::string& authorization) {
  // The same table, with the same token, to the upstream (saas-bench keeps each tenant's
  // stress profile there). Answered once the upstream has answered: a failure is a 502 the
  // pusher retries, the gate's own table stays applied.
  struct Forward {
    Stream stream;
    http::request<http::string_body> req;
    http::response<http::string_body> res;
    beast::flat_buffer buf;
    Response applied;
  };
  auto f = std::make_shared<Forward>(
      Forward{Stream(client_.get_executor()), {http::verb::put, kAdminTenants, 11}, {}, {}, std::move(applied)});
  f->req.set(http::field::host, shared_.upstream.address().to_string());
  f->req.set(http::field::authorization, authorization);
  f->req.set(http::field::content_type, "application/json");
  f->req.body() = std::move(body);
  f->req.prepare_payload();
  f->req.keep_alive(false);
  auto self = shared_from_this();
  const auto fail = [self, f](const std::string& why) {
    saasbench::log_line("warn", "tenant table applied, forwarding it to the upstream failed: " + why);
    self->write_local(problem(502, "tenant table applied at the gate; forwarding to the upstream failed: " + why));
  };
  f->stream.expires_after(shared_.config.connect_timeout);
  f->stream.async_connect(shared_.upstream, [self, f, fail](beast::error_code ec) {
    if (ec) return fail(ec.message());
    f->stream.expires_after(self->shared_.config.upstream_timeout);
    http::async_write(f->stream, f->req, [self, f, fail](beast::error_code wec, std::size_t) {
      if (wec) return fail(wec.message());
      http::async_read(f->stream, f->buf, f->res, [self, f, fail](beast::error_code rec, std::size_t) {
        if (rec) return fail(rec.message());
        if (f->res.result_int() != 200) return fail("upstream answered " + std::to_string(f->res.result_int()));
        self->write_local(std::move(f->applied));
      });
    });
  });
}

void GateSession::write_local(Response r) {
  keep_alive_ = keep_alive_ && !shared_.draining;
  const unsigned status = r.status;
  local_out_ = saasbench::to_message(std::move(r), keep_alive_);
  client_.expires_after(shared_.config.read_timeout);
  http::async_write(client_, local_out_, [self = shared_from_this(), status](beast::error_code ec, std::size_t) {
    if (ec) return self->close();
    self->finish(status);
  });
}

// ---- relayed to the upstream ----

void GateSession::forward() {
  if (shared_.slots.try_take()) {
    holds_slot_ = true;
    return relay();
  }
  set_queued(true);
  shared_.slots.wait(shared_from_this());
  deadline_ = Clock::now() + shared_.config.queue_timeout;  // checked by the sweep
  deadline_upstream_ = false;
}

void GateSession::set_queued(bool queued) {
  queued_ = queued;
  shared_.metrics.queued_requests().fetch_add(queued ? 1 : -1, std::memory_order_relaxed);
}

void GateSession::queue_timed_out() {
  set_queued(false);
  shared_.slots.leave(this);
  GateMetrics::rejected(*tenant_metrics_, Reject::overload);
  if (!header_->is_done()) keep_alive_ = false;  // its body is still on the wire
  Response r = problem(503, "the service is busy: no request slot of the app's came free in time");
  r.retry_after_s = 1;
  write_local(std::move(r));
}

void GateSession::release_slot() {
  if (!holds_slot_) return;
  holds_slot_ = false;
  auto next = shared_.slots.hand_on();
  if (!next) return;
  next->set_queued(false);
  next->holds_slot_ = true;
  next->deadline_ = Clock::time_point::max();
  // run from the loop, not inside this session's own finish
  asio::post(next->client_.get_executor(), [next] { next->relay(); });
}

void GateSession::relay() {
  request_.emplace(std::move(*header_));
  auto& req = request_->get();
  strip_hop_by_hop(req);
  req.version(11);  // keep-alive to the upstream whatever the client speaks
  bodyless_ = request_->is_done();
  // The header is written out now, as admitted: a chunked body's trailer fields, which Beast
  // adds to the message's fields, never reach the upstream (a trailer "X-Tenant: other" would
  // be a second tenant key; found by fuzz_gate_request).
  write_header(req, up_.start(request_->chunked() && !bodyless_));
  upstream_ = shared_.pool.take(start_);
  reused_ = upstream_ != nullptr;
  if (!upstream_) return connect();
  send_request();
}

void GateSession::connect() {
  upstream_ = std::make_unique<Stream>(client_.get_executor());
  reused_ = false;
  upstream_->expires_after(shared_.config.connect_timeout);
  upstream_->async_connect(shared_.upstream, [self = shared_from_this()](beast::error_code ec) {
    if (ec) return self->upstream_failed(UpstreamError::connect, ec.message());
    beast::error_code ignored;
    self->upstream_->socket().set_option(asio::ip::tcp::no_delay(true), ignored);
    self->upstream_->socket().non_blocking(true, ignored);  // for write_now_or_later
    self->send_request();
  });
}

void GateSession::send_request() {
  up_.resend_header();
  upstream_buf_.clear();
  relay_request();
}

void GateSession::relay_request() {
  if (request_->is_done()) return write_up(0);
  auto& body = request_->get().body();
  body.data = up_chunk_.data();
  body.size = up_chunk_.size();
  if (beast::error_code ec; piece_from_buffer(*request_, client_buf_, ec)) return on_request_piece(ec);
  client_.expires_after(shared_.config.read_timeout);
  http::async_read(client_, client_buf_, *request_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_request_piece(ec); });
}

void GateSession::on_request_piece(beast::error_code ec) {
  if (ec == http::error::need_buffer) ec = {};
  if (ec == http::error::body_limit) {  // the upstream saw part of it: drop that connection
    upstream_.reset();
    keep_alive_ = false;
    return write_local(problem(413, "request body too large"));
  }
  if (ec) return close();
  write_up(up_chunk_.size() - request_->get().body().size);
}

void GateSession::write_up(std::size_t n) {
  write_now_or_later(*upstream_, up_.piece(up_chunk_.data(), n, request_->is_done()), shared_.config.upstream_timeout,
                     [self = shared_from_this()](beast::error_code ec) {
                       if (ec == beast::error::timeout)
                         return self->upstream_failed(UpstreamError::timeout, "sending the request");
                       if (ec) return self->upstream_failed(UpstreamError::reset, ec.message());
                       self->up_.sent();
                       if (!self->request_->is_done()) return self->relay_request();
                       self->response_.emplace();
                       self->response_->body_limit(boost::none);
                       if (self->request_->get().method() == http::verb::head) self->response_->skip(true);
                       self->expect_by(self->shared_.config.upstream_timeout, true);
                       self->upstream_->expires_never();  // timed by the deadline instead
                       http::async_read_header(*self->upstream_, self->upstream_buf_, *self->response_,
                                               [self](beast::error_code hec, std::size_t) {
                                                 self->on_response_header(self->met_deadline(hec));
                                               });
                     });
}

void GateSession::on_response_header(beast::error_code ec) {
  if (ec == beast::error::timeout) return upstream_failed(UpstreamError::timeout, "no response in time");
  if (ec) return upstream_failed(UpstreamError::reset, ec.message());
  auto& res = response_->get();
  upstream_reusable_ = res.keep_alive() && !res.need_eof();
  // A body that ends with the upstream's connection has no framing to pass on: close after it.
  if (res.need_eof()) keep_alive_ = false;
  strip_hop_by_hop(res);
  keep_alive_ = keep_alive_ && !shared_.draining;
  res.keep_alive(keep_alive_);
  write_header(res, down_.start(response_->chunked() && !response_->is_done()));
  response_started_ = true;
  relay_response();
}

void GateSession::relay_response() {
  if (response_->is_done()) return write_down(0);
  auto& body = response_->get().body();
  body.data = down_chunk_.data();
  body.size = down_chunk_.size();
  if (beast::error_code ec; piece_from_buffer(*response_, upstream_buf_, ec)) return on_response_piece(ec);
  upstream_->expires_after(shared_.config.upstream_timeout);
  http::async_read(*upstream_, upstream_buf_, *response_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_response_piece(ec); });
}

void GateSession::on_response_piece(beast::error_code ec) {
  if (ec == http::error::need_buffer) ec = {};
  if (ec) {  // mid-body: the status line is out, all the client can learn is a cut
    GateMetrics::upstream_error(*tenant_metrics_,
                                ec == beast::error::timeout ? UpstreamError::timeout : UpstreamError::reset);
    upstream_.reset();
    return close();
  }
  write_down(down_chunk_.size() - response_->get().body().size);
}

void GateSession::write_down(std::size_t n) {
  write_now_or_later(client_, down_.piece(down_chunk_.data(), n, response_->is_done()), shared_.config.read_timeout,
                     [self = shared_from_this()](beast::error_code ec) {
                       if (ec) {  // the client left: the upstream connection is mid-response, drop it too
                         self->upstream_.reset();
                         return self->close();
                       }
                       self->down_.sent();
                       if (!self->response_->is_done()) return self->relay_response();
                       const unsigned status = self->response_->get().result_int();
                       const auto now = Clock::now();
                       if (self->upstream_reusable_ && self->upstream_buf_.size() == 0)
                         self->shared_.pool.give(std::move(self->upstream_), now);
                       self->upstream_.reset();
                       self->finish(status, now);
                     });
}

void GateSession::upstream_failed(UpstreamError kind, std::string_view what) {
  upstream_.reset();
  // A pooled connection the upstream had closed meanwhile: retry once on a fresh one when the
  // request had no body yet sent (nothing can have reached the app twice).
  if (reused_ && !retried_ && kind == UpstreamError::reset && !response_started_ && bodyless_) {
    retried_ = true;
    return connect();
  }
  GateMetrics::upstream_error(*tenant_metrics_, kind);
  if (!request_->is_done()) keep_alive_ = false;  // the rest of its body is still on the wire
  if (kind == UpstreamError::timeout) return write_local(problem(504, "upstream did not answer in time"));
  write_local(problem(502, kind == UpstreamError::connect ? "cannot connect to the upstream: " + std::string(what)
                                                          : "upstream connection failed: " + std::string(what)));
}

void GateSession::finish(unsigned status, Clock::time_point now) {
  release_slot();
  if (tenant_metrics_) tenant_metrics_->record(status, now - start_);
  tenant_.reset();
  tenant_metrics_ = nullptr;
  request_.reset();
  response_.reset();
  whole_.reset();
  if (!keep_alive_ || shared_.draining) return close();
  read_header();
}

void GateSession::drain() {
  if (!busy_) close();
}

void GateSession::close() {
  release_slot();
  busy_ = false;
  beast::error_code ignored;  // the peer may be gone already; nothing to report
  client_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  client_.socket().close(ignored);
  upstream_.reset();
}

}  // namespace isolato::gate
