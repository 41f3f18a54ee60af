package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"time"
)

// Plan is what one run sends: steps back to back, each RequestsPerStep requests at its rate,
// spread over the tenants in turn (POST {BaseURL}/v1/tenants/{tenant}/requests).
type Plan struct {
	BaseURL         string
	Tenants         []string
	Body            string
	Rates           []float64 // offered req/s per step, in total
	FirstIndex      int       // index of the first step (a second pass continues the numbering)
	RequestsPerStep int
	Poisson         bool   // exponential inter-arrival times instead of even spacing
	Seed            uint64 // of the Poisson arrivals
	Warmup          time.Duration
	Timeout         time.Duration // per request; a timeout counts as an error
	MaxInFlight     int           // cap on concurrent requests; a request waiting for a slot still counts from its schedule
	MaxDuration     time.Duration // the whole run's bound; steps not finished by then are dropped
	// ConnectionPerRequest opens a connection for each request. kube-proxy picks a Service's pod
	// per connection, so each request then goes to a pod drawn anew; reused connections keep
	// going to the pods they were opened to (Go reuses the most recently idle one first).
	ConnectionPerRequest bool
}

// sample is one request: its latency from its INTENDED send time, so a request the generator
// could not send on time (late timer, full connection pool, MaxInFlight) still counts the
// delay: no coordinated omission.
type sample struct {
	tenant  int
	latency time.Duration
	ok      bool
	end     time.Time
}

// offsets are the intended send times of n requests at rate r from the step's start.
func offsets(n int, rate float64, poisson bool, rng *rand.Rand) []time.Duration {
	out := make([]time.Duration, n)
	t := 0.0
	for i := range out {
		out[i] = time.Duration(t * float64(time.Second))
		if poisson {
			t += rng.ExpFloat64() / rate
		} else {
			t += 1 / rate
		}
	}
	return out
}

// stepSeconds is the step's planned length: requests / rate, as in Gatling's ramps.
func stepSeconds(p Plan, rate float64) float64 { return float64(p.RequestsPerStep) / rate }

type generator struct {
	plan   Plan
	client *http.Client
	slots  chan struct{}
}

func newGenerator(p Plan) *generator {
	transport := &http.Transport{MaxIdleConns: 0, MaxIdleConnsPerHost: 1024, IdleConnTimeout: 90 * time.Second,
		DisableKeepAlives: p.ConnectionPerRequest}
	var slots chan struct{}
	if p.MaxInFlight > 0 {
		slots = make(chan struct{}, p.MaxInFlight)
	}
	return &generator{plan: p, client: &http.Client{Transport: transport, Timeout: p.Timeout}, slots: slots}
}

// send issues one request due at `due` and returns its sample (latency from `due`).
func (g *generator) send(ctx context.Context, tenant int, due time.Time) sample {
	if g.slots != nil {
		select {
		case g.slots <- struct{}{}:
			defer func() { <-g.slots }()
		case <-ctx.Done():
			return sample{tenant: tenant, latency: time.Since(due), end: time.Now()}
		}
	}
	url := g.plan.BaseURL + "/v1/tenants/" + g.plan.Tenants[tenant] + "/requests"
	ok := false
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewBufferString(g.plan.Body))
	if err == nil {
		req.Header.Set("Content-Type", "application/json")
		var resp *http.Response
		if resp, err = g.client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			ok = resp.StatusCode >= 200 && resp.StatusCode < 300
		}
	}
	end := time.Now()
	return sample{tenant: tenant, latency: end.Sub(due), ok: ok, end: end}
}

// fire sends requests at start+offsets[i] (tenant i mod T) without waiting for answers. The
// returned channel yields, once all have ended, whether every request was sent and answered
// (or failed) before the context ended.
func (g *generator) fire(ctx context.Context, start time.Time, offs []time.Duration, out []sample) <-chan bool {
	var wg sync.WaitGroup
	sent := 0
	for i, off := range offs {
		due := start.Add(off)
		if d := time.Until(due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			break
		}
		sent++
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = g.send(ctx, i%len(g.plan.Tenants), due)
		}()
	}
	complete := make(chan bool, 1)
	go func() {
		wg.Wait()
		complete <- sent == len(offs) && ctx.Err() == nil
	}()
	return complete
}

// Execute runs the warm-up and the steps; a step is kept only if all its requests finished
// before MaxDuration (Partial then tells that steps are missing).
func Execute(p Plan, runID, sloClass string, runContext map[string]any) Run {
	ctx, cancel := context.WithTimeout(context.Background(), p.MaxDuration)
	defer cancel()
	g := newGenerator(p)
	rng := rand.New(rand.NewPCG(p.Seed, p.Seed^0x9e3779b97f4a7c15))
	start := time.Now()
	if p.Warmup > 0 && len(p.Rates) > 0 {
		n := int(p.Rates[0] * p.Warmup.Seconds())
		g.fire(ctx, start, offsets(n, p.Rates[0], p.Poisson, rng), make([]sample, n)) // unrecorded, not awaited
		start = start.Add(p.Warmup)
	}
	type pending struct {
		rate     float64
		start    time.Time
		samples  []sample
		complete <-chan bool
	}
	var fired []pending
	for _, rate := range p.Rates {
		samples := make([]sample, p.RequestsPerStep)
		complete := g.fire(ctx, start, offsets(p.RequestsPerStep, rate, p.Poisson, rng), samples)
		fired = append(fired, pending{rate, start, samples, complete})
		start = start.Add(time.Duration(stepSeconds(p, rate) * float64(time.Second)))
		if ctx.Err() != nil {
			break
		}
	}
	run := Run{SchemaVersion: schemaVersion, RunID: runID, SloClass: sloClass, Context: runContext, Steps: []Step{}}
	for i, f := range fired {
		if !<-f.complete { // cut short by MaxDuration: drop it and what follows
			break
		}
		run.Steps = append(run.Steps, stepResult(p, p.FirstIndex+i, f.rate, f.start, f.samples))
		run.requests = append(run.requests, f.samples...)
	}
	run.Partial = len(run.Steps) < len(p.Rates)
	return run
}

// writeSamples writes one CSV line per request: its intended send time (Unix ms), its latency
// from then (ms) and whether it was answered 2xx — the raw data of latency-over-time plots.
func writeSamples(r Run, path string) error {
	var b bytes.Buffer
	b.WriteString("due_unix_ms,latency_ms,ok\n")
	for _, s := range r.requests {
		if s.end.IsZero() {
			continue
		}
		due := s.end.Add(-s.latency)
		ok := 0
		if s.ok {
			ok = 1
		}
		fmt.Fprintf(&b, "%d,%.3f,%d\n", due.UnixMilli(), float64(s.latency.Microseconds())/1000, ok)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// stepResult summarises one complete step like the Gatling writer: achieved rate = 2xx answers
// over the planned duration or, if longer, first intended send to last answer.
func stepResult(p Plan, index int, rate float64, start time.Time, samples []sample) Step {
	all := make([]time.Duration, 0, len(samples))
	perTenant := make([][]time.Duration, len(p.Tenants))
	tenantErrors := make([]int, len(p.Tenants))
	errors, ok := 0, 0
	last := start
	for _, s := range samples {
		all = append(all, s.latency)
		perTenant[s.tenant] = append(perTenant[s.tenant], s.latency)
		if s.ok {
			ok++
		} else {
			errors++
			tenantErrors[s.tenant]++
		}
		if s.end.After(last) {
			last = s.end
		}
	}
	span := max(stepSeconds(p, rate), last.Sub(start).Seconds())
	tenants := make(map[string]Summary, len(p.Tenants))
	for t, lat := range perTenant {
		tenants[p.Tenants[t]] = summarize(lat, tenantErrors[t])
	}
	return Step{
		Index: index, OfferedRps: round3(rate), AchievedRps: round3(float64(ok) / span),
		DurationSeconds: round3(stepSeconds(p, rate)), Total: summarize(all, errors), Tenants: tenants,
	}
}
