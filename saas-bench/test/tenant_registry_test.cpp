#include "tenant_registry.hpp"

#include <gtest/gtest.h>

using namespace saasbench;
using namespace std::chrono_literals;

namespace {
TenantTableSpec table(std::string version, double rate, double burst) {
  return {std::move(version), {{"a", {{1, 0, 0, false}, rate, burst}}}};
}
}  // namespace

TEST(TenantRegistry, StartsEmpty) {
  TenantRegistry r;
  EXPECT_EQ(r.current()->version(), "");
  EXPECT_EQ(r.current()->find("a"), nullptr);
}

TEST(TenantRegistry, ReplaceKeepsSnapshotsHeldByRequests) {
  TenantRegistry r;
  r.replace(table("v1", 10, 5));
  auto held = r.current();
  auto tenant = held->find("a");
  r.replace(TenantTableSpec{"v2", {}});
  EXPECT_EQ(held->version(), "v1");
  EXPECT_EQ(tenant->spec().profile.cpu, 1u);
  EXPECT_EQ(r.current()->version(), "v2");
  EXPECT_EQ(r.current()->find("a"), nullptr);
}

TEST(TenantRegistry, StayingTenantKeepsItsBucketLevel) {
  TenantRegistry r;
  const auto t0 = TenantState::Clock::now();
  r.replace(table("v1", 1, 3), t0);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(r.current()->find("a")->admit(t0).admitted);
  r.replace(table("v2", 1, 3), t0);
  EXPECT_FALSE(r.current()->find("a")->admit(t0).admitted) << "a reload must not refill the bucket";
  r.replace(table("v3", 1, 2), t0 + 10s);
  EXPECT_DOUBLE_EQ(*r.current()->find("a")->tokens(t0 + 10s), 2.0) << "capped at the new burst";
}

TEST(TenantRegistry, NewTenantStartsWithFullBucketAndUnlimitedAlwaysAdmits) {
  TenantRegistry r;
  const auto t0 = TenantState::Clock::now();
  r.replace({"v1", {{"a", {{}, 1.0, 2}}, {"free", {{}, std::nullopt, 1}}}}, t0);
  EXPECT_DOUBLE_EQ(*r.current()->find("a")->tokens(t0), 2.0);
  auto free = r.current()->find("free");
  EXPECT_FALSE(free->tokens(t0).has_value());
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(free->admit(t0).admitted);
}
