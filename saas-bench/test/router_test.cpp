#include "router.hpp"

#include <gtest/gtest.h>

#include <boost/beast/http/write.hpp>
#include <set>
#include <sstream>

#include "http_session.hpp"

using namespace saasbench;

namespace {
struct RouterTest : ::testing::Test {
  TenantRegistry registry;
  Metrics metrics;
  AdminAuth auth{{"s3cret"}};
  Router router{registry, metrics, auth, RouterOptions{2, 16, 1, 1}};

  void SetUp() override {
    registry.replace(
        {"v1",
         {{"free", {{}, std::nullopt, 1}}, {"busy", {{1, 0, 0, false}, std::nullopt, 1}}, {"limited", {{}, 1.0, 1}}}});
  }
  Response respond(std::string_view method, std::string_view target, std::string_view body = {},
                   std::string_view auth_header = {}) {
    auto r = router.route(Request{method, target, auth_header, body});
    EXPECT_TRUE(std::holds_alternative<Response>(r)) << target;
    return std::holds_alternative<Response>(r) ? std::get<Response>(r) : Response{};
  }
};
}  // namespace

TEST_F(RouterTest, HealthAndReadiness) {
  EXPECT_EQ(respond("GET", "/healthz").status, 200u);
  EXPECT_EQ(respond("GET", "/readyz").status, 200u);
  router.set_draining();
  EXPECT_EQ(respond("GET", "/readyz").status, 503u);
  EXPECT_EQ(respond("GET", "/healthz").status, 200u);
}

TEST_F(RouterTest, UnknownPathsAndMethods) {
  EXPECT_EQ(respond("GET", "/nope").status, 404u);
  EXPECT_EQ(respond("GET", "/v1/tenants//requests").status, 400u);
  const auto r = respond("GET", "/v1/tenants/free/requests");
  EXPECT_EQ(r.status, 405u);
  EXPECT_EQ(r.allow, "POST");
  EXPECT_EQ(respond("POST", "/metrics").status, 405u);
}

TEST_F(RouterTest, EmptyProfileIsAnsweredRightAway) {
  const auto r = respond("POST", "/v1/tenants/free/requests?x=1");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.body, "{}");
  EXPECT_EQ(registry.current()->find("free")->metrics().by_status[200 - 100].load(), 1u);
}

TEST_F(RouterTest, InvalidAndUnknownTenants) {
  auto r = respond("POST", "/v1/tenants/bad%20id/requests");
  EXPECT_EQ(r.status, 400u);
  EXPECT_NE(r.body.find(R"("field":"tenantId")"), std::string::npos);
  EXPECT_EQ(respond("POST", "/v1/tenants/ghost/requests").status, 404u);
  EXPECT_EQ(metrics.unknown_tenant().by_status[404 - 100].load(), 1u);
  EXPECT_EQ(respond("POST", "/v1/tenants/free/requests", std::string(17, 'x')).status, 413u);
}

TEST_F(RouterTest, RateLimitedTenantGets429WithRetryAfter) {
  EXPECT_EQ(respond("POST", "/v1/tenants/limited/requests").status, 200u);
  const auto r = respond("POST", "/v1/tenants/limited/requests");
  EXPECT_EQ(r.status, 429u);
  EXPECT_EQ(r.retry_after_s, 1);
  EXPECT_EQ(r.content_type, "application/problem+json");
}

TEST_F(RouterTest, StressWorkBecomesAJobAndConcurrencyIsLimited) {
  auto a = router.route(Request{"POST", "/v1/tenants/busy/requests", {}, {}});
  auto b = router.route(Request{"POST", "/v1/tenants/busy/requests", {}, {}});
  ASSERT_TRUE(std::holds_alternative<StressJob>(a));
  ASSERT_TRUE(std::holds_alternative<StressJob>(b));
  EXPECT_EQ(metrics.in_flight().load(), 2);
  EXPECT_EQ(respond("POST", "/v1/tenants/busy/requests").status, 503u);
  EXPECT_EQ(metrics.in_flight().load(), 2);
  EXPECT_EQ(router.finish(std::get<StressJob>(a), "").status, 200u);
  EXPECT_EQ(router.finish(std::get<StressJob>(b), "disk full").status, 500u);
  a = Response{};
  b = Response{};
  EXPECT_EQ(metrics.in_flight().load(), 0) << "tickets release on destruction";
}

TEST_F(RouterTest, AdminNeedsTheBearerToken) {
  const auto r = respond("GET", "/v1/admin/tenants");
  EXPECT_EQ(r.status, 401u);
  EXPECT_TRUE(r.www_authenticate);
  EXPECT_EQ(respond("GET", "/v1/admin/tenants", {}, "Bearer wrong!").status, 401u);
  EXPECT_EQ(respond("GET", "/v1/admin/tenants", {}, "Basic s3cret").status, 401u);
  EXPECT_EQ(respond("DELETE", "/v1/admin/tenants", {}, "Bearer s3cret").status, 405u);
  const auto got = respond("GET", "/v1/admin/tenants", {}, "Bearer s3cret");
  EXPECT_EQ(got.status, 200u);
  EXPECT_NE(got.body.find(R"("version":"v1")"), std::string::npos);
}

TEST_F(RouterTest, AdminDisabledWithoutToken) {
  AdminAuth none;
  Router r(registry, metrics, none, {});
  EXPECT_EQ(std::get<Response>(r.route(Request{"GET", "/v1/admin/tenants", "Bearer ", {}})).status, 403u);
}

TEST_F(RouterTest, AdminPutReplacesTableOrRejectsItWhole) {
  auto bad =
      respond("PUT", "/v1/admin/tenants",
              R"({"version":"v2","tenants":{"ok":{"profile":{}},"x":{"profile":{"io":99999999}}}})", "Bearer s3cret");
  EXPECT_EQ(bad.status, 400u);
  EXPECT_NE(bad.body.find(R"("field":"tenants.x.profile.io")"), std::string::npos) << bad.body;
  EXPECT_EQ(registry.current()->version(), "v1");
  EXPECT_EQ(registry.current()->find("ok"), nullptr);

  auto good =
      respond("PUT", "/v1/admin/tenants", R"({"version":"v2","tenants":{"ok":{"profile":{}}}})", "Bearer s3cret");
  EXPECT_EQ(good.status, 200u);
  EXPECT_EQ(good.body, R"({"version":"v2","tenants":1})");
  EXPECT_EQ(respond("POST", "/v1/tenants/ok/requests").status, 200u);
  EXPECT_EQ(respond("POST", "/v1/tenants/free/requests").status, 404u);
  const auto text = respond("GET", "/metrics").body;
  EXPECT_NE(text.find("saasbench_tenant_table_info{version=\"v2\"} 1"), std::string::npos);
  EXPECT_NE(text.find("saasbench_tenant_table_updates_total{source=\"admin\",result=\"rejected\"} 1"),
            std::string::npos);
}

TEST(Response, SerializesHeaders) {
  Response r = problem(429, "slow down");
  r.retry_after_s = 3;
  const auto body_size = r.body.size();
  std::ostringstream wire;
  wire << to_message(std::move(r), false);
  const std::string out = wire.str();
  EXPECT_TRUE(out.starts_with("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/problem+json\r\n"));
  EXPECT_NE(out.find("\r\nRetry-After: 3\r\n"), std::string::npos);
  EXPECT_NE(out.find("\r\nConnection: close\r\n"), std::string::npos);
  EXPECT_NE(out.find("\r\n\r\n{\"type\""), std::string::npos);
  EXPECT_NE(out.find("Content-Length: " + std::to_string(body_size) + "\r\n"), std::string::npos);

  Response denied = problem(401, "no");
  denied.www_authenticate = true;
  denied.allow = "GET, PUT";
  std::ostringstream kept;
  kept << to_message(denied, true);
  EXPECT_NE(kept.str().find("\r\nWWW-Authenticate: Bearer\r\n"), std::string::npos);
  EXPECT_NE(kept.str().find("\r\nAllow: GET, PUT\r\n"), std::string::npos);
  EXPECT_EQ(kept.str().find("Connection"), std::string::npos) << "HTTP/1.1 keeps alive by default";
}

TEST_F(RouterTest, MetricsSeriesFollowTheTableThroughTenantChurn) {
  const std::string auth_header = "Bearer s3cret";
  const auto tenant_label_values = [&] {
    const auto text = respond("GET", "/metrics").body;
    std::set<std::string> ids;
    for (auto at = text.find("{tenant=\""); at != std::string::npos; at = text.find("{tenant=\"", at + 1)) {
      const auto from = at + 9;
      ids.insert(text.substr(from, text.find('"', from) - from));
    }
    return ids;
  };
  std::size_t most = 0;
  for (int table = 0; table < 100; ++table) {  // 1,000 tenants, 10 at a time, "stay" in every table
    std::string body = R"({"version":"churn-)" + std::to_string(table) + R"(","tenants":{"stay":{"profile":{}})";
    for (int i = 0; i < 10; ++i) body += R"(,"t)" + std::to_string(table * 10 + i) + R"(":{"profile":{}})";
    body += "}}";
    ASSERT_EQ(respond("PUT", "/v1/admin/tenants", body, auth_header).status, 200u) << body;
    ASSERT_EQ(respond("POST", "/v1/tenants/stay/requests").status, 200u);
    for (int i = 0; i < 10; ++i)
      ASSERT_EQ(respond("POST", "/v1/tenants/t" + std::to_string(table * 10 + i) + "/requests").status, 200u);
    ASSERT_EQ(respond("POST", "/v1/tenants/t" + std::to_string(table * 10 - 1) + "/requests").status,
              404u);  // a tenant of the previous table: counted as _unknown
    most = std::max(most, tenant_label_values().size());
  }
  EXPECT_EQ(most, 12u) << "10 tenants + stay + _unknown";
  const auto ids = tenant_label_values();
  EXPECT_TRUE(ids.contains("t999") && ids.contains("stay") && ids.contains("_unknown") && !ids.contains("t989"));
  const auto text = respond("GET", "/metrics").body;
  EXPECT_NE(text.find("saasbench_requests_total{tenant=\"stay\",code=\"200\"} 100\n"), std::string::npos)
      << "a tenant that stays keeps its series across table swaps";
}
