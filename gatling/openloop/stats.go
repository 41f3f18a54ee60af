package main

import (
	"math"
	"sort"
	"time"
)

// Summary is the calibration format's latency summary (docs/calibration-format.md): every
// request, answered or failed, with nearest-rank percentiles in milliseconds. Field names and
// order are those of the Gatling writer (gatling/.../stats/LatencySummary.java).
type Summary struct {
	Count  int      `json:"count"`
	Errors int      `json:"errors"`
	P50    *float64 `json:"p50"`
	P90    *float64 `json:"p90"`
	P95    *float64 `json:"p95"`
	P99    *float64 `json:"p99"`
	Max    *float64 `json:"max"`
	// the p95's 95 % confidence interval, the samples at quantileRanks; a bound the sample
	// cannot give (no upper one below 72 requests) is left out
	P95Low  *float64 `json:"p95Low,omitempty"`
	P95High *float64 `json:"p95High,omitempty"`
}

// Step is one step of a calibration run, as the Gatling writer emits it.
type Step struct {
	Index           int                `json:"index"`
	OfferedRps      float64            `json:"offeredRps"`
	AchievedRps     float64            `json:"achievedRps"`
	DurationSeconds float64            `json:"durationSeconds"`
	Total           Summary            `json:"total"`
	Tenants         map[string]Summary `json:"tenants"`
}

// Run is the calibration run format, schemaVersion 1 (docs/schemas/calibration-run.schema.json).
type Run struct {
	SchemaVersion int            `json:"schemaVersion"`
	RunID         string         `json:"runId"`
	SloClass      string         `json:"sloClass"`
	Partial       bool           `json:"partial"`
	Context       map[string]any `json:"context"`
	Steps         []Step         `json:"steps"`
	// the generator's own CPU and its node's (-self-stats); not part of the calibration format
	Generator *SelfStats `json:"generator,omitempty"`
	// every request of the kept steps, for -samples (latency over time); not in the JSON
	requests []sample
}

const schemaVersion = 1

// summarize sorts latencies in place and summarises them like LatencySummary.ofNanos: the
// nearest rank (smallest sample with at least q % at or below it), milliseconds rounded to
// microseconds; no samples: null percentiles (0 would read as "very fast").
func summarize(latencies []time.Duration, errors int) Summary {
	s := Summary{Count: len(latencies), Errors: errors}
	if len(latencies) == 0 {
		s.Errors = 0
		return s
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	at := func(q float64) *float64 {
		rank := int(math.Ceil(q / 100 * float64(len(latencies))))
		v := millis(latencies[max(0, rank-1)])
		return &v
	}
	s.P50, s.P90, s.P95, s.P99 = at(50), at(90), at(95), at(99)
	m := millis(latencies[len(latencies)-1])
	s.Max = &m
	low, high := quantileRanks(len(latencies), 0.95, 0.95)
	if low >= 1 {
		v := millis(latencies[low-1])
		s.P95Low = &v
	}
	if high <= len(latencies) {
		v := millis(latencies[high-1])
		s.P95High = &v
	}
	return s
}

// quantileRanks is the distribution-free confidence interval of the q-quantile of n samples:
// 1-based ranks (low, high) of the order statistics between which it lies with the given
// confidence, since the count of samples below it is Binomial(n, q); each tail at most
// (1-confidence)/2; low 0 or high n+1 where the sample is too small to give a bound. The same
// ranks as the Gatling writer (QuantileInterval) and the runner (knee.py): the shared vectors in
// calibration-format/src/test/resources/quantile-ci-ranks.json hold all three to them.
func quantileRanks(n int, q, confidence float64) (int, int) {
	tail := (1 - confidence) / 2
	cdf := make([]float64, n+1) // P(B <= k), the mass by its ratio recurrence in log space
	logPmf, logOdds, sum := float64(n)*math.Log1p(-q), math.Log(q)-math.Log1p(-q), 0.0
	for k := 0; k <= n; k++ {
		if k > 0 {
			logPmf += math.Log(float64(n-k+1)/float64(k)) + logOdds
		}
		sum += math.Exp(logPmf)
		cdf[k] = math.Min(sum, 1)
	}
	cdf[n] = 1
	low := 0
	for low+1 <= n && cdf[low] <= tail {
		low++
	}
	high := n + 1
	for high-1 >= 1 && 1-cdf[high-2] <= tail {
		high--
	}
	return low, high
}

func millis(d time.Duration) float64 {
	return math.Round(float64(d)/1e3) / 1e3
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
