#include "tenant_json.hpp"

#include <gtest/gtest.h>

using namespace saasbench;

namespace {
TableError error_of(std::string_view text) {
  auto r = parse_tenant_table(text);
  EXPECT_TRUE(std::holds_alternative<TableError>(r)) << text;
  return std::holds_alternative<TableError>(r) ? std::get<TableError>(r) : TableError{};
}
}  // namespace

TEST(TenantJson, ParsesTheDocumentedExample) {
  auto r = parse_tenant_table(R"({"version":"v7","tenants":{
      "t1":{"profile":{"cpu":150,"memory":12000,"io":100,"fsync":true},"rateRps":50,"burst":10},
      "free":{"profile":{}}}})");
  ASSERT_TRUE(std::holds_alternative<TenantTableSpec>(r)) << std::get<TableError>(r).to_string();
  const auto& t = std::get<TenantTableSpec>(r);
  EXPECT_EQ(t.version, "v7");
  ASSERT_EQ(t.tenants.size(), 2u);
  const auto& t1 = t.tenants.at("t1");
  EXPECT_EQ(t1.profile, (Profile{150, 12000, 100, true}));
  EXPECT_EQ(t1.rate_rps, 50.0);
  EXPECT_EQ(t1.burst, 10.0);
  const auto& free = t.tenants.at("free");
  EXPECT_TRUE(free.profile.empty());
  EXPECT_FALSE(free.rate_rps.has_value());
}

TEST(TenantJson, BurstDefaultsToOneSecondOfRate) {
  auto r = parse_tenant_table(R"({"version":"v","tenants":{"a":{"profile":{},"rateRps":25}}})");
  EXPECT_EQ(std::get<TenantTableSpec>(r).tenants.at("a").burst, 25.0);
}

TEST(TenantJson, ErrorsNameTheField) {
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{"cpu":100001}}}})").field, "tenants.a.profile.cpu");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{"memory":-1}}}})").field, "tenants.a.profile.memory");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{"io":1.5}}}})").field, "tenants.a.profile.io");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{"io":18446744073709551615}}}})").field,
            "tenants.a.profile.io");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{"fsync":1}}}})").field, "tenants.a.profile.fsync");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{"cpus":1}}}})").field, "tenants.a.profile.cpus");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{}}})").field, "tenants.a.profile");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{},"rateRps":0}}})").field, "tenants.a.rateRps");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"a":{"profile":{},"burst":0.5}}})").field, "tenants.a.burst");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{"-a":{"profile":{}}}})").field, "tenants.-a");
  EXPECT_EQ(error_of(R"({"version":"","tenants":{}})").field, "version");
  EXPECT_EQ(error_of(R"({"tenants":{}})").field, "version");
  EXPECT_EQ(error_of(R"({"version":"v"})").field, "tenants");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":[]})").field, "tenants");
  EXPECT_EQ(error_of(R"({"version":"v","tenants":{},"extra":1})").field, "extra");
  EXPECT_EQ(error_of(R"({"version":"v","revision":-1,"tenants":{}})").field, "revision");
  EXPECT_EQ(error_of(R"({"version":"v","revision":1.5,"tenants":{}})").field, "revision");
  EXPECT_EQ(error_of(R"({"version":"v","revision":"7","tenants":{}})").field, "revision");
  EXPECT_EQ(error_of(R"({"version":"v","revision":9007199254740992,"tenants":{}})").field, "revision");
}

TEST(TenantJson, RevisionIsOptionalAndExactUpTo2To53) {
  auto plain = parse_tenant_table(R"({"version":"v","tenants":{}})");
  ASSERT_TRUE(std::holds_alternative<TenantTableSpec>(plain));
  EXPECT_FALSE(std::get<TenantTableSpec>(plain).revision);
  auto top = parse_tenant_table(R"({"version":"v","revision":9007199254740991,"tenants":{}})");
  ASSERT_TRUE(std::holds_alternative<TenantTableSpec>(top));
  EXPECT_EQ(std::get<TenantTableSpec>(top).revision, 9007199254740991u);
}

TEST(TenantJson, RejectsBrokenAndTruncatedJson) {
  const std::string good = R"({"version":"v","tenants":{"a":{"profile":{"cpu":1}}}})";
  for (std::size_t n = 0; n < good.size(); ++n) error_of(good.substr(0, n));
  EXPECT_NE(error_of("[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]").message.find("invalid JSON"), std::string::npos);
}

TEST(TenantJson, TenantIds) {
  EXPECT_TRUE(valid_tenant_id("t1"));
  EXPECT_TRUE(valid_tenant_id("Acme.corp_01-x"));
  EXPECT_FALSE(valid_tenant_id(""));
  EXPECT_FALSE(valid_tenant_id("_unknown"));
  EXPECT_FALSE(valid_tenant_id("a/b"));
  EXPECT_FALSE(valid_tenant_id("a b"));
  EXPECT_FALSE(valid_tenant_id(std::string(64, 'a')));
  EXPECT_TRUE(valid_tenant_id(std::string(63, 'a')));
}

TEST(TenantJson, PrintsWhatItParses) {
  TenantTableSpec t{"v9", {{"a", {{1, 2, 3, true}, 12.5, 4}}, {"b", {{}, std::nullopt, 1}}}, 42};
  const std::string text = to_json(t);
  auto back = parse_tenant_table(text);
  ASSERT_TRUE(std::holds_alternative<TenantTableSpec>(back)) << text;
  EXPECT_EQ(std::get<TenantTableSpec>(back), t);
  EXPECT_NE(text.find(R"("burst":4)"), std::string::npos) << text;
}
