#include "metrics.hpp"

#include <gtest/gtest.h>

#include "process_stats.hpp"

using namespace saasbench;
using namespace std::chrono_literals;

TEST(Histogram, CountsIntoUpperBoundBuckets) {
  Histogram h;
  h.observe(1ms);     // le 0.001
  h.observe(1100us);  // le 0.0015
  h.observe(7s);      // +Inf only
  EXPECT_EQ(h.cumulative(0), 0u);
  EXPECT_EQ(h.cumulative(1), 1u);
  EXPECT_EQ(h.cumulative(2), 2u);
  EXPECT_EQ(h.cumulative(Histogram::kBoundsSeconds.size() - 1), 2u);
  EXPECT_EQ(h.count(), 3u);
  EXPECT_NEAR(h.sum_seconds(), 7.0021, 1e-9);
}

TEST(Histogram, BucketsAreFineBetweenOneAnd200Ms) {
  const auto& b = Histogram::kBoundsSeconds;
  for (std::size_t i = 1; i < b.size(); ++i) {
    ASSERT_LT(b[i - 1], b[i]);
    if (b[i] > 0.001 && b[i] <= 0.2) EXPECT_LE(b[i] / b[i - 1], 1.5) << b[i];
  }
}

TEST(Metrics, ExposesPrometheusText) {
  Metrics m;
  TenantMetrics t1;
  t1.record(200, 3ms);
  t1.record(429, 1ms);
  m.unknown_tenant().record(404, 1ms);
  m.rejected(Rejection::rate_limited);
  m.table_update(TableSource::admin, true);
  m.in_flight() = 2;
  const std::string text = m.expose({"v\"1", 1, 2, 1, {{"t1", &t1}}});
  for (const char* line : {"saasbench_requests_total{tenant=\"t1\",code=\"200\"} 1\n",
                           "saasbench_requests_total{tenant=\"t1\",code=\"429\"} 1\n",
                           "saasbench_requests_total{tenant=\"_unknown\",code=\"404\"} 1\n",
                           "saasbench_request_duration_seconds_bucket{tenant=\"t1\",le=\"0.003\"} 2\n",
                           "saasbench_request_duration_seconds_count{tenant=\"t1\"} 2\n",
                           "saasbench_rejected_total{reason=\"rate_limited\"} 1\n", "saasbench_in_flight_requests 2\n",
                           "saasbench_tenant_table_info{version=\"v\\\"1\"} 1\n",
                           "saasbench_tenant_table_updates_total{source=\"admin\",result=\"applied\"} 1\n",
                           "saasbench_worker_threads 2\n", "# TYPE process_cpu_seconds_total counter\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line;
}

TEST(Metrics, EscapesLabels) { EXPECT_EQ(escape_label("a\\b\"c\nd"), "a\\\\b\\\"c\\nd"); }

TEST(ProcessStats, ParsesProcStat) {
  const std::string stat = "42 (saas bench) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 1000 123456 77 rest";
  const auto s = parse_proc_stat(stat, 100, 4096);
  EXPECT_DOUBLE_EQ(s.cpu_seconds, 3.0);
  EXPECT_EQ(s.resident_bytes, 77u * 4096);
  EXPECT_GT(read_process_stats().resident_bytes, 0u);
  EXPECT_EQ(parse_proc_stat("garbage", 100, 4096).resident_bytes, 0u);
}
