// Command openloop is Isolato's independent open-loop load generator: the referee of the
// Gatling calibrations (docs/gatling.md, "Open-loop cross-check"). Requests leave at a fixed
// rate per step, evenly spaced or Poisson, whether or not earlier ones were answered, and each
// latency counts from the request's intended send time. It writes the calibration run format
// of docs/calibration-format.md, as the Gatling simulations do. It sends either a ramp given by
// flags, or with -plan any simulation's load plan as the Gatling module exports it (every class
// concurrently, one <class>.json each in -out-dir).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "openloop: %v\n", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("openloop", flag.ContinueOnError)
	baseURL := fs.String("url", "", "base URL of the class Service (required)")
	sloClass := fs.String("class", "", "SLO class the run calibrates (required)")
	tenants := fs.String("tenants", "", "tenant ids, comma-separated, served in turn (required)")
	rates := fs.String("rates", "", "offered req/s of each step, comma-separated (or -start/-step/-steps)")
	startRate := fs.Float64("start", 0, "rate of the first step")
	rateStep := fs.Float64("step", 0, "rate increment per step (default -start)")
	steps := fs.Int("steps", 10, "number of steps with -start")
	maxRate := fs.Float64("max", 0, "last rate with -start (instead of -steps)")
	firstIndex := fs.Int("first-index", 0, "index of the first step")
	requests := fs.Int("requests", 1600, "requests per step")
	arrivals := fs.String("arrivals", "even", "even or poisson")
	seed := fs.Uint64("seed", 1, "seed of the Poisson arrivals")
	connections := fs.String("connections", "reuse", "reuse (keep-alive) or per-request (a new connection, so a new pod, for each request)")
	body := fs.String("body", "{}", "request body (JSON; not sent with GET or HEAD)")
	method := fs.String("method", "POST", "request method")
	path := fs.String("path", DefaultPath, "request path, {tenant} replaced by the tenant id")
	tenantHeader := fs.String("tenant-header", "", "also send the tenant id in this header (a class with tenantKey header:<name>)")
	requestMix := fs.String("request", "", "the request mix as JSON, as a plan's \"requests\" (endpoints, tenantHeader, cycle): instead of -method, -path, -tenant-header")
	warmup := fs.Duration("warmup", 5*time.Second, "unrecorded requests at the first rate before step 0")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout (an error)")
	maxInFlight := fs.Int("max-inflight", 2000, "concurrent requests at most (later ones wait and count the wait)")
	maxDuration := fs.Duration("max-duration", 0, "bound of the whole run (default: planned + 30 s)")
	runID := fs.String("run-id", "", "runId (default openloop-<class>-<UTC time>)")
	label := fs.String("label", "alone", "context label")
	ctxPairs := fs.String("context", "", "more context: key=value,... (numbers kept as numbers)")
	out := fs.String("out", "", "file the calibration JSON is written to (required; - : one line on stdout, prefixed "+runLinePrefix+")")
	selfStats := fs.Bool("self-stats", false, "add the generator's own CPU, the node's CPU busy and its CPU model (\"generator\")")
	samplesOut := fs.String("samples", "", "also write every request (intended send time, latency, 2xx) to this CSV file")
	planFile := fs.String("plan", "", "a simulation's load plan (Gatling's PlanExport) instead of the ramp flags")
	outDir := fs.String("out-dir", "", "with -plan: directory of the calibration JSON, one <class>.json per class")
	if err := fs.Parse(args); err != nil {
		return err
	}
	request, err := requestOf(fs, *requestMix, strings.ToUpper(*method), *path, *tenantHeader)
	if err != nil {
		return err
	}
	if *planFile != "" {
		var rampFlags []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "url", "class", "tenants", "rates", "start", "step", "steps", "max", "first-index",
				"requests", "body", "warmup", "label", "context", "out", "samples":
				rampFlags = append(rampFlags, "-"+f.Name)
			}
		})
		switch {
		case len(rampFlags) > 0:
			return fmt.Errorf("-plan gives the load; %s belong to a ramp without -plan", strings.Join(rampFlags, " "))
		case !strings.HasPrefix(*path, "/"):
			return fmt.Errorf("-path must start with /, not %q", *path)
		case *outDir == "":
			return errors.New("-plan needs -out-dir")
		case *arrivals != "even" && *arrivals != "poisson":
			return fmt.Errorf("-arrivals must be even or poisson, not %q", *arrivals)
		case *connections != "reuse" && *connections != "per-request":
			return fmt.Errorf("-connections must be reuse or per-request, not %q", *connections)
		case *timeout <= 0 || *maxInFlight < 0 || *maxDuration < 0:
			return errors.New("-max-inflight, -max-duration must be >= 0 and -timeout > 0")
		}
		return runPlan(*planFile, *outDir, *runID, PlanOptions{Poisson: *arrivals == "poisson", Seed: *seed,
			Timeout: *timeout, MaxInFlight: *maxInFlight, MaxDuration: *maxDuration,
			ConnectionPerRequest: *connections == "per-request",
			Request:              request, Progress: os.Stderr})
	}
	plan := Plan{BaseURL: strings.TrimRight(*baseURL, "/"), Body: *body, FirstIndex: *firstIndex,
		RequestsPerStep: *requests, Seed: *seed, Warmup: *warmup, Timeout: *timeout, MaxInFlight: *maxInFlight,
		Request: request, Progress: os.Stderr}
	if plan.Rates, err = stepRates(*rates, *startRate, *rateStep, *steps, *maxRate); err != nil {
		return err
	}
	switch {
	case *baseURL == "" || !strings.HasPrefix(*baseURL, "http"):
		return fmt.Errorf("-url must be an http(s) URL, not %q", *baseURL)
	case strings.TrimSpace(*sloClass) == "":
		return errors.New("-class is required")
	case *out == "":
		return errors.New("-out is required")
	case !strings.HasPrefix(*path, "/"):
		return fmt.Errorf("-path must start with /, not %q", *path)
	case *requests < 1:
		return fmt.Errorf("-requests must be >= 1, not %d", *requests)
	case *arrivals != "even" && *arrivals != "poisson":
		return fmt.Errorf("-arrivals must be even or poisson, not %q", *arrivals)
	case *connections != "reuse" && *connections != "per-request":
		return fmt.Errorf("-connections must be reuse or per-request, not %q", *connections)
	case *warmup < 0 || *timeout <= 0 || *maxInFlight < 0 || *maxDuration < 0:
		return errors.New("-warmup, -max-inflight, -max-duration must be >= 0 and -timeout > 0")
	}
	plan.Poisson = *arrivals == "poisson"
	plan.ConnectionPerRequest = *connections == "per-request"
	for _, t := range strings.Split(*tenants, ",") {
		if t = strings.TrimSpace(t); t != "" {
			plan.Tenants = append(plan.Tenants, t)
		}
	}
	if len(plan.Tenants) == 0 {
		return errors.New("-tenants: at least one tenant id is required")
	}
	runContext, err := parseContext(*label, *ctxPairs)
	if err != nil {
		return err
	}
	plan.MaxDuration = *maxDuration
	if plan.MaxDuration == 0 {
		plan.MaxDuration = plannedDuration(plan) + 30*time.Second
	}
	if *runID == "" {
		*runID = "openloop-" + *sloClass + "-" + time.Now().UTC().Format("20060102T150405Z")
	}
	fmt.Fprintf(os.Stderr, "openloop: %s, class %s at %s: %d steps of %d requests (%s arrivals, connections %s), planned %s, bounded %s\n",
		*runID, *sloClass, plan.BaseURL, len(plan.Rates), plan.RequestsPerStep, *arrivals, *connections,
		plannedDuration(plan).Round(time.Second), plan.MaxDuration)
	stats := startSelfStats()
	result := Execute(plan, *runID, *sloClass, runContext)
	reportFailures(result)
	if *selfStats {
		s := stats()
		result.Generator = &s
	}
	if len(result.Steps) == 0 {
		return fmt.Errorf("no step completed within %s", plan.MaxDuration)
	}
	if *samplesOut != "" {
		if err := writeSamples(result, *samplesOut); err != nil {
			return err
		}
	}
	return writeRun(result, *out)
}

// requestOf is the -request mix, or the one endpoint of -method and -path; not both.
func requestOf(fs *flag.FlagSet, mixJSON, method, path, tenantHeader string) (Request, error) {
	if mixJSON == "" {
		return single(method, path, tenantHeader), nil
	}
	var both []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "method" || f.Name == "path" || f.Name == "tenant-header" {
			both = append(both, "-"+f.Name)
		}
	})
	if len(both) > 0 {
		return Request{}, fmt.Errorf("-request gives the requests; drop %s", strings.Join(both, " "))
	}
	var r Request
	dec := json.NewDecoder(strings.NewReader(mixJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("-request: %w", err)
	}
	if len(r.Endpoints) == 0 {
		return r, errors.New("-request: no endpoints")
	}
	if err := r.check(); err != nil {
		return r, fmt.Errorf("-request: %w", err)
	}
	return r, nil
}

// reportFailures tells on stderr why the run's failed requests failed.
func reportFailures(r Run) {
	for _, line := range failureReport(r.requests) {
		fmt.Fprintf(os.Stderr, "openloop: %s: %s\n", r.SloClass, line)
	}
}

// runLinePrefix marks the run on stdout (-out -): a Job's log also holds the progress lines.
const runLinePrefix = "ISOLATO-RUN "

// writeRunLine writes the run as one compact JSON line after runLinePrefix.
func writeRunLine(r Run, w io.Writer) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", runLinePrefix, data)
	return err
}

// runPlan sends a plan file's classes concurrently and writes <outDir>/<class>.json for each.
func runPlan(path, outDir, runID string, o PlanOptions) error {
	p, err := readPlan(path)
	if err != nil {
		return err
	}
	if runID == "" {
		runID = p.RunID
	}
	if runID == "" {
		runID = "openloop-" + p.Simulation + "-" + time.Now().UTC().Format("20060102T150405Z")
	}
	if o.MaxDuration == 0 {
		o.MaxDuration = plannedEnd(p) + 30*time.Second
	}
	fmt.Fprintf(os.Stderr, "openloop: %s, plan of %s: %d classes from one start, planned %s, bounded %s\n",
		runID, p.Simulation, len(p.Classes), plannedEnd(p).Round(time.Second), o.MaxDuration)
	var incomplete []string
	for _, r := range ExecutePlan(p, runID, o) {
		reportFailures(r)
		if len(r.Steps) == 0 {
			incomplete = append(incomplete, r.SloClass)
			continue
		}
		if err := writeRun(r, filepath.Join(outDir, r.SloClass+".json")); err != nil {
			return err
		}
	}
	if len(incomplete) > 0 {
		return fmt.Errorf("no step of %s completed within %s", strings.Join(incomplete, ", "), o.MaxDuration)
	}
	return nil
}

// stepRates is the explicit list, or start + i*step for i < steps (or up to max).
func stepRates(list string, start, step float64, steps int, maxRate float64) ([]float64, error) {
	if list != "" {
		var out []float64
		for _, f := range strings.Split(list, ",") {
			r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || r <= 0 {
				return nil, fmt.Errorf("-rates: %q is not a rate > 0", f)
			}
			out = append(out, r)
		}
		return out, nil
	}
	if start <= 0 {
		return nil, errors.New("-rates or -start (> 0) is required")
	}
	if step == 0 {
		step = start
	}
	if step < 0 {
		return nil, fmt.Errorf("-step must be > 0, not %g", step)
	}
	if maxRate > 0 {
		steps = int((maxRate-start)/step+1e-9) + 1
	}
	if steps < 1 {
		return nil, fmt.Errorf("-steps must be >= 1 (or -max >= -start), not %d", steps)
	}
	out := make([]float64, steps)
	for i := range out {
		out[i] = start + float64(i)*step
	}
	return out, nil
}

func plannedDuration(p Plan) time.Duration {
	total := p.Warmup
	for _, r := range p.Rates {
		total += time.Duration(stepSeconds(p, r) * float64(time.Second))
	}
	return total
}

var number = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// parseContext reads Gatling's `context` syntax: label first, then key=value pairs; values that
// are numbers stay numbers (replicas=1 is the integer the format requires).
func parseContext(label, pairs string) (map[string]any, error) {
	if strings.TrimSpace(label) == "" {
		return nil, errors.New("-label must not be blank")
	}
	ctx := map[string]any{"label": label}
	for _, kv := range strings.Split(pairs, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("-context: %q is not key=value", kv)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if number.MatchString(v) {
			n, _ := strconv.ParseFloat(v, 64)
			if n == float64(int64(n)) && !strings.Contains(v, ".") {
				ctx[k] = int64(n)
			} else {
				ctx[k] = n
			}
		} else {
			ctx[k] = v
		}
	}
	if _, ok := ctx["replicas"]; !ok {
		ctx["replicas"] = int64(1)
	}
	return ctx, nil
}

// writeRun writes the run atomically (temp file + rename): a reader never sees half a file.
func writeRun(r Run, path string) error {
	if path == "-" {
		return writeRunLine(r, os.Stdout)
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".calibration-*.json.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
