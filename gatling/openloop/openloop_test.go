package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// serialServer answers one request at a time after `service`: a single-threaded service with a
// known service time (capacity 1/service). failTenant's requests get 500.
func serialServer(t *testing.T, service time.Duration, failTenant string) *httptest.Server {
	var mu sync.Mutex
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want a JSON POST", http.StatusBadRequest)
			return
		}
		mu.Lock()
		time.Sleep(service)
		mu.Unlock()
		if failTenant != "" && strings.Contains(r.URL.Path, "/tenants/"+failTenant+"/") {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(s.Close)
	return s
}

func plan(url string, rates ...float64) Plan {
	return Plan{BaseURL: url, Tenants: []string{"t1", "t2"}, Body: "{}", Rates: rates,
		RequestsPerStep: 40, Timeout: 5 * time.Second, MaxDuration: 30 * time.Second}
}

func TestSummarizeIsNearestRankInMillisLikeTheGatlingWriter(t *testing.T) {
	var lat []time.Duration
	for _, i := range rand.Perm(100) {
		lat = append(lat, time.Duration(i+1)*time.Millisecond)
	}
	s := summarize(lat, 3)
	if s.Count != 100 || s.Errors != 3 || *s.P50 != 50 || *s.P90 != 90 || *s.P95 != 95 || *s.P99 != 99 || *s.Max != 100 {
		t.Fatalf("got %+v p50=%v p95=%v", s, *s.P50, *s.P95)
	}
	if got := summarize([]time.Duration{1500 * time.Microsecond}, 0); *got.P95 != 1.5 {
		t.Fatalf("1.5 ms read as %v", *got.P95)
	}
	if empty := summarize(nil, 0); empty.P95 != nil || empty.Count != 0 {
		t.Fatalf("no samples must give null percentiles, got %+v", empty)
	}
}

func TestQuantileRanksAreTheSharedVectors(t *testing.T) {
	raw, err := os.ReadFile("../../calibration-format/src/test/resources/quantile-ci-ranks.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			N             int
			Q, Confidence float64
			Low, High     int
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 20 {
		t.Fatalf("only %d shared vectors", len(doc.Cases))
	}
	for _, c := range doc.Cases {
		if low, high := quantileRanks(c.N, c.Q, c.Confidence); low != c.Low || high != c.High {
			t.Errorf("n=%d q=%v confidence=%v: ranks %d, %d; want %d, %d", c.N, c.Q, c.Confidence, low, high, c.Low, c.High)
		}
	}
}

func TestSummarizeBoundsTheP95ByOrderStatistics(t *testing.T) {
	var lat []time.Duration
	for _, i := range rand.Perm(300) {
		lat = append(lat, time.Duration(i+1)*time.Millisecond)
	}
	s := summarize(lat, 0)
	if *s.P95 != 285 || s.P95Low == nil || *s.P95Low != 277 || s.P95High == nil || *s.P95High != 293 {
		t.Fatalf("300 samples: p95 %v in [%v, %v], want 285 in [277, 293]", *s.P95, s.P95Low, s.P95High)
	}
	if few := summarize(lat[:71], 0); few.P95Low == nil || few.P95High != nil {
		t.Fatalf("71 samples bound the p95 from below only, got %+v", few)
	}
}

func TestEvenAndPoissonArrivalsKeepTheRate(t *testing.T) {
	even := offsets(5, 10, false, nil)
	for i, o := range even {
		if o != time.Duration(i)*100*time.Millisecond {
			t.Fatalf("even offset %d = %v", i, o)
		}
	}
	// 200 steps of 100 Poisson arrivals at 50 req/s: each step's 100 requests fall inside its 2 s
	// (the step's achieved rate is its offered rate), in order, with exponential-like gaps.
	rng := rand.New(rand.NewPCG(7, 9))
	var gaps []float64
	for step := 0; step < 200; step++ {
		p := offsets(100, 50, true, rng)
		if len(p) != 100 || p[0] < 0 || p[99] >= 2*time.Second {
			t.Fatalf("step %d: %d arrivals from %v to %v, want 100 within [0, 2 s)", step, len(p), p[0], p[99])
		}
		for i := 1; i < len(p); i++ {
			if p[i] < p[i-1] {
				t.Fatalf("step %d: arrival %d at %v before %v", step, i, p[i], p[i-1])
			}
			gaps = append(gaps, (p[i] - p[i-1]).Seconds())
		}
	}
	mean, sq := 0.0, 0.0
	for _, g := range gaps {
		mean += g
	}
	mean /= float64(len(gaps))
	for _, g := range gaps {
		sq += (g - mean) * (g - mean)
	}
	cv := math.Sqrt(sq/float64(len(gaps))) / mean
	if math.Abs(mean-0.02) > 0.001 || math.Abs(cv-1) > 0.05 {
		t.Fatalf("Poisson gaps: mean %v s (want 0.02), coefficient of variation %v (want 1: exponential)", mean, cv)
	}
}

func TestLowLoadMeasuresTheServiceTime(t *testing.T) {
	s := serialServer(t, 10*time.Millisecond, "")
	run := Execute(plan(s.URL, 20), "r", "gold", map[string]any{"label": "alone", "replicas": 1})
	if run.Partial || len(run.Steps) != 1 {
		t.Fatalf("want one complete step, got %+v", run)
	}
	st := run.Steps[0]
	if st.Total.Count != 40 || st.Total.Errors != 0 || st.Tenants["t1"].Count != 20 || st.Tenants["t2"].Count != 20 {
		t.Fatalf("counts: %+v", st)
	}
	if *st.Total.P50 < 10 || *st.Total.P95 > 60 {
		t.Fatalf("20 req/s on a 10 ms service: p50 %v ms, p95 %v ms", *st.Total.P50, *st.Total.P95)
	}
	if st.AchievedRps < 18 || st.AchievedRps > 20.01 || st.DurationSeconds != 2 {
		t.Fatalf("achieved %v req/s over %v s", st.AchievedRps, st.DurationSeconds)
	}
}

// The point of the generator: a request that cannot leave on time (here: one connection, a
// 10 ms service, 200 req/s offered) counts its latency from its schedule. Request i is due at
// 5i ms and answered at about 10(i+1) ms, so its latency is about 5i+10 ms (p50 ≈ 110 ms,
// max ≈ 205 ms), although each request takes only 10 ms once sent. A closed-loop generator
// timing from the actual send would report ≈ 10 ms: coordinated omission.
func TestOverloadCountsLatencyFromTheIntendedSendTime(t *testing.T) {
	s := serialServer(t, 10*time.Millisecond, "")
	p := plan(s.URL, 200)
	p.MaxInFlight = 1
	run := Execute(p, "r", "gold", map[string]any{"label": "alone", "replicas": 1})
	st := run.Steps[0]
	if *st.Total.P50 < 80 || *st.Total.Max < 170 {
		t.Fatalf("latency must grow with the backlog: p50 %v ms, max %v ms", *st.Total.P50, *st.Total.Max)
	}
	if st.AchievedRps > 110 {
		t.Fatalf("a 10 ms serial service achieves at most 100 req/s, reported %v", st.AchievedRps)
	}
}

func TestErrorsAreCountedPerTenant(t *testing.T) {
	s := serialServer(t, time.Millisecond, "t2")
	run := Execute(plan(s.URL, 40), "r", "gold", map[string]any{"label": "alone", "replicas": 1})
	st := run.Steps[0]
	if st.Total.Errors != 20 || st.Tenants["t2"].Errors != 20 || st.Tenants["t1"].Errors != 0 {
		t.Fatalf("errors: total %d, t1 %d, t2 %d", st.Total.Errors, st.Tenants["t1"].Errors, st.Tenants["t2"].Errors)
	}
	if st.AchievedRps > 20.01 {
		t.Fatalf("achieved counts only 2xx answers: %v", st.AchievedRps)
	}
	if got := failureReport(run.requests); len(got) != 1 || !strings.HasPrefix(got[0], "20 failed (first at ") ||
		!strings.HasSuffix(got[0], "): HTTP 500: boom") {
		t.Fatalf("the failures' cause is not named: %q", got)
	}
}

func TestATransportFailureIsNamed(t *testing.T) {
	s := serialServer(t, time.Millisecond, "")
	s.Close() // refused from now on
	run := Execute(plan(s.URL, 40), "r", "gold", nil)
	got := failureReport(run.requests)
	if len(got) != 1 || !strings.HasPrefix(got[0], "40 failed") || !strings.Contains(got[0], "connection refused") {
		t.Fatalf("a refused connection is not named: %q", got)
	}
}

func TestAProvidersServiceGetsItsMethodPathAndTenantHeader(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Method+" "+r.URL.Path+" "+r.Header.Get("X-Tenant")+" "+r.Header.Get("Content-Type")]++
		mu.Unlock()
		if r.Header.Get("X-Tenant") == "t2" {
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(s.Close)
	p := plan(s.URL, 40)
	p.Request = single(http.MethodGet, "/get", "X-Tenant")
	st := Execute(p, "r", "httpbin", map[string]any{"label": "alone"}).Steps[0]
	if seen["GET /get t1 "] != 20 || seen["GET /get t2 "] != 20 || len(seen) != 2 {
		t.Fatalf("requests seen: %v", seen)
	}
	if st.Tenants["t2"].Errors != 20 || st.Tenants["t1"].Errors != 0 {
		t.Fatalf("a 429 is an error of its tenant: %+v", st.Tenants)
	}
	p.Request = single("", "/t/{tenant}/x", "")
	seen = map[string]int{}
	Execute(p, "r", "httpbin", map[string]any{"label": "alone"})
	if seen["POST /t/t1/x  application/json"] != 20 {
		t.Fatalf("the tenant in the path: %v", seen)
	}
}

func TestTheRunIsBoundedAndDropsUnfinishedSteps(t *testing.T) {
	s := serialServer(t, time.Millisecond, "")
	p := plan(s.URL, 40, 40, 40) // 1 s per step
	p.MaxDuration = 1500 * time.Millisecond
	began := time.Now()
	run := Execute(p, "r", "gold", map[string]any{"label": "alone", "replicas": 1})
	if took := time.Since(began); took > 2500*time.Millisecond {
		t.Fatalf("bound 1.5 s, took %v", took)
	}
	if !run.Partial || len(run.Steps) != 1 || run.Steps[0].Index != 0 {
		t.Fatalf("want the first step only, partial: %+v", run)
	}
}

// Each step that ends is told on the progress writer as it ends, with what it offered and achieved;
// a step cut short by the bound is not.
func TestEveryEndedStepIsToldAsItEnds(t *testing.T) {
	s := serialServer(t, time.Millisecond, "")
	p := plan(s.URL, 40, 40, 40) // 1 s per step
	p.MaxDuration = 2500 * time.Millisecond
	var out bytes.Buffer
	p.Progress = &out
	run := Execute(p, "r", "gold", nil)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(run.Steps) || len(run.Steps) != 2 {
		t.Fatalf("want a line for each of the 2 kept steps, got %d for %d: %q", len(lines), len(run.Steps), out.String())
	}
	for i, want := range []string{"openloop: gold: step 1 of 3: offered 40.0, achieved ", "openloop: gold: step 2 of 3: "} {
		if !strings.HasPrefix(lines[i], want) || !strings.Contains(lines[i], "req/s, p95 ") ||
			!strings.HasSuffix(lines[i], "0 errors of 40") {
			t.Errorf("line %d: %q, want it to start %q and end in 0 errors of 40", i, lines[i], want)
		}
	}
}

// The output has exactly the fields of the format's JSON schema (the records of calibration-format/),
// docs/schemas/calibration-run.schema.json (no extra, every required one).
func TestOutputFollowsTheCalibrationSchema(t *testing.T) {
	raw, err := os.ReadFile("../../docs/schemas/calibration-run.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	s := serialServer(t, time.Millisecond, "")
	p := plan(s.URL, 40)
	p.FirstIndex = 7
	ctx, err := parseContext("alone", "podCpu=400m,replicas=2,weight=1.5")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "gold.json")
	if err := writeRun(Execute(p, "r1", "gold", ctx), out); err != nil {
		t.Fatal(err)
	}
	written, _ := os.ReadFile(out)
	var doc map[string]any
	if err := json.Unmarshal(written, &doc); err != nil {
		t.Fatal(err)
	}
	conforms(t, "$", doc, schema)
	steps := doc["steps"].([]any)
	step := steps[0].(map[string]any)
	conforms(t, "steps[0]", step, schema["properties"].(map[string]any)["steps"].(map[string]any)["items"].(map[string]any))
	summary := schema["$defs"].(map[string]any)["summary"].(map[string]any)
	conforms(t, "steps[0].total", step["total"].(map[string]any), summary)
	if step["index"].(float64) != 7 || doc["context"].(map[string]any)["replicas"].(float64) != 2 {
		t.Fatalf("index or replicas lost: %s", written)
	}
	if !strings.Contains(string(written), `"replicas": 2,`) {
		t.Fatalf("replicas must be an integer: %s", written)
	}
}

func conforms(t *testing.T, path string, doc map[string]any, schema map[string]any) {
	t.Helper()
	props := schema["properties"].(map[string]any)
	for k := range doc {
		if _, ok := props[k]; !ok {
			t.Errorf("%s.%s is not in the schema", path, k)
		}
	}
	for _, r := range schema["required"].([]any) {
		if _, ok := doc[r.(string)]; !ok {
			t.Errorf("%s.%s is required by the schema", path, r)
		}
	}
}

func TestFlagsAreChecked(t *testing.T) {
	for _, args := range [][]string{
		{"-class", "gold", "-tenants", "t1", "-out", "x", "-start", "10"},                   // no url
		{"-url", "http://x", "-tenants", "t1", "-out", "x", "-start", "10"},                 // no class
		{"-url", "http://x", "-class", "g", "-tenants", "t1", "-out", "x"},                  // no rates
		{"-url", "http://x", "-class", "g", "-tenants", "t1", "-out", "x", "-rates", "5,0"}, // rate 0
		{"-url", "http://x", "-class", "g", "-tenants", "t1", "-out", "x", "-start", "5", "-arrivals", "burst"},
		{"-url", "http://x", "-class", "g", "-tenants", "t1", "-out", "x", "-start", "5", "-connections", "pool"},
		{"-url", "http://x", "-class", "g", "-tenants", "t1", "-out", "x", "-start", "5", "-context", "novalue"},
	} {
		if err := run(args); err == nil {
			t.Errorf("accepted %v", args)
		}
	}
	r, err := stepRates("", 15, 15, 0, 60)
	if err != nil || len(r) != 4 || r[3] != 60 {
		t.Fatalf("15..60 by 15: %v %v", r, err)
	}
}

// kube-proxy balances connections, not requests: with per-request connections every request is
// a new connection (a new draw of the pod); reused ones carry many requests each.
func TestConnectionsPerRequestOpenOneForEachRequest(t *testing.T) {
	for _, perRequest := range []bool{false, true} {
		var mu sync.Mutex
		conns := map[string]bool{}
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			conns[r.RemoteAddr] = true
			mu.Unlock()
		}))
		p := plan(s.URL, 100)
		p.ConnectionPerRequest = perRequest
		run := Execute(p, "r", "gold", map[string]any{"label": "alone"})
		s.Close()
		if run.Partial || run.Steps[0].Total.Count != 40 || run.Steps[0].Total.Errors != 0 {
			t.Fatalf("per request %v: %+v", perRequest, run)
		}
		if perRequest && len(conns) != 40 || !perRequest && len(conns) > 10 {
			t.Errorf("per request %v: 40 requests on %d connections", perRequest, len(conns))
		}
	}
}

func TestSamplesListEveryAnsweredRequestWithItsIntendedSendTime(t *testing.T) {
	due := time.UnixMilli(1_700_000_000_000)
	r := Run{requests: []sample{
		{latency: 20 * time.Millisecond, ok: true, end: due.Add(20 * time.Millisecond)},
		{latency: 1500 * time.Millisecond, ok: false, end: due.Add(1500 * time.Millisecond)},
		{}, // never sent: left out
	}}
	path := filepath.Join(t.TempDir(), "samples.csv")
	if err := writeSamples(r, path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "due_unix_ms,latency_ms,ok\n1700000000000,20.000,1\n1700000000000,1500.000,0\n"
	if string(got) != want {
		t.Fatalf("samples CSV:\n%s\nwant:\n%s", got, want)
	}
}

// An in-context calibration passes the class's mix as -request (the controller's RequestMix
// exported): each tenant's requests go through its cycle, the tenant in its header.
func TestTheRequestFlagSendsTheClassMix(t *testing.T) {
	s, seen := shapeRecorder(t)
	mix := `{"endpoints":[{"method":"GET","path":"/get","weight":3},{"method":"POST","path":"/post/{tenant}","weight":1}],"tenantHeader":"X-Tenant","cycle":[0,0,1,0]}`
	out := filepath.Join(t.TempDir(), "run.json")
	args := []string{"-url", s.URL, "-class", "httpbin", "-tenants", "t1,t2", "-rates", "200",
		"-requests", "40", "-warmup", "0s", "-out", out, "-request", mix}
	if err := run(args); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"GET /get t1": 15, "POST /post/t1 t1": 5, "GET /get t2": 15, "POST /post/t2 t2": 5}
	if len(seen) != len(want) {
		t.Fatalf("requests seen: %v, want %v", seen, want)
	}
	for k, n := range want {
		if seen[k] != n {
			t.Fatalf("requests seen: %v, want %v", seen, want)
		}
	}
	for _, bad := range [][]string{
		append(args, "-path", "/x"),
		append(args[:len(args)-1:len(args)-1], `{"endpoints":[],"cycle":[]}`),
		append(args[:len(args)-1:len(args)-1], `{"endpoints":[{"method":"GET","path":"/a"}],"cycle":[1]}`),
		append(args[:len(args)-1:len(args)-1], `{"endpoints":[{"method":"GET","path":"/a"}],"cycles":[0]}`),
	} {
		if err := run(bad); err == nil {
			t.Errorf("accepted %v", bad[len(bad)-2:])
		}
	}
}
