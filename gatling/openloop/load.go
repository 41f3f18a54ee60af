package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Plan is what one ramp sends (the flags without -plan): steps back to back, each
// RequestsPerStep requests at its rate, spread over the tenants in turn (POST {BaseURL}/v1/tenants/{tenant}/requests).
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
	Request              Request   // the endpoints and tenant header of the requests
	Progress             io.Writer // a line per step as it ends (nil: none)
}

// sample is one request: its latency from its INTENDED send time, so a request the generator
// could not send on time (late timer, full connection pool, MaxInFlight) still counts the
// delay: no coordinated omission.
type sample struct {
	tenant  int
	latency time.Duration
	ok      bool
	end     time.Time
	cause   string // why it failed: "HTTP <code>: <body start>" or the transport's error
}

// offsets are the intended send times of n requests at rate r from the step's start. Poisson
// arrivals are a Poisson process conditioned on n arrivals in the step's n/r seconds: n sorted
// uniform times, drawn as normalised sums of n+1 exponential gaps. Unconditioned gaps would let
// the step's span vary by about 1/sqrt(n) (10 % at 100 requests), and the achieved-rate rule
// (>= 95 % of offered) would then fail steps by chance, not by load.
func offsets(n int, rate float64, poisson bool, rng *rand.Rand) []time.Duration {
	out := make([]time.Duration, n)
	seconds := float64(n) / rate
	if !poisson {
		for i := range out {
			out[i] = time.Duration(float64(i) / rate * float64(time.Second))
		}
		return out
	}
	sums := make([]float64, n+1)
	total := 0.0
	for i := range sums {
		total += rng.ExpFloat64()
		sums[i] = total
	}
	for i := range out {
		out[i] = time.Duration(sums[i] / total * seconds * float64(time.Second))
	}
	return out
}

// stepSeconds is the step's planned length: requests / rate, as in Gatling's ramps.
func stepSeconds(p Plan, rate float64) float64 { return float64(p.RequestsPerStep) / rate }

// schedule is what one class is sent: where, which tenants, the unrecorded warm-up and the
// steps, every request with its intended time and tenant. A ramp (Plan) and a class of a plan
// file (ClassPlan) both become one; run sends it.
type schedule struct {
	label   string // names the ramp in progress lines
	baseURL string
	tenants []string
	warmup  []time.Duration // intended times of the warm-up requests, from the run's start
	warmTo  []int           // their tenants (indexes into tenants)
	steps   []stepSchedule
}

type stepSchedule struct {
	index   int
	offered float64       // req/s, the class's total
	seconds float64       // planned length
	offset  time.Duration // from the run's start (after the warm-up)
	offs    []time.Duration
	order   []int // request i goes to tenants[order[i]]
}

// Request is what each request is: saas-bench's route by default; a provider's service
// (docs/bring-your-service.md) is sent its own endpoints, in a weighted mix, the tenant in the
// path ({tenant}) or in a header, as the class's tenantKey says. A plan carries the mix as the
// Gatling module exports it (RequestMix): every tenant's k-th request in a step is
// Endpoints[Cycle[k % len(Cycle)]].
type Request struct {
	Endpoints    []Endpoint `json:"endpoints"`
	TenantHeader string     `json:"tenantHeader"` // when set, this header carries the tenant id
	Cycle        []int      `json:"cycle"`        // indexes into Endpoints; empty: the first
}

// Endpoint is one request shape of a mix.
type Endpoint struct {
	Method string `json:"method"` // default POST
	Path   string `json:"path"`   // with {tenant} for the tenant id; default /v1/tenants/{tenant}/requests
	Weight int    `json:"weight"` // its share of the cycle (informative: the cycle is what is sent)
}

// DefaultPath is saas-bench's per-tenant route.
const DefaultPath = "/v1/tenants/{tenant}/requests"

// single is a mix of one endpoint (the flags -method, -path).
func single(method, path, tenantHeader string) Request {
	return Request{Endpoints: []Endpoint{{Method: method, Path: path, Weight: 1}}, TenantHeader: tenantHeader}
}

// pick is the endpoint of a tenant's nth request (0-based) in a step.
func (r Request) pick(nth int) Endpoint {
	if len(r.Endpoints) == 0 {
		return Endpoint{}
	}
	if len(r.Cycle) == 0 {
		return r.Endpoints[0]
	}
	return r.Endpoints[r.Cycle[nth%len(r.Cycle)]]
}

// check refuses a mix whose cycle points outside its endpoints or whose paths are not absolute.
func (r Request) check() error {
	for _, e := range r.Endpoints {
		if e.Path != "" && !strings.HasPrefix(e.Path, "/") {
			return fmt.Errorf("request path must start with /, not %q", e.Path)
		}
	}
	for _, c := range r.Cycle {
		if c < 0 || c >= len(r.Endpoints) {
			return fmt.Errorf("request cycle index %d is not one of the %d endpoints", c, len(r.Endpoints))
		}
	}
	return nil
}

func (e Endpoint) url(base, tenant string) string {
	path := e.Path
	if path == "" {
		path = DefaultPath
	}
	return base + strings.ReplaceAll(path, "{tenant}", tenant)
}

// clientIdle is how long an idle connection is kept for reuse: under the servers' keep-alive
// timeouts (isolato-gate and saas-bench 15 s), so that a request is never sent on a connection
// the server is closing — an instrument's error, not the service's.
const clientIdle = 4 * time.Second

// causeBodyBytes of a failed answer's body name its cause (a problem+json's title and detail).
const causeBodyBytes = 160

type generator struct {
	body     string
	client   *http.Client
	slots    chan struct{}
	request  Request
	progress io.Writer // progressLine per step as it ends; nil: none
}

func newGenerator(body string, timeout time.Duration, maxInFlight int, connectionPerRequest bool) *generator {
	transport := &http.Transport{MaxIdleConns: 0, MaxIdleConnsPerHost: 1024, IdleConnTimeout: clientIdle,
		DisableKeepAlives: connectionPerRequest}
	var slots chan struct{}
	if maxInFlight > 0 {
		slots = make(chan struct{}, maxInFlight)
	}
	return &generator{body: body, client: &http.Client{Transport: transport, Timeout: timeout}, slots: slots}
}

// send issues one request due at `due` and returns its sample (latency from `due`).
func (g *generator) send(ctx context.Context, endpoint Endpoint, base, tenantName string, tenant int, due time.Time) sample {
	if g.slots != nil {
		select {
		case g.slots <- struct{}{}:
			defer func() { <-g.slots }()
		case <-ctx.Done():
			return sample{tenant: tenant, latency: time.Since(due), end: time.Now(), cause: "run bound reached before a slot was free"}
		}
	}
	ok, cause := false, ""
	method := endpoint.Method
	if method == "" {
		method = http.MethodPost
	}
	var payload io.Reader
	if method != http.MethodGet && method != http.MethodHead {
		payload = bytes.NewBufferString(g.body)
	}
	req, err := http.NewRequestWithContext(ctx, method, endpoint.url(base, tenantName), payload)
	if err == nil {
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if g.request.TenantHeader != "" {
			req.Header.Set(g.request.TenantHeader, tenantName)
		}
		var resp *http.Response
		if resp, err = g.client.Do(req); err == nil {
			ok = resp.StatusCode >= 200 && resp.StatusCode < 300
			if !ok {
				head, _ := io.ReadAll(io.LimitReader(resp.Body, causeBodyBytes))
				cause = fmt.Sprintf("HTTP %d: %s", resp.StatusCode, strings.Join(strings.Fields(string(head)), " "))
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	}
	if err != nil {
		cause = err.Error()
		var u *url.Error // its URL names the tenant: one cause per tenant would hide a common one
		if errors.As(err, &u) {
			cause = u.Err.Error()
		}
	}
	end := time.Now()
	return sample{tenant: tenant, latency: end.Sub(due), ok: ok, end: end, cause: cause}
}

// fire sends request i at start+offs[i] to tenant order[i] without waiting for answers. The
// returned channel yields, once all have ended, whether every request was sent and answered
// (or failed) before the context ended.
func (g *generator) fire(ctx context.Context, s *schedule, start time.Time, offs []time.Duration, order []int, out []sample) <-chan bool {
	var wg sync.WaitGroup
	sent := 0
	seen := make([]int, len(s.tenants)) // each tenant's requests so far: its place in the mix
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
		endpoint := g.request.pick(seen[order[i]])
		seen[order[i]]++
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = g.send(ctx, endpoint, s.baseURL, s.tenants[order[i]], order[i], due)
		}()
	}
	complete := make(chan bool, 1)
	go func() {
		wg.Wait()
		complete <- sent == len(offs) && ctx.Err() == nil
	}()
	return complete
}

// run sends the warm-up and the steps from `start`; a step is kept only if all its requests
// finished before the context ended. The steps kept and their requests.
func (g *generator) run(ctx context.Context, s *schedule, start time.Time) ([]Step, []sample) {
	if len(s.warmup) > 0 {
		g.fire(ctx, s, start, s.warmup, s.warmTo, make([]sample, len(s.warmup))) // unrecorded, not awaited
	}
	type pending struct {
		step     *stepSchedule
		samples  []sample
		complete <-chan bool
	}
	var fired []pending
	for i := range s.steps {
		st := &s.steps[i]
		samples := make([]sample, len(st.offs))
		complete := g.fire(ctx, s, start.Add(st.offset), st.offs, st.order, samples)
		if g.progress != nil { // the steps overlap (fire returns once all are sent): told as each ends
			complete = g.tell(complete, st, i, s, start, samples)
		}
		fired = append(fired, pending{st, samples, complete})
		if ctx.Err() != nil {
			break
		}
	}
	steps := []Step{}
	var requests []sample
	for _, f := range fired {
		if !<-f.complete { // cut short by the bound: drop it and what follows
			break
		}
		steps = append(steps, stepResult(f.step, s.tenants, start.Add(f.step.offset), f.samples))
		requests = append(requests, f.samples...)
	}
	return steps, requests
}

// tell writes the step's progressLine once it has ended and passes its outcome on.
func (g *generator) tell(complete <-chan bool, st *stepSchedule, i int, s *schedule, start time.Time, samples []sample) <-chan bool {
	out := make(chan bool, 1)
	go func() {
		ok := <-complete
		if ok {
			fmt.Fprintln(g.progress, progressLine(s.label, i+1, len(s.steps),
				stepResult(st, s.tenants, start.Add(st.offset), samples)))
		}
		out <- ok
	}()
	return out
}

// progressLine is one ended step, for a person watching a ramp of minutes.
func progressLine(label string, n, of int, st Step) string {
	p95 := "-"
	if st.Total.P95 != nil {
		p95 = fmt.Sprintf("%.1f ms", *st.Total.P95)
	}
	return fmt.Sprintf("openloop: %s: step %d of %d: offered %.1f, achieved %.1f req/s, p95 %s, %d errors of %d",
		label, n, of, st.OfferedRps, st.AchievedRps, p95, st.Total.Errors, st.Total.Count)
}

// rampSchedule is a ramp's schedule: steps back to back after the warm-up, requests to the
// tenants in turn.
func rampSchedule(p Plan) schedule {
	rng := rand.New(rand.NewPCG(p.Seed, p.Seed^0x9e3779b97f4a7c15))
	s := schedule{baseURL: p.BaseURL, tenants: p.Tenants, label: p.BaseURL}
	if p.Warmup > 0 && len(p.Rates) > 0 {
		n := int(p.Rates[0] * p.Warmup.Seconds())
		s.warmup, s.warmTo = offsets(n, p.Rates[0], p.Poisson, rng), inTurn(n, len(p.Tenants))
	}
	offset := p.Warmup
	for i, rate := range p.Rates {
		s.steps = append(s.steps, stepSchedule{
			index: p.FirstIndex + i, offered: rate, seconds: stepSeconds(p, rate), offset: offset,
			offs:  offsets(p.RequestsPerStep, rate, p.Poisson, rng),
			order: inTurn(p.RequestsPerStep, len(p.Tenants)),
		})
		offset += time.Duration(stepSeconds(p, rate) * float64(time.Second))
	}
	return s
}

// inTurn is 0, 1, ..., t-1, 0, 1, ... (n of them).
func inTurn(n, t int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i % t
	}
	return out
}

// Execute runs one ramp's warm-up and steps; a step is kept only if all its requests finished
// before MaxDuration (Partial then tells that steps are missing).
func Execute(p Plan, runID, sloClass string, runContext map[string]any) Run {
	ctx, cancel := context.WithTimeout(context.Background(), p.MaxDuration)
	defer cancel()
	s := rampSchedule(p)
	s.label = sloClass
	g := newGenerator(p.Body, p.Timeout, p.MaxInFlight, p.ConnectionPerRequest)
	g.request = p.Request
	g.progress = p.Progress
	steps, requests := g.run(ctx, &s, time.Now())
	return Run{SchemaVersion: schemaVersion, RunID: runID, SloClass: sloClass, Context: runContext,
		Steps: steps, Partial: len(steps) < len(p.Rates), requests: requests}
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
func stepResult(st *stepSchedule, tenantIDs []string, start time.Time, samples []sample) Step {
	all := make([]time.Duration, 0, len(samples))
	perTenant := make([][]time.Duration, len(tenantIDs))
	tenantErrors := make([]int, len(tenantIDs))
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
	span := max(st.seconds, last.Sub(start).Seconds())
	tenants := make(map[string]Summary, len(tenantIDs))
	for t, lat := range perTenant {
		if len(lat) > 0 { // as the Gatling writer: a tenant without requests in the step is absent
			tenants[tenantIDs[t]] = summarize(lat, tenantErrors[t])
		}
	}
	return Step{
		Index: st.index, OfferedRps: round3(st.offered), AchievedRps: round3(float64(ok) / span),
		DurationSeconds: round3(st.seconds), Total: summarize(all, errors), Tenants: tenants,
	}
}

// failureReport names why requests failed, one line per cause with its count and first time
// (UTC): a run's errors are counted in the calibration format, their causes only here.
func failureReport(requests []sample) []string {
	type seen struct {
		count int
		first time.Time
	}
	causes := map[string]*seen{}
	var order []string
	for _, s := range requests {
		if s.ok || s.end.IsZero() {
			continue
		}
		c := causes[s.cause]
		if c == nil {
			c = &seen{first: s.end}
			causes[s.cause] = c
			order = append(order, s.cause)
		}
		c.count++
		if s.end.Before(c.first) {
			c.first = s.end
		}
	}
	lines := make([]string, 0, len(order))
	for _, cause := range order {
		c := causes[cause]
		lines = append(lines, fmt.Sprintf("%d failed (first at %s): %s", c.count, c.first.UTC().Format("15:04:05.000"), cause))
	}
	return lines
}
