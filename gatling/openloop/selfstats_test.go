package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestParseCPUTimesCountsIdleAndIowaitAsIdle(t *testing.T) {
	got, ok := parseCPUTimes("cpu  100 0 50 800 50 0 0 0 30 0\ncpu0 1 2 3 4 5\n")
	if !ok || got.busy != 150 || got.total != 1000 {
		t.Fatalf("got %+v %v, want busy 150 of 1000", got, ok)
	}
	if _, ok := parseCPUTimes("intr 1 2 3"); ok {
		t.Fatal("a file without the cpu line must not parse")
	}
}

func TestParseCPUInfoTakesTheModelAndTheMeanClock(t *testing.T) {
	info := "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) 8375C\ncpu MHz\t\t: 2900.000\n\n" +
		"processor\t: 1\nmodel name\t: Intel(R) Xeon(R) 8375C\ncpu MHz\t\t: 3100.000\n"
	model, mhz := parseCPUInfo(bufio.NewScanner(strings.NewReader(info)))
	if model != "Intel(R) Xeon(R) 8375C" || mhz == nil || *mhz != 3000 {
		t.Fatalf("got %q %v", model, mhz)
	}
	if _, mhz := parseCPUInfo(bufio.NewScanner(strings.NewReader("model name: x\n"))); mhz != nil {
		t.Fatal("no clock listed must be nil, not 0")
	}
}

func TestSelfStatsMeasureThisProcess(t *testing.T) {
	done := startSelfStats()
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i % 7
	}
	s := done()
	if s.CPUSeconds <= 0 || s.WallSeconds <= 0 || s.CPUPct <= 0 || x == 0 {
		t.Fatalf("no CPU measured: %+v", s)
	}
}

func TestRunOnStdoutIsOnePrefixedLine(t *testing.T) {
	var b bytes.Buffer
	r := Run{SchemaVersion: 1, RunID: "r", SloClass: "c", Context: map[string]any{"label": "x", "replicas": 1},
		Generator: &SelfStats{CPUPct: 5}}
	if err := writeRunLine(r, &b); err != nil {
		t.Fatal(err)
	}
	line := b.String()
	if !strings.HasPrefix(line, runLinePrefix) || strings.Count(line, "\n") != 1 {
		t.Fatalf("not one prefixed line: %q", line)
	}
	var back map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, runLinePrefix)), &back); err != nil {
		t.Fatal(err)
	}
	if back["generator"].(map[string]any)["cpuPct"].(float64) != 5 {
		t.Fatalf("generator stats lost: %v", back)
	}
}
