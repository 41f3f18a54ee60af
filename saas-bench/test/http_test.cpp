// HTTP-level tests: a real Service on a loopback port, real sockets, raw requests.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "http_client.hpp"
#include "service.hpp"

using namespace saasbench;
using namespace saasbench::testing;
namespace http = boost::beast::http;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

struct HttpTest : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("saasbench-http-" + std::to_string(::getpid()));
  std::unique_ptr<Service> service;

  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "tenants.json") << R"({"version":"v1","tenants":{
        "free":{"profile":{}},
        "work":{"profile":{"cpu":5,"memory":256,"io":4,"fsync":true}},
        "slow":{"profile":{"cpu":4000}},
        "long":{"profile":{"cpu":40000}},
        "limited":{"profile":{},"rateRps":0.001,"burst":1}}})";
    std::ofstream(dir / "token") << "tok3n\n";
  }
  void TearDown() override {
    service.reset();
    fs::remove_all(dir);
  }
  void start(std::chrono::milliseconds read_timeout = 15s) {
    Config c;
    c.listen = {"127.0.0.1", 0, 2};
    c.workers = 2;
    c.data_dir = dir / "data";
    c.tenants_file = dir / "tenants.json";
    c.admin_token_file = dir / "token";
    c.read_timeout = read_timeout;
    service = std::make_unique<Service>(c);
  }
};

}  // namespace

TEST_F(HttpTest, KeepAliveConnectionServesManyRequests) {
  start();
  Client c(service->port());
  for (int i = 0; i < 50; ++i) {
    auto r = c.request("POST", "/v1/tenants/free/requests");
    ASSERT_EQ(r.result_int(), 200);
    ASSERT_EQ(r.body(), "{}");
    ASSERT_TRUE(r.keep_alive());
  }
  auto w = c.request("POST", "/v1/tenants/work/requests", R"({"any":"body"})");
  EXPECT_EQ(w.result_int(), 200);
  EXPECT_EQ(c.request("POST", "/v1/tenants/nobody/requests").result_int(), 404);
  auto l1 = c.request("POST", "/v1/tenants/limited/requests");
  auto l2 = c.request("POST", "/v1/tenants/limited/requests");
  EXPECT_EQ(l1.result_int(), 200);
  EXPECT_EQ(l2.result_int(), 429);
  EXPECT_FALSE(l2[http::field::retry_after].empty());
  const auto metrics = c.request("GET", "/metrics").body();
  EXPECT_NE(metrics.find("saasbench_requests_total{tenant=\"free\",code=\"200\"} 50\n"), std::string::npos);
  EXPECT_NE(metrics.find("saasbench_requests_total{tenant=\"work\",code=\"200\"} 1\n"), std::string::npos);
  EXPECT_NE(metrics.find("saasbench_worker_threads 2\n"), std::string::npos);
}

TEST_F(HttpTest, ConnectionCloseIsHonoured) {
  start();
  Client c(service->port());
  auto r = c.request("POST", "/v1/tenants/free/requests", {}, "Connection: close\r\n");
  EXPECT_EQ(r.result_int(), 200);
  EXPECT_FALSE(r.keep_alive());
  EXPECT_TRUE(c.closed_by_server());
}

TEST_F(HttpTest, OversizedHeadersAndBodiesAreRefused) {
  start();
  Client big_header(service->port());
  auto r = big_header.request("POST", "/v1/tenants/free/requests", {}, "X-Big: " + std::string(9000, 'a') + "\r\n");
  EXPECT_EQ(r.result_int(), 431);
  EXPECT_TRUE(big_header.closed_by_server());

  Client big_body(service->port());
  big_body.send("PUT /v1/admin/tenants HTTP/1.1\r\nHost: t\r\nContent-Length: 5000000\r\n\r\n");
  EXPECT_EQ(big_body.receive().result_int(), 413);
  EXPECT_TRUE(big_body.closed_by_server());

  Client tenant_body(service->port());
  EXPECT_EQ(tenant_body.request("POST", "/v1/tenants/free/requests", std::string(70000, 'x')).result_int(), 413);
}

TEST_F(HttpTest, MalformedRequestGets400AndClose) {
  start();
  Client c(service->port());
  c.send("BLAH\x01 / HTTP/9.9\r\n\r\n");
  EXPECT_EQ(c.receive().result_int(), 400);
  EXPECT_TRUE(c.closed_by_server());
}

TEST_F(HttpTest, SlowClientIsCutOffAtTheReadTimeout) {
  start(200ms);
  Client c(service->port());
  const auto t0 = std::chrono::steady_clock::now();
  c.send("POST /v1/tenants/free/req");  // and then nothing more
  EXPECT_TRUE(c.closed_by_server());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  Client still_serving(service->port());
  EXPECT_EQ(still_serving.request("GET", "/healthz").result_int(), 200);
}

TEST_F(HttpTest, AdminPushReplacesTableAndGetShowsIt) {
  start();
  Client c(service->port());
  EXPECT_EQ(c.request("GET", "/v1/admin/tenants").result_int(), 401);
  const std::string auth = "Authorization: Bearer tok3n\r\n";
  auto put = c.request("PUT", "/v1/admin/tenants", R"({"version":"v2","tenants":{"new":{"profile":{"cpu":1}}}})", auth);
  ASSERT_EQ(put.result_int(), 200) << put.body();
  EXPECT_EQ(c.request("POST", "/v1/tenants/new/requests").result_int(), 200);
  EXPECT_EQ(c.request("POST", "/v1/tenants/free/requests").result_int(), 404);
  auto bad =
      c.request("PUT", "/v1/admin/tenants", R"({"version":"v3","tenants":{"x":{"profile":{"cpu":"a lot"}}}})", auth);
  EXPECT_EQ(bad.result_int(), 400);
  EXPECT_EQ(bad[http::field::content_type], "application/problem+json");
  auto got = c.request("GET", "/v1/admin/tenants", {}, auth);
  EXPECT_NE(got.body().find(R"("version":"v2")"), std::string::npos);
}

// doc-claim: docs/saas-bench.md: an admin PUT answers 409 naming both
// doc-claim: docs/security.md: and a pod refuses (409) a table older than the one it holds
TEST_F(HttpTest, AnAdminPushOlderThanTheTableInUseIs409AndChangesNothing) {
  start();
  Client c(service->port());
  const std::string auth = "Authorization: Bearer tok3n\r\n";
  auto put =
      c.request("PUT", "/v1/admin/tenants", R"({"version":"v7","revision":7,"tenants":{"new":{"profile":{}}}})", auth);
  ASSERT_EQ(put.result_int(), 200) << put.body();
  auto old = c.request("PUT", "/v1/admin/tenants", R"({"version":"v6","revision":6,"tenants":{}})", auth);
  EXPECT_EQ(old.result_int(), 409);
  EXPECT_EQ(old[http::field::content_type], "application/problem+json");
  EXPECT_NE(old.body().find("revision 6 is older than the table in use (version v7, revision 7)"), std::string::npos)
      << old.body();
  // the revision in use is what the controller reads to tell a table of its own from a forged one
  EXPECT_NE(c.request("GET", "/v1/admin/tenants", {}, auth).body().find(R"("revision":7)"), std::string::npos);
  EXPECT_EQ(c.request("POST", "/v1/tenants/new/requests").result_int(), 200);
}

TEST_F(HttpTest, AdminTokenRotatesUnderARunningServerWithinOneSecond) {
  start();  // default --file-poll-ms
  Client c(service->port());
  const auto code = [&](const std::string& token) {
    return c.request("GET", "/v1/admin/tenants", {}, "Authorization: Bearer " + token + "\r\n").result_int();
  };
  const auto rewrite = [&](const std::string& tokens) {  // atomically, as a Secret update does
    std::ofstream(dir / "token.next") << tokens;
    fs::rename(dir / "token.next", dir / "token");
  };
  ASSERT_EQ(code("tok3n"), 200);
  ASSERT_EQ(code("n3xt"), 401);

  rewrite("tok3n\nn3xt\n");
  EXPECT_TRUE(eventually([&] { return code("n3xt") == 200; }, 1s)) << "new token not accepted within 1 s";
  EXPECT_EQ(code("tok3n"), 200) << "both listed: both accepted";

  rewrite("n3xt\n");
  EXPECT_TRUE(eventually([&] { return code("tok3n") == 401; }, 1s)) << "removed token still accepted after 1 s";
  EXPECT_EQ(code("n3xt"), 200);

  const auto rejected = [&](int n) {
    const auto line = "saasbench_admin_token_reloads_total{result=\"rejected\"} " + std::to_string(n) + "\n";
    return eventually([&] { return c.request("GET", "/metrics").body().find(line) != std::string::npos; }, 2s);
  };
  rewrite("");  // a broken update never disables auth nor locks the pushes out
  EXPECT_TRUE(rejected(1));
  fs::remove(dir / "token");
  EXPECT_TRUE(rejected(2));
  EXPECT_EQ(code("n3xt"), 200);
  EXPECT_EQ(code(""), 401);
}

TEST_F(HttpTest, ClientThatLeavesMidRequestDoesNotHurtTheServer) {
  start();
  {
    Client gone(service->port());
    gone.send("POST /v1/tenants/slow/requests HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n");
    gone.close();  // the response will meet a closed socket (EPIPE/ECONNRESET, never SIGPIPE)
  }
  Client c(service->port());
  EXPECT_TRUE(eventually([&] { return gauge(c, "saasbench_in_flight_requests") == 0; }));
  EXPECT_EQ(c.request("POST", "/v1/tenants/work/requests").result_int(), 200);
}

TEST_F(HttpTest, ShutdownDrainsAdmittedRequestsAndClosesIdleConnections) {
  start();
  Client busy(service->port()), idle(service->port()), observer(service->port());
  EXPECT_EQ(idle.request("GET", "/healthz").result_int(), 200);
  // Long (~10 slow ones) so that the drain begins while it runs, also when the shutdown thread
  // starts late on a loaded machine: a job done before the drain rightly keeps its connection.
  busy.send("POST /v1/tenants/long/requests HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return gauge(observer, "saasbench_in_flight_requests") == 1; }));
  auto drained = std::async(std::launch::async, [&] { return service->shutdown(10s); });
  // The idle connection is closed only by the drain: from here on, it has begun.
  EXPECT_TRUE(idle.closed_by_server());
  auto r = busy.receive();
  EXPECT_EQ(r.result_int(), 200);
  EXPECT_FALSE(r.keep_alive()) << "a draining server closes after the response";
  EXPECT_TRUE(drained.get());
}
