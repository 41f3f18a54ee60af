#include "tenant_key.hpp"

#include <gtest/gtest.h>

#include "gate_config.hpp"

using namespace isolato::gate;

namespace {
std::string id_of(const KeyResult& r) {
  if (const auto* id = std::get_if<std::string_view>(&r)) return std::string(*id);
  return std::holds_alternative<KeyMissing>(r) ? "<missing>" : "<invalid>";
}
TenantKey key(std::string_view spec) { return std::get<TenantKey>(parse_tenant_key(spec)); }
}  // namespace

TEST(TenantKey, ParsesTheThreeKinds) {
  EXPECT_EQ(key("header:X-Tenant").kind, TenantKey::Kind::header);
  EXPECT_EQ(key("path:/v1/tenants/").name, "/v1/tenants/");
  EXPECT_EQ(key("host").kind, TenantKey::Kind::host);
  for (const char* bad : {"", "header:", "header:X Tenant", "path:v1/", "path:/v1", "path:/a%2F/", "cookie:x", "hosts"})
    EXPECT_TRUE(std::holds_alternative<std::string>(parse_tenant_key(bad))) << bad;
}

TEST(TenantKey, HeaderValueIsTheIdCheckedByTheTableRule) {
  const auto k = key("header:X-Tenant");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "", "t1"})), "t1");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "", std::nullopt})), "<missing>");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "", ""})), "<missing>");
  for (const char* bad : {"..", "%2F", "a/b", "-a", "_unknown", "a b"})
    EXPECT_EQ(id_of(extract_tenant(k, {"/", "", bad})), "<invalid>") << bad;
}

TEST(TenantKey, PathSegmentAfterThePrefixNeverDecoded) {
  const auto k = key("path:/v1/tenants/");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/tenants/t1/requests?x=1", "", {}})), "t1");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/tenants/t1", "", {}})), "t1");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/tenants/t1?x=/y", "", {}})), "t1");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/other/t1", "", {}})), "<missing>");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/tenants/", "", {}})), "<missing>");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/tenants/%2e%2e/x", "", {}})), "<invalid>");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/tenants/../x", "", {}})), "<invalid>");
  EXPECT_EQ(id_of(extract_tenant(k, {"/v1/tenants/t1%2Fx", "", {}})), "<invalid>");
}

TEST(TenantKey, HostFirstLabel) {
  const auto k = key("host");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "t1.example.com", {}})), "t1");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "t1.example.com:8080", {}})), "t1");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "localhost:8080", {}})), "<missing>");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "", {}})), "<missing>");
  EXPECT_EQ(id_of(extract_tenant(k, {"/", "%2e.example.com", {}})), "<invalid>");
}

TEST(GateConfig, DefaultsFlagsAndErrors) {
  auto ok = parse_gate_args({"--listen",
                             "0.0.0.0:9090",
                             "--upstream",
                             "127.0.0.1:8081",
                             "--tenant-key",
                             "path:/v1/tenants/",
                             "--unknown-tenant",
                             "pass",
                             "--admin-token-file",
                             "/t",
                             "--forward-table",
                             "--upstream-timeout-ms",
                             "250",
                             "--max-connections",
                             "10",
                             "--probe-listen",
                             "0.0.0.0:8079",
                             "--max-upstream-requests",
                             "0",
                             "--queue-timeout-ms",
                             "300"});
  ASSERT_TRUE(std::holds_alternative<GateConfig>(ok)) << std::get<std::string>(ok);
  const auto& c = std::get<GateConfig>(ok);
  EXPECT_EQ(c.listen.port, 9090);
  EXPECT_EQ(c.tenant_key.kind, TenantKey::Kind::path);
  EXPECT_TRUE(c.pass_unknown);
  EXPECT_TRUE(c.forward_table);
  EXPECT_EQ(c.upstream_timeout.count(), 250);
  EXPECT_EQ(c.max_connections, 10U);
  ASSERT_TRUE(c.probe_listen.has_value());
  EXPECT_EQ(c.probe_listen->port, 8079);
  EXPECT_EQ(c.max_upstream_requests, 0U) << "0: no limit";
  EXPECT_EQ(c.queue_timeout.count(), 300);
  const auto defaults = std::get<GateConfig>(parse_gate_args({}));
  EXPECT_FALSE(defaults.probe_listen.has_value());
  EXPECT_EQ(defaults.max_upstream_requests, 64U);
  const auto error = [](const std::vector<std::string>& args) { return std::get<std::string>(parse_gate_args(args)); };
  EXPECT_EQ(error({"--unknown-tenant", "maybe"}), "--unknown-tenant: must be reject or pass");
  EXPECT_EQ(error({"--tenant-key", "cookie:x"}), "--tenant-key: must be header:NAME, path:/PREFIX/ or host");
  EXPECT_EQ(error({"--forward-table"}), "--forward-table needs --admin-token-file");
  EXPECT_EQ(error({"--upstream", "8081"}), "--upstream: must be ADDRESS:PORT");
  EXPECT_EQ(error({"--probe-listen", "8079"}), "--probe-listen: must be ADDRESS:PORT");
  EXPECT_EQ(error({"--max-upstream-requests", "-1"}), "--max-upstream-requests: must be between 0 and 1000000");
  EXPECT_EQ(error({"--bogus", "1"}), "unknown argument --bogus");
}
