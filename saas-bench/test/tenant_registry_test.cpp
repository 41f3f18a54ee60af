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

TEST(TenantRegistry, AnOlderRevisionDoesNotReplaceANewerOne) {
  // 2026-11-29's CI: a push of revision 2 (27 tenants), then the kubelet's late copy of the file
  // at revision 1 (26 tenants) replaced it, and the 27th tenant got 404s
  TenantRegistry r;
  auto with = [](std::string version, std::optional<std::uint64_t> revision) {
    TenantTableSpec t = table(std::move(version), 1, 1);
    t.revision = revision;
    return t;
  };
  EXPECT_FALSE(r.replace(with("new", 2)));
  const auto why = r.replace(with("old", 1));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("revision 1 is older than the table in use (version new, revision 2)"), std::string::npos)
      << *why;
  EXPECT_EQ(r.current()->version(), "new");
  EXPECT_FALSE(r.replace(with("same", 2))) << "the same revision is the same table";
  EXPECT_FALSE(r.replace(with("newer", 3)));
  EXPECT_FALSE(r.replace(with("hand-written", std::nullopt))) << "a table without a revision is not ordered";
  EXPECT_FALSE(r.replace(with("after", 1))) << "nor is one after it";
  EXPECT_EQ(r.current()->version(), "after");
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
