package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"
)

// PlanFile is a simulation's load plan as the Gatling module exports it
// (dev.isolato.gatling.plan.PlanExport; docs/gatling.md, "Open-loop cross-check"): the referee
// sends exactly what the simulation sends, without deriving any of it.
type PlanFile struct {
	Simulation    string      `json:"simulation"`
	RunID         string      `json:"runId"`
	Body          string      `json:"body"`
	WarmupSeconds float64     `json:"warmupSeconds"`
	Requests      *Request    `json:"requests"` // the simulation's request mix; absent in older plans
	Classes       []ClassPlan `json:"classes"`
}

// ClassPlan is one class's part of a plan: its steps run back to back from the common start.
type ClassPlan struct {
	SloClass       string         `json:"sloClass"`
	BaseURL        string         `json:"baseUrl"`
	Context        map[string]any `json:"context"`
	WarmupRequests int            `json:"warmupRequests"`
	Steps          []ClassStep    `json:"steps"`
}

// ClassStep is one step of a class: each tenant sends exactly Count requests, in Order (an
// index into Tenants per request: the simulation's own order, TenantOrder of the Gatling module).
type ClassStep struct {
	Index           int          `json:"index"`
	OffsetSeconds   float64      `json:"offsetSeconds"`
	DurationSeconds float64      `json:"durationSeconds"`
	OfferedRps      float64      `json:"offeredRps"`
	Tenants         []TenantLoad `json:"tenants"`
	Order           []int        `json:"order"`
}

// TenantLoad is a tenant's rate and exact request count in one step.
type TenantLoad struct {
	TenantID string  `json:"tenantId"`
	Rps      float64 `json:"rps"`
	Count    int     `json:"count"`
}

// readPlan reads and checks a plan file; numbers in contexts stay as written (replicas: 1).
func readPlan(path string) (PlanFile, error) {
	var p PlanFile
	raw, err := os.ReadFile(path)
	if err != nil {
		return p, err
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, fmt.Errorf("plan %s: %w", path, err)
	}
	if err := p.check(); err != nil {
		return p, fmt.Errorf("plan %s: %w", path, err)
	}
	return p, nil
}

func (p PlanFile) check() error {
	if len(p.Classes) == 0 {
		return errors.New("no classes")
	}
	if p.WarmupSeconds < 0 {
		return fmt.Errorf("warmupSeconds %g < 0", p.WarmupSeconds)
	}
	if p.Requests != nil {
		if err := p.Requests.check(); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, c := range p.Classes {
		switch {
		case strings.TrimSpace(c.SloClass) == "" || seen[c.SloClass]:
			return fmt.Errorf("class %q is blank or repeated", c.SloClass)
		case !strings.HasPrefix(c.BaseURL, "http"):
			return fmt.Errorf("class %s: baseUrl must be an http(s) URL, not %q", c.SloClass, c.BaseURL)
		case len(c.Steps) == 0:
			return fmt.Errorf("class %s has no steps", c.SloClass)
		}
		seen[c.SloClass] = true
		for _, st := range c.Steps {
			if st.DurationSeconds <= 0 || st.OffsetSeconds < 0 || len(st.Tenants) == 0 {
				return fmt.Errorf("class %s step %d: needs duration > 0, offset >= 0 and tenants", c.SloClass, st.Index)
			}
			sent := make([]int, len(st.Tenants))
			for _, o := range st.Order {
				if o < 0 || o >= len(st.Tenants) {
					return fmt.Errorf("class %s step %d: order names tenant %d of %d", c.SloClass, st.Index, o, len(st.Tenants))
				}
				sent[o]++
			}
			for i, t := range st.Tenants {
				if t.TenantID == "" || t.Count < 1 {
					return fmt.Errorf("class %s step %d: tenant %q needs an id and count >= 1", c.SloClass, st.Index, t.TenantID)
				}
				if sent[i] != t.Count {
					return fmt.Errorf("class %s step %d: order sends tenant %s %d requests, its count is %d", c.SloClass, st.Index, t.TenantID, sent[i], t.Count)
				}
			}
		}
	}
	return nil
}

// classSchedule is a plan's class as one stream per step at the step's total rate, each
// request's tenant by the step's order; the warm-up goes to the first step's first tenant, as in
// the simulation.
func classSchedule(p PlanFile, c ClassPlan, poisson bool, rng *rand.Rand) schedule {
	s := schedule{baseURL: strings.TrimRight(c.BaseURL, "/")}
	index := map[string]int{}
	tenant := func(id string) int {
		if i, ok := index[id]; ok {
			return i
		}
		index[id] = len(s.tenants)
		s.tenants = append(s.tenants, id)
		return index[id]
	}
	warmup := time.Duration(p.WarmupSeconds * float64(time.Second))
	if n := c.WarmupRequests; n > 0 && warmup > 0 {
		first := tenant(c.Steps[0].Tenants[0].TenantID)
		s.warmup = offsets(n, float64(n)/p.WarmupSeconds, poisson, rng)
		s.warmTo = make([]int, n)
		for i := range s.warmTo {
			s.warmTo[i] = first
		}
	}
	for _, st := range c.Steps {
		ids := make([]int, len(st.Tenants))
		for i, t := range st.Tenants {
			ids[i] = tenant(t.TenantID)
		}
		order := make([]int, len(st.Order))
		for i, o := range st.Order {
			order[i] = ids[o]
		}
		s.steps = append(s.steps, stepSchedule{
			index: st.Index, offered: st.OfferedRps, seconds: st.DurationSeconds,
			offset: warmup + time.Duration(st.OffsetSeconds*float64(time.Second)),
			offs:   offsets(len(order), float64(len(order))/st.DurationSeconds, poisson, rng),
			order:  order,
		})
	}
	return s
}

// plannedEnd is when the plan's last step ends, warm-up included.
func plannedEnd(p PlanFile) time.Duration {
	end := 0.0
	for _, c := range p.Classes {
		for _, st := range c.Steps {
			end = max(end, st.OffsetSeconds+st.DurationSeconds)
		}
	}
	return time.Duration((p.WarmupSeconds + end) * float64(time.Second))
}

// PlanOptions are how a plan is sent (the flags that also apply to ramps).
type PlanOptions struct {
	Poisson     bool
	Seed        uint64
	Timeout     time.Duration
	MaxInFlight int
	MaxDuration time.Duration
	// ConnectionPerRequest: a new connection (so a new draw of the pod) for each request
	ConnectionPerRequest bool
	Request              Request   // the requests of every class when the plan does not give them
	Progress             io.Writer // a line per class and step as it ends (nil: none)
}

// ExecutePlan sends every class of the plan concurrently from one common start and returns one
// run per class, in the plan's order.
func ExecutePlan(p PlanFile, runID string, o PlanOptions) []Run {
	ctx, cancel := context.WithTimeout(context.Background(), o.MaxDuration)
	defer cancel()
	g := newGenerator(p.Body, o.Timeout, o.MaxInFlight, o.ConnectionPerRequest)
	g.request = o.Request
	g.progress = o.Progress
	if p.Requests != nil {
		g.request = *p.Requests
	}
	schedules := make([]schedule, len(p.Classes))
	for i, c := range p.Classes {
		seed := o.Seed + uint64(i)
		schedules[i] = classSchedule(p, c, o.Poisson, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
		schedules[i].label = c.SloClass
	}
	runs := make([]Run, len(p.Classes))
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range p.Classes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			steps, requests := g.run(ctx, &schedules[i], start)
			runs[i] = Run{SchemaVersion: schemaVersion, RunID: runID, SloClass: c.SloClass, Context: c.Context,
				Steps: steps, Partial: len(steps) < len(c.Steps), requests: requests}
		}()
	}
	wg.Wait()
	return runs
}
