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
	return s
}

func millis(d time.Duration) float64 {
	return math.Round(float64(d)/1e3) / 1e3
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
