package main

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// SelfStats is what -self-stats adds to a run as "generator": the generator's own CPU over the
// run (a generator starved of CPU sends late and measures its own queueing, not the service's),
// how busy the node was, and which CPU it has. An in-cluster calibration runs the generator on
// the measured pod's node, so these describe the context the cut-off was measured in.
type SelfStats struct {
	CPUPct      float64  `json:"cpuPct"`
	CPUSeconds  float64  `json:"cpuSeconds"`
	WallSeconds float64  `json:"wallSeconds"`
	NodeBusyPct *float64 `json:"nodeBusyPct,omitempty"`
	CPUModel    string   `json:"cpuModel,omitempty"`
	CPUMhz      *float64 `json:"cpuMhz,omitempty"`
	Node        string   `json:"node,omitempty"`
}

// cpuTimes is /proc/stat's first line: busy and total jiffies of all CPUs.
type cpuTimes struct{ busy, total float64 }

// startSelfStats samples now; the returned function samples again and reports the difference.
func startSelfStats() func() SelfStats {
	start := time.Now()
	cpu0 := processCPU()
	node0, ok0 := readCPUTimes("/proc/stat")
	return func() SelfStats {
		wall := time.Since(start).Seconds()
		used := processCPU() - cpu0
		s := SelfStats{CPUSeconds: round3(used), WallSeconds: round3(wall), Node: os.Getenv("NODE_NAME")}
		if wall > 0 {
			s.CPUPct = round3(100 * used / wall)
		}
		if node1, ok1 := readCPUTimes("/proc/stat"); ok0 && ok1 && node1.total > node0.total {
			busy := round3(100 * (node1.busy - node0.busy) / (node1.total - node0.total))
			s.NodeBusyPct = &busy
		}
		if f, err := os.Open("/proc/cpuinfo"); err == nil {
			defer f.Close()
			s.CPUModel, s.CPUMhz = parseCPUInfo(bufio.NewScanner(f))
		}
		return s
	}
}

// processCPU is this process's user + system CPU time in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func readCPUTimes(path string) (cpuTimes, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return cpuTimes{}, false
	}
	return parseCPUTimes(string(data))
}

// parseCPUTimes reads the aggregate "cpu" line: idle and iowait are idle, the rest busy (guest
// time is already inside user and nice).
func parseCPUTimes(stat string) (cpuTimes, bool) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return cpuTimes{}, false
	}
	var t cpuTimes
	for i, v := range f[1:] {
		if i >= 8 { // guest and guest_nice are counted in user and nice already
			break
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return cpuTimes{}, false
		}
		t.total += n
		if i != 3 && i != 4 { // idle, iowait
			t.busy += n
		}
	}
	return t, true
}

// parseCPUInfo returns the first "model name" and the mean "cpu MHz" over the cores listed.
func parseCPUInfo(sc *bufio.Scanner) (string, *float64) {
	model, sum, n := "", 0.0, 0
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "model name":
			if model == "" {
				model = v
			}
		case "cpu MHz":
			if mhz, err := strconv.ParseFloat(v, 64); err == nil {
				sum += mhz
				n++
			}
		}
	}
	if n == 0 {
		return model, nil
	}
	mean := math.Round(sum/float64(n)*10) / 10
	return model, &mean
}
