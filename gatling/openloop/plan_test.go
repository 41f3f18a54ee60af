package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// blocks is an order that sends each tenant's requests in one block, tenant after tenant.
func blocks(loads []TenantLoad) []int {
	var order []int
	for i, l := range loads {
		for range l.Count {
			order = append(order, i)
		}
	}
	return order
}

// twoClasses: class A in two 1 s steps (a1 10 + a2 30 req/s, then 20 + 20), class B (b1 alone,
// 20 then 40 req/s) in steps of the same seconds, after a 0.5 s warm-up of 5 requests each.
func twoClasses(url string) PlanFile {
	step := func(i int, loads ...TenantLoad) ClassStep {
		total := 0.0
		for _, l := range loads {
			total += l.Rps
		}
		return ClassStep{Index: i, OffsetSeconds: float64(i), DurationSeconds: 1, OfferedRps: total, Tenants: loads, Order: blocks(loads)}
	}
	return PlanFile{Simulation: "CoLocatedRamp", Body: "{}", WarmupSeconds: 0.5, Classes: []ClassPlan{
		{SloClass: "ca", BaseURL: url, Context: map[string]any{"label": "colocated"}, WarmupRequests: 5, Steps: []ClassStep{
			step(0, TenantLoad{"a1", 10, 10}, TenantLoad{"a2", 30, 30}),
			step(1, TenantLoad{"a1", 20, 20}, TenantLoad{"a2", 20, 20})}},
		{SloClass: "cb", BaseURL: url, Context: map[string]any{"label": "colocated"}, WarmupRequests: 5, Steps: []ClassStep{
			step(0, TenantLoad{"b1", 20, 20}), step(1, TenantLoad{"b1", 40, 40})}},
	}}
}

// shapeRecorder is a service that counts the requests it gets by "METHOD path X-Tenant"; read
// the counts once the requests have ended.
func shapeRecorder(t *testing.T) (*httptest.Server, map[string]int) {
	var mu sync.Mutex
	received := map[string]int{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		received[r.Method+" "+r.URL.Path+" "+r.Header.Get("X-Tenant")]++
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(s.Close)
	return s, received
}

func TestAPlanSendsAProvidersRequestShape(t *testing.T) {
	s, received := shapeRecorder(t)
	runs := ExecutePlan(twoClasses(s.URL), "r1", PlanOptions{Timeout: 5 * time.Second, MaxDuration: 10 * time.Second,
		Request: single(http.MethodGet, "/get", "X-Tenant")})
	if len(runs) != 2 || runs[0].Steps[1].Tenants["a2"].Errors != 0 {
		t.Fatalf("runs: %+v", runs)
	}
	// the warm-up's requests come on top of the steps' (30 and 20 for a2)
	if received["GET /get a2"] < 50 || received["GET /get b1"] < 60 {
		t.Fatalf("requests: %v", received)
	}
	for k := range received {
		if !strings.HasPrefix(k, "GET /get ") {
			t.Fatalf("a request of another shape: %q in %v", k, received)
		}
	}
}

func TestAPlanSendsEachTenantsExactCountPerStepWithClassesAligned(t *testing.T) {
	var mu sync.Mutex
	received := map[string]int{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		received[strings.Split(r.URL.Path, "/")[3]]++
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(s.Close)
	p := twoClasses(s.URL)
	runs := ExecutePlan(p, "r1", PlanOptions{Timeout: 5 * time.Second, MaxDuration: 10 * time.Second})
	want := map[string][]map[string]int{
		"ca": {{"a1": 10, "a2": 30}, {"a1": 20, "a2": 20}},
		"cb": {{"b1": 20}, {"b1": 40}},
	}
	for c, r := range runs {
		if r.Partial || len(r.Steps) != 2 || r.RunID != "r1" || r.Context["label"] != "colocated" {
			t.Fatalf("class %s: %+v", r.SloClass, r)
		}
		for i, st := range r.Steps {
			for tenant, n := range want[r.SloClass][i] {
				if st.Tenants[tenant].Count != n || st.Tenants[tenant].Errors != 0 {
					t.Errorf("%s step %d tenant %s: %d requests, want %d", r.SloClass, i, tenant, st.Tenants[tenant].Count, n)
				}
			}
			if st.OfferedRps != p.Classes[c].Steps[i].OfferedRps || st.DurationSeconds != 1 || st.AchievedRps < 0.9*st.OfferedRps {
				t.Errorf("%s step %d: offered %v, achieved %v, %v s", r.SloClass, i, st.OfferedRps, st.AchievedRps, st.DurationSeconds)
			}
		}
	}
	if !reflect.DeepEqual(received, map[string]int{"a1": 35, "a2": 50, "b1": 65}) {
		t.Fatalf("the service received %v (steps + 5 warm-up requests to each class's first tenant)", received)
	}
	// intended send times: each step one evenly spaced stream at its total rate, and the
	// classes' steps start together
	dues := func(r Run, from, n int) []time.Time {
		out := make([]time.Time, n)
		for i := range out {
			s := r.requests[from+i]
			out[i] = s.end.Add(-s.latency)
		}
		return out
	}
	a1, b1 := dues(runs[0], 40, 40), dues(runs[1], 20, 40)
	if d := a1[0].Sub(b1[0]); d.Abs() > time.Millisecond {
		t.Fatalf("step 1 of ca and cb start %v apart", d)
	}
	for i := 1; i < len(b1); i++ {
		if gap := b1[i].Sub(b1[i-1]); math.Abs(gap.Seconds()-0.025) > 1e-6 {
			t.Fatalf("cb step 1: gap %d is %v, want 25 ms (40 req/s)", i, gap)
		}
	}
	if d := b1[0].Sub(dues(runs[1], 0, 1)[0]); math.Abs(d.Seconds()-1) > 1e-6 {
		t.Fatalf("cb's step 1 starts %v after its step 0, want 1 s", d)
	}
}

func TestRunPlanWritesOneRunPerClass(t *testing.T) {
	s := serialServer(t, time.Millisecond, "")
	dir := t.TempDir()
	p := twoClasses(s.URL)
	p.WarmupSeconds, p.Classes[0].WarmupRequests, p.Classes[1].WarmupRequests = 0, 0, 0
	raw, _ := json.Marshal(p)
	planPath := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(planPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := run([]string{"-plan", planPath, "-out-dir", out, "-run-id", "x"}); err != nil {
		t.Fatal(err)
	}
	for _, cls := range []string{"ca", "cb"} {
		written, err := os.ReadFile(filepath.Join(out, cls+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var r map[string]any
		if err := json.Unmarshal(written, &r); err != nil || r["sloClass"] != cls || r["runId"] != "x" {
			t.Fatalf("%s.json: %s (%v)", cls, written, err)
		}
	}
}

func TestBadPlansAndFlagsAreRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good, _ := json.Marshal(twoClasses("http://127.0.0.1:9"))
	for name, text := range map[string]string{
		"empty":   `{"classes": []}`,
		"unknown": `{"classes": [], "rate": 5}`,
		"count0":  strings.Replace(string(good), `"count":10`, `"count":0`, 1),
		"nourl":   strings.Replace(string(good), `"baseUrl":"http://127.0.0.1:9"`, `"baseUrl":""`, 1),
	} {
		if err := run([]string{"-plan", write(name, text), "-out-dir", dir}); err == nil {
			t.Errorf("plan %s accepted", name)
		}
	}
	// an order that does not send each tenant's count, or names no tenant, is the export's fault
	for text, want := range map[string]string{
		strings.Replace(string(good), `"order":[0,`, `"order":[`, 1):   "order sends tenant a1 9 requests, its count is 10",
		strings.Replace(string(good), `"order":[0,`, `"order":[7,`, 1): "order names tenant 7 of 2",
	} {
		err := run([]string{"-plan", write("order", text), "-out-dir", dir})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("plan with a bad order: %v, want %q", err, want)
		}
	}
	planPath := write("good", string(good))
	for _, args := range [][]string{
		{"-plan", planPath}, // no -out-dir
		{"-plan", planPath, "-out-dir", dir, "-url", "http://x"}, // a ramp flag
		{"-plan", planPath, "-out-dir", dir, "-arrivals", "burst"},
		{"-plan", planPath, "-out-dir", dir, "-connections", "pool"},
	} {
		if err := run(args); err == nil {
			t.Errorf("accepted %v", args)
		}
	}
}

func TestAPlanSendsItsRequestMixToEachTenant(t *testing.T) {
	s, received := shapeRecorder(t)
	p := twoClasses(s.URL)
	p.WarmupSeconds = 0
	// as PlanExport writes GET:/get*3,POST:/anything/{tenant}: each tenant's k-th request is
	// Endpoints[Cycle[k % 4]], whatever the flags say
	p.Requests = &Request{TenantHeader: "X-Tenant", Cycle: []int{0, 0, 1, 0},
		Endpoints: []Endpoint{{Method: "GET", Path: "/get", Weight: 3}, {Method: "POST", Path: "/anything/{tenant}", Weight: 1}}}
	ExecutePlan(p, "r1", PlanOptions{Timeout: 5 * time.Second, MaxDuration: 10 * time.Second,
		Request: single(http.MethodPut, "/ignored", "")})
	// a1 sends 10 then 20 (per step: 10 -> 2 POSTs + 8 GETs... by cycle: 0..9 -> POST at 2, 6)
	want := map[string]int{
		"GET /get a1": 8 + 15, "POST /anything/a1 a1": 2 + 5,
		"GET /get a2": 23 + 15, "POST /anything/a2 a2": 7 + 5,
		"GET /get b1": 15 + 30, "POST /anything/b1 b1": 5 + 10,
	}
	if fmt.Sprint(received) != fmt.Sprint(want) {
		t.Fatalf("requests: %v, want %v", received, want)
	}
	bad := *p.Requests
	bad.Cycle = []int{2}
	p.Requests = &bad
	if err := p.check(); err == nil || !strings.Contains(err.Error(), "cycle index 2") {
		t.Fatalf("a cycle outside the endpoints: %v", err)
	}
}
