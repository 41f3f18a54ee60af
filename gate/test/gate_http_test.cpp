// HTTP-level tests of the gate: a real Gate on a loopback port in front of a real upstream
// (saas-bench's Service, or the echo/stall TestUpstream), real sockets, raw requests.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <list>

#include "gate.hpp"
#include "http_client.hpp"
#include "service.hpp"
#include "test_upstream.hpp"

using namespace isolato::gate;
using isolato::gate::testing::TestUpstream;
using saasbench::testing::Client;
using saasbench::testing::eventually;
namespace http = boost::beast::http;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

constexpr std::string_view kTable = R"({"version":"v1","tenants":{
    "free":{"profile":{}},
    "other":{"profile":{}},
    "limited":{"profile":{},"rateRps":0.001,"burst":1}}})";

unsigned short dead_port() {  // a loopback port nobody listens on
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

std::string header(std::string_view tenant) { return "X-Tenant: " + std::string(tenant) + "\r\n"; }

// The status of one GET on a fresh connection; 0 when the connection is closed unanswered.
unsigned fresh_get(unsigned short port, std::string_view target) {
  try {
    return Client(port).request("GET", target).result_int();
  } catch (const boost::system::system_error&) {
    return 0;
  }
}

struct GateHttpTest : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("isolato-gate-http-" + std::to_string(::getpid()));
  std::unique_ptr<Gate> gate;

  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "tenants.json") << kTable;
    std::ofstream(dir / "token") << "tok3n\n";
  }
  void TearDown() override {
    gate.reset();
    fs::remove_all(dir);
  }
  GateConfig config(unsigned short upstream_port) const {
    GateConfig c;
    c.listen = {"127.0.0.1", 0};
    c.upstream = {"127.0.0.1", upstream_port};
    c.tenants_file = dir / "tenants.json";
    c.admin_token_file = dir / "token";
    return c;
  }
  // saas-bench itself as the upstream, on a free loopback port.
  saasbench::Config app_config() const {
    saasbench::Config sb;
    sb.listen = {"127.0.0.1", 0, 1};
    sb.workers = 1;
    sb.data_dir = dir / "data";
    return sb;
  }
  void start(const GateConfig& c) {
    gate = std::make_unique<Gate>(c);
    gate->start();
  }
  std::string metrics() const {
    Client c(gate->port());
    return c.request("GET", "/metrics").body();
  }
  bool has(const std::string& line) const { return metrics().find(line + "\n") != std::string::npos; }
};

}  // namespace

TEST_F(GateHttpTest, ForwardsToSaasBenchOverOneKeptAliveUpstreamConnection) {
  auto sb = app_config();
  sb.tenants_file = dir / "tenants.json";
  saasbench::Service app(sb);
  start(config(app.port()));
  Client c(gate->port());
  for (int i = 0; i < 50; ++i) {
    auto r = c.request("POST", "/v1/tenants/free/requests", "{}", header("free"));
    ASSERT_EQ(r.result_int(), 200) << r.body();
    ASSERT_TRUE(r.keep_alive());
  }
  // saas-bench counted the 50 requests; the gate counted them under the same tenant.
  Client direct(app.port());
  EXPECT_NE(
      direct.request("GET", "/metrics").body().find("saasbench_requests_total{tenant=\"free\",code=\"200\"} 50\n"),
      std::string::npos);
  EXPECT_TRUE(has(R"(isolato_gate_requests_total{tenant="free",code="200"} 50)"));
  EXPECT_TRUE(has(R"(isolato_gate_request_duration_seconds_count{tenant="free"} 50)"));
}

TEST_F(GateHttpTest, KeepAliveReusesOneUpstreamConnectionAndPassesBodyAndTarget) {
  TestUpstream up;
  start(config(up.port()));
  Client a(gate->port()), b(gate->port());
  for (int i = 0; i < 20; ++i) {
    auto r = (i % 2 ? a : b)
                 .request("PUT", "/items/" + std::to_string(i) + "?q=1", "body" + std::to_string(i), header("other"));
    ASSERT_EQ(r.result_int(), 200);
    EXPECT_EQ(r.body(), "body" + std::to_string(i));
    EXPECT_EQ(r["X-Seen-Tenant"], "other");
    EXPECT_EQ(r["X-Seen-Target"], "/items/" + std::to_string(i) + "?q=1");
  }
  EXPECT_EQ(up.accepted(), 1) << "requests one after another share one pooled upstream connection";
}

TEST_F(GateHttpTest, AnUpstreamConnectionIdleLongerThanTheLimitIsNotReused) {
  TestUpstream up;
  auto c = config(up.port());
  c.upstream_idle = 0ms;  // every pooled connection is too old by its next request
  start(c);
  Client a(gate->port());
  for (int i = 0; i < 3; ++i) ASSERT_EQ(a.request("POST", "/x", "{}", header("other")).result_int(), 200);
  EXPECT_EQ(up.accepted(), 3) << "a connection idle past --upstream-idle-ms must not carry the next request";
}

TEST(UpstreamPoolTest, ReusesWithinTheIdleLimitAndDropsWhatIdledLonger) {
  TestUpstream up;
  boost::asio::io_context ioc;
  auto connect = [&] {
    auto s = std::make_unique<Stream>(ioc.get_executor());
    s->connect({boost::asio::ip::make_address("127.0.0.1"), up.port()});
    return s;
  };
  UpstreamPool pool(100ms);
  const auto t0 = UpstreamPool::Clock::now();
  pool.give(connect(), t0);
  EXPECT_NE(pool.take(t0 + 100ms), nullptr) << "idle exactly the limit: reused";
  pool.give(connect(), t0);
  pool.give(connect(), t0 + 50ms);
  EXPECT_EQ(pool.take(t0 + 151ms), nullptr) << "the warmest idled 101 ms, past the limit";
  EXPECT_EQ(pool.idle(), 0U) << "the older ones below it are dropped with it";
}

TEST_F(GateHttpTest, StreamsA32MiBBodyBothWays) {
  TestUpstream up;
  auto c = config(up.port());
  c.max_body_bytes = 64 << 20;
  start(c);
  std::string big(32 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
  Client client(gate->port());
  auto r = client.request("POST", "/upload", big, header("free"));
  ASSERT_EQ(r.result_int(), 200);
  EXPECT_EQ(r.body().size(), big.size());
  EXPECT_TRUE(r.body() == big);
  // Chunked request bodies are relayed as such.
  client.send(
      "POST /chunked HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
  EXPECT_EQ(client.receive().body(), "hello world");
  // A trailer cannot add a second tenant key behind the admitted one (found by fuzz_gate_request).
  client.send(
      "POST /chunked HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n0\r\nX-Tenant: other\r\n\r\n");
  auto trailed = client.receive();
  EXPECT_EQ(trailed.body(), "hello");
  EXPECT_EQ(trailed["X-Seen-Tenant-Fields"], "1");
}

TEST_F(GateHttpTest, RateLimitedTenantGets429WhileAnotherPasses) {
  TestUpstream up;
  start(config(up.port()));
  Client c(gate->port());
  EXPECT_EQ(c.request("GET", "/x", {}, header("limited")).result_int(), 200);
  auto denied = c.request("GET", "/x", {}, header("limited"));
  EXPECT_EQ(denied.result_int(), 429);
  EXPECT_EQ(denied[http::field::content_type], "application/problem+json");
  EXPECT_FALSE(denied[http::field::retry_after].empty());
  EXPECT_TRUE(denied.keep_alive()) << "a 429 keeps the connection";
  for (int i = 0; i < 10; ++i) EXPECT_EQ(c.request("GET", "/x", {}, header("free")).result_int(), 200);
  EXPECT_TRUE(has(R"(isolato_gate_requests_total{tenant="limited",code="429"} 1)"));
  EXPECT_TRUE(has(R"(isolato_gate_rejected_total{tenant="limited",reason="rate"} 1)"));
  EXPECT_TRUE(has(R"(isolato_gate_rejected_total{tenant="free",reason="rate"} 0)"));
}

TEST_F(GateHttpTest, UnknownTenantIsRejectedOrPassedByPolicy) {
  TestUpstream up;
  start(config(up.port()));
  Client c(gate->port());
  EXPECT_EQ(c.request("GET", "/x", {}, header("nobody")).result_int(), 404);
  EXPECT_EQ(c.request("GET", "/x").result_int(), 400) << "no tenant key at all";
  EXPECT_TRUE(has(R"(isolato_gate_rejected_total{tenant="_unknown",reason="unknown_tenant"} 2)"));
  gate.reset();
  auto pass = config(up.port());
  pass.pass_unknown = true;
  start(pass);
  Client p(gate->port());
  auto r = p.request("GET", "/x", {}, header("nobody"));
  EXPECT_EQ(r.result_int(), 200);
  EXPECT_EQ(r["X-Seen-Tenant"], "nobody");
  EXPECT_TRUE(has(R"(isolato_gate_requests_total{tenant="_unknown",code="200"} 1)"));
}

TEST_F(GateHttpTest, MalformedTenantKeysAre400InEveryKeyMode) {
  TestUpstream up;
  start(config(up.port()));
  Client c(gate->port());
  for (const std::string bad : {"..", "%2F", "a%2Fb", "../free", "-x", "_unknown", "free/x"})
    EXPECT_EQ(c.request("GET", "/x", {}, header(bad)).result_int(), 400) << bad;
  EXPECT_EQ(c.request("GET", "/x", {}, header(std::string(64, 'a'))).result_int(), 400) << "64 characters";
  gate.reset();
  auto by_path = config(up.port());
  by_path.tenant_key = {TenantKey::Kind::path, "/v1/tenants/"};
  start(by_path);
  Client p(gate->port());
  EXPECT_EQ(p.request("POST", "/v1/tenants/free/requests").result_int(), 200);
  for (const char* bad : {"/v1/tenants/%2Ffree/requests", "/v1/tenants/../admin/tenants", "/v1/tenants/free%2F..%2F/x",
                          "/v1/tenants//requests", "/v1/tenants/.hidden"})
    EXPECT_EQ(p.request("POST", bad).result_int(), 400) << bad;
  gate.reset();
  auto by_host = config(up.port());
  by_host.tenant_key = {TenantKey::Kind::host, ""};
  start(by_host);
  Client h(gate->port());
  h.send("GET / HTTP/1.1\r\nHost: free.example.com:8080\r\n\r\n");
  EXPECT_EQ(h.receive().result_int(), 200);
  h.send("GET / HTTP/1.1\r\nHost: %2e%2e.example.com\r\n\r\n");
  EXPECT_EQ(h.receive().result_int(), 400);
}

TEST_F(GateHttpTest, DeadUpstreamIs502AndStalledUpstreamIs504) {
  start(config(dead_port()));
  Client c(gate->port());
  auto r = c.request("GET", "/x", {}, header("free"));
  EXPECT_EQ(r.result_int(), 502);
  EXPECT_EQ(r[http::field::content_type], "application/problem+json");
  EXPECT_EQ(c.request("GET", "/readyz").result_int(), 503) << "not ready while the upstream refuses connections";
  EXPECT_EQ(c.request("GET", "/healthz").result_int(), 200);
  EXPECT_TRUE(has(R"(isolato_gate_upstream_errors_total{tenant="free",kind="connect"} 1)"));
  gate.reset();

  TestUpstream stalled(TestUpstream::Mode::stall);
  auto c2 = config(stalled.port());
  c2.upstream_timeout = 200ms;
  start(c2);
  Client s(gate->port());
  const auto t0 = std::chrono::steady_clock::now();
  auto timed_out = s.request("GET", "/x", {}, header("free"));
  EXPECT_EQ(timed_out.result_int(), 504);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(s.request("GET", "/readyz").result_int(), 200);
  EXPECT_TRUE(has(R"(isolato_gate_upstream_errors_total{tenant="free",kind="timeout"} 1)"));
  EXPECT_TRUE(has(R"(isolato_gate_requests_total{tenant="free",code="504"} 1)"));
}

TEST_F(GateHttpTest, OversizedHeadersAndBodiesAreRefused) {
  TestUpstream up;
  auto c = config(up.port());
  c.max_body_bytes = 4096;
  start(c);
  Client big_header(gate->port());
  auto r = big_header.request("GET", "/x", {}, header("free") + "X-Big: " + std::string(9000, 'a') + "\r\n");
  EXPECT_EQ(r.result_int(), 431);
  EXPECT_TRUE(big_header.closed_by_server());
  Client big_body(gate->port());
  big_body.send("POST /x HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\nContent-Length: 5000000\r\n\r\n");
  EXPECT_EQ(big_body.receive().result_int(), 413);
  EXPECT_TRUE(big_body.closed_by_server());
  Client chunked(gate->port());  // no length up front: cut off once past the limit
  chunked.send("POST /x HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\nTransfer-Encoding: chunked\r\n\r\n2000\r\n" +
               std::string(0x2000, 'x') + "\r\n");
  EXPECT_EQ(chunked.receive().result_int(), 413);
  Client malformed(gate->port());
  malformed.send("BLAH\x01 / HTTP/9.9\r\n\r\n");
  EXPECT_EQ(malformed.receive().result_int(), 400);
  EXPECT_TRUE(malformed.closed_by_server());
}

TEST_F(GateHttpTest, SlowClientIsCutOffAtTheReadTimeout) {
  TestUpstream up;
  auto c = config(up.port());
  c.read_timeout = 200ms;
  start(c);
  Client slow(gate->port());
  const auto t0 = std::chrono::steady_clock::now();
  slow.send("GET /x HTTP/1.1\r\nX-Ten");  // and then nothing more
  EXPECT_TRUE(slow.closed_by_server());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  Client slow_body(gate->port());  // a body that never finishes: cut too, upstream dropped
  slow_body.send("POST /x HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\nContent-Length: 100\r\n\r\nabc");
  EXPECT_TRUE(slow_body.closed_by_server());
  Client still_serving(gate->port());
  EXPECT_EQ(still_serving.request("GET", "/x", {}, header("free")).result_int(), 200);
}

TEST_F(GateHttpTest, FourThousandIdleConnectionsDoNotStopService) {
  TestUpstream up;
  start(config(up.port()));
  boost::asio::io_context ioc;  // plain sockets: one descriptor each (a Client has its own loop)
  std::list<boost::asio::ip::tcp::socket> idle;
  for (int i = 0; i < 4000; ++i)
    idle.emplace_back(ioc).connect({boost::asio::ip::make_address("127.0.0.1"), gate->port()});
  Client c(gate->port());
  ASSERT_TRUE(eventually([&] { return saasbench::testing::gauge(c, "isolato_gate_connections") >= 4001; }, 10s));
  EXPECT_EQ(c.request("GET", "/x", {}, header("free")).result_int(), 200);
  idle.clear();
  EXPECT_TRUE(eventually([&] { return saasbench::testing::gauge(c, "isolato_gate_connections") == 1; }, 10s));
}

// doc-claim: docs/bring-your-service.md: one more may only ask for `/healthz`, `/readyz` or `/metrics`
// doc-claim: docs/bring-your-service.md: any other request on it is answered 503 and counted as an `overload` rejection
// doc-claim: docs/bring-your-service.md: beyond those 32 a connection is closed at once
TEST_F(GateHttpTest, OverTheLimitOnlyProbesAreAnsweredThenConnectionsAreClosed) {
  TestUpstream up;
  auto cfg = config(up.port());
  cfg.max_connections = 3;  // what a pool pod's memory holds, scaled down
  cfg.probe_connections = 2;
  cfg.probe_read_timeout = 60s;  // the idle probe slots below stay taken
  start(cfg);
  Client c(gate->port());
  boost::asio::io_context ioc;
  std::list<boost::asio::ip::tcp::socket> idle;
  auto open_idle = [&](std::size_t until) {
    while (idle.size() + 1 < until)
      idle.emplace_back(ioc).connect({boost::asio::ip::make_address("127.0.0.1"), gate->port()});
    return eventually([&] { return saasbench::testing::gauge(c, "isolato_gate_connections") == until; }, 10s);
  };
  ASSERT_TRUE(open_idle(3));
  auto overload = [&] {
    constexpr std::string_view key = R"(tenant="_unknown",reason="overload"} )";
    const auto body = c.request("GET", "/metrics").body();
    const auto at = body.find(key);
    return at == std::string::npos ? std::string("0")
                                   : body.substr(at + key.size(), body.find('\n', at) - at - key.size());
  };
  Client probe(gate->port());
  auto healthz = probe.request("GET", "/healthz");
  EXPECT_EQ(healthz.result_int(), 200) << "the kubelet's liveness probe is answered at the cap";
  EXPECT_FALSE(healthz.keep_alive());
  Client tenant(gate->port());
  auto refused = tenant.request("GET", "/x", {}, header("free"));
  EXPECT_EQ(refused.result_int(), 503);
  EXPECT_EQ(refused[boost::beast::http::field::retry_after], "1");
  EXPECT_EQ(overload(), "1");
  EXPECT_EQ(up.accepted(), 0) << "nothing over the cap reaches the upstream";

  ASSERT_TRUE(open_idle(5));  // the probes' reserve taken too
  Client over(gate->port());
  EXPECT_TRUE(over.closed_by_server()) << "beyond the reserve: closed before any byte is read";
  EXPECT_EQ(overload(), "2");
  EXPECT_EQ(c.request("GET", "/x", {}, header("free")).result_int(), 200) << "the admitted keep serving";
}

TEST_F(GateHttpTest, AnIdleConnectionOverTheLimitIsClosedAfterTheProbeTimeout) {
  TestUpstream up;
  auto cfg = config(up.port());
  cfg.max_connections = 1;
  cfg.probe_read_timeout = 200ms;
  start(cfg);
  Client c(gate->port());
  Client silent(gate->port());  // over the cap: a probe slot, held by saying nothing
  EXPECT_TRUE(silent.closed_by_server());
  EXPECT_TRUE(eventually([&] { return saasbench::testing::gauge(c, "isolato_gate_connections") == 1; }, 10s));
}

TEST_F(GateHttpTest, RequestsOverTheAppsShareWaitInTheGateInArrivalOrder) {
  TestUpstream stalled(TestUpstream::Mode::stall);
  auto cfg = config(stalled.port());
  cfg.max_upstream_requests = 1;
  cfg.upstream_timeout = 300ms;  // the request holding the slot ends (504) and hands it on
  cfg.queue_timeout = 10s;
  start(cfg);
  Client observer(gate->port()), first(gate->port()), second(gate->port());
  first.send("GET /a HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return stalled.accepted() == 1; }));
  second.send("GET /b HTTP/1.1\r\nHost: t\r\nX-Tenant: other\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return saasbench::testing::gauge(observer, "isolato_gate_queued_requests") == 1; }));
  EXPECT_EQ(saasbench::testing::gauge(observer, "isolato_gate_upstream_requests"), 1);
  EXPECT_EQ(stalled.accepted(), 1) << "the waiting request is not sent to the app";
  EXPECT_EQ(first.receive().result_int(), 504);
  auto r = second.receive();
  EXPECT_EQ(r.result_int(), 504) << "relayed once the slot came free: " << r.body();
  EXPECT_EQ(stalled.accepted(), 2);
  EXPECT_EQ(saasbench::testing::gauge(observer, "isolato_gate_queued_requests"), 0);
  EXPECT_EQ(saasbench::testing::gauge(observer, "isolato_gate_upstream_requests"), 0);
}

TEST_F(GateHttpTest, AWaitLongerThanTheQueueTimeoutIs503WithRetryAfter) {
  TestUpstream stalled(TestUpstream::Mode::stall);
  auto cfg = config(stalled.port());
  cfg.max_upstream_requests = 1;
  cfg.queue_timeout = 200ms;
  start(cfg);
  Client holder(gate->port()), waiter(gate->port());
  holder.send("GET /a HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return stalled.accepted() == 1; }));
  const auto t0 = std::chrono::steady_clock::now();
  auto r = waiter.request("POST", "/b", "a body the app never sees", header("other"));
  EXPECT_EQ(r.result_int(), 503) << r.body();
  EXPECT_EQ(r[http::field::retry_after], "1");
  EXPECT_FALSE(r.keep_alive()) << "its body was left unread: the connection closes";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(stalled.accepted(), 1);
  EXPECT_TRUE(has(R"(isolato_gate_rejected_total{tenant="other",reason="overload"} 1)"));
  EXPECT_TRUE(has(R"(isolato_gate_requests_total{tenant="other",code="503"} 1)"));
}

TEST_F(GateHttpTest, TheProbePortAnswersWhileTheServicePortIsFull) {
  TestUpstream up;
  auto cfg = config(up.port());
  cfg.max_connections = 1;
  cfg.probe_connections = 1;
  cfg.probe_read_timeout = 60s;
  cfg.probe_listen = Endpoint{"127.0.0.1", 0};
  start(cfg);
  Client c(gate->port());  // the cap
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket reserve(ioc);  // the probes' reserve on the service port, held silent
  reserve.connect({boost::asio::ip::make_address("127.0.0.1"), gate->port()});
  ASSERT_TRUE(eventually([&] { return saasbench::testing::gauge(c, "isolato_gate_connections") == 2; }));
  Client over(gate->port());
  ASSERT_TRUE(over.closed_by_server()) << "the service port takes nothing more";
  Client ready(gate->probe_port());
  auto r = ready.request("GET", "/readyz");
  EXPECT_EQ(r.result_int(), 200) << r.body();
  EXPECT_FALSE(r.keep_alive()) << "one probe per connection";
  EXPECT_EQ(Client(gate->probe_port()).request("GET", "/healthz").result_int(), 200);
  EXPECT_EQ(Client(gate->probe_port()).request("GET", "/metrics").result_int(), 404) << "probes only";
  EXPECT_EQ(Client(gate->probe_port()).request("GET", "/x", {}, header("free")).result_int(), 404)
      << "no tenant traffic through the probe port";
  EXPECT_EQ(Client(gate->probe_port()).request("POST", "/readyz").result_int(), 405);
  EXPECT_TRUE(eventually([&] { return up.accepted() == 1; })) << "the readiness check's own connection";
}

TEST_F(GateHttpTest, TheProbePortSaysNotReadyForADeadAppAndWhileDraining) {
  auto dead = config(dead_port());
  dead.probe_listen = Endpoint{"127.0.0.1", 0};
  start(dead);
  EXPECT_EQ(Client(gate->probe_port()).request("GET", "/readyz").result_int(), 503);
  gate.reset();

  TestUpstream stalled(TestUpstream::Mode::stall);
  auto c = config(stalled.port());
  c.probe_listen = Endpoint{"127.0.0.1", 0};
  c.upstream_timeout = 2s;  // the request in flight keeps the gate draining meanwhile
  start(c);
  EXPECT_EQ(Client(gate->probe_port()).request("GET", "/readyz").result_int(), 200);
  Client busy(gate->port());
  busy.send("GET /x HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return stalled.accepted() == 2; }));  // the probe's connection, then the relay
  auto drained = std::async(std::launch::async, [&] { return gate->shutdown(10s); });
  EXPECT_TRUE(eventually([&] { return fresh_get(gate->probe_port(), "/readyz") == 503; }));
  EXPECT_EQ(busy.receive().result_int(), 504);
  EXPECT_TRUE(drained.get());
}

TEST_F(GateHttpTest, AFloodOfSilentProbeConnectionsIsBoundedAndTimesOut) {
  TestUpstream up;
  auto cfg = config(up.port());
  cfg.probe_listen = Endpoint{"127.0.0.1", 0};
  cfg.probe_read_timeout = 60s;
  start(cfg);
  std::list<Client> silent;
  for (std::size_t i = 0; i < ProbeServer::kMaxOpen; ++i) silent.emplace_back(gate->probe_port());
  const auto t0 = std::chrono::steady_clock::now();
  Client over(gate->probe_port());
  EXPECT_TRUE(over.closed_by_server());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s) << "closed unread, not at its read timeout (60 s)";
  silent.clear();  // their slots come free when they leave
  EXPECT_TRUE(eventually([&] { return fresh_get(gate->probe_port(), "/readyz") == 200; }));
  gate.reset();

  cfg.probe_read_timeout = 200ms;
  start(cfg);
  Client mute(gate->probe_port());
  EXPECT_TRUE(mute.closed_by_server()) << "a probe connection that says nothing is closed at its read timeout";
}

TEST_F(GateHttpTest, AdminPushReplacesTableAndForwardsIt) {
  auto sb = app_config();
  sb.admin_token_file = dir / "token";
  saasbench::Service app(sb);
  auto c = config(app.port());
  c.forward_table = true;
  start(c);
  Client admin(gate->port());
  const std::string auth = "Authorization: Bearer tok3n\r\n";
  EXPECT_EQ(admin.request("GET", "/v1/admin/tenants").result_int(), 401);
  const std::string table = R"({"version":"v2","tenants":{"new":{"profile":{"cpu":1}}}})";
  auto put = admin.request("PUT", "/v1/admin/tenants", table, auth);
  ASSERT_EQ(put.result_int(), 200) << put.body();
  EXPECT_EQ(admin.request("POST", "/v1/tenants/new/requests", {}, header("new")).result_int(), 200)
      << "the upstream got the table too";
  EXPECT_EQ(admin.request("GET", "/x", {}, header("free")).result_int(), 404);
  Client direct(app.port());
  EXPECT_NE(direct.request("GET", "/v1/admin/tenants", {}, auth).body().find(R"("version":"v2")"), std::string::npos);
  auto bad = admin.request("PUT", "/v1/admin/tenants", R"({"version":"v3","tenants":{"x":{"rateRps":-1}}})", auth);
  EXPECT_EQ(bad.result_int(), 400);
  EXPECT_TRUE(has(R"(isolato_gate_tenant_table_updates_total{source="admin",result="applied"} 1)"));
}

TEST_F(GateHttpTest, ShutdownLetsTheRequestInFlightFinishAndClosesIdleConnections) {
  TestUpstream stalled(TestUpstream::Mode::stall);
  auto c = config(stalled.port());
  c.upstream_timeout = 500ms;  // the request in flight ends (504) within the grace period
  start(c);
  Client busy(gate->port()), idle(gate->port()), observer(gate->port());
  EXPECT_EQ(idle.request("GET", "/healthz").result_int(), 200);
  busy.send("GET /x HTTP/1.1\r\nHost: t\r\nX-Tenant: free\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return stalled.accepted() == 1; }));
  auto drained = std::async(std::launch::async, [&] { return gate->shutdown(10s); });
  EXPECT_TRUE(idle.closed_by_server());
  auto r = busy.receive();
  EXPECT_EQ(r.result_int(), 504);
  EXPECT_FALSE(r.keep_alive()) << "a draining gate closes after the response";
  EXPECT_TRUE(drained.get());
}
