package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// result is one benchmark line: its name (without the -GOMAXPROCS
// suffix) and its metrics by unit ("ns/op", "allocs/op", custom units).
type result struct {
	name    string
	metrics map[string]float64
}

// parseResults reads the benchmark lines of go test's output:
// "BenchmarkX-2  1000  1234 ns/op  0 B/op  0 allocs/op  5.0 ms/map".
func parseResults(out []byte) []result {
	var rs []result
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if r, ok := parseLine(sc.Text()); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

func parseLine(line string) (result, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return result{}, false
	}
	if _, err := strconv.ParseUint(f[1], 10, 64); err != nil {
		return result{}, false
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	r := result{name: name, metrics: map[string]float64{}}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return result{}, false
		}
		r.metrics[f[i+1]] = v
	}
	_, ok := r.metrics["ns/op"]
	return r, ok
}

// parsePerf reads the instruction count of perf stat -x, output
// ("123456,,instructions:u,..."); an unsupported counter is an error.
func parsePerf(out []byte) (uint64, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), ",")
		if len(f) >= 3 && strings.HasPrefix(f[2], "instructions") {
			n, err := strconv.ParseUint(f[0], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("perf counts no instructions here: %q", f[0])
			}
			return n, nil
		}
	}
	return 0, fmt.Errorf("no instruction count in perf's output")
}

// parseCallgrind reads "==pid== Collected : 123456" from callgrind's log.
func parseCallgrind(out []byte) (uint64, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if _, after, ok := strings.Cut(sc.Text(), "Collected : "); ok {
			return strconv.ParseUint(strings.TrimSpace(after), 10, 64)
		}
	}
	return 0, fmt.Errorf("no instruction count in callgrind's output")
}

// tableLine is a row with its results.
type tableLine struct {
	row     row
	results []result
	instr   string
}

// formatTable writes the Markdown table: one line per benchmark name (a
// row with sub-benchmarks gives several), ns/op and the custom metrics as
// min–max over the runs, allocs/op as the largest seen.
func formatTable(lines []tableLine, count int, counter string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| what | benchmark | ns/op (%d runs, min–max) | allocs/op | instructions/op (%s) | other metrics (min–max) |\n", count, counter)
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, tl := range lines {
		byName := map[string][]result{}
		var names []string
		for _, r := range tl.results {
			if _, ok := byName[r.name]; !ok {
				names = append(names, r.name)
			}
			byName[r.name] = append(byName[r.name], r)
		}
		for _, name := range names {
			rs := byName[name]
			allocs := "—"
			if _, ok := rs[0].metrics["allocs/op"]; ok {
				allocs = formatNum(maxOf(rs, "allocs/op"))
			}
			var other []string
			for _, unit := range customUnits(rs) {
				other = append(other, rangeOf(rs, unit)+" "+unit)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", tl.row.name, name, rangeOf(rs, "ns/op"),
				allocs, tl.instr, strings.Join(other, ", "))
		}
	}
	return b.String()
}

func customUnits(rs []result) []string {
	seen := map[string]bool{}
	var units []string
	for _, r := range rs {
		for u := range r.metrics {
			switch u {
			case "ns/op", "B/op", "allocs/op", "MB/s":
				continue
			}
			if !seen[u] {
				seen[u] = true
				units = append(units, u)
			}
		}
	}
	sort.Strings(units)
	return units
}

func rangeOf(rs []result, unit string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		if v, ok := r.metrics[unit]; ok {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		return "—"
	}
	if lo == hi {
		return formatNum(lo)
	}
	return formatNum(lo) + "–" + formatNum(hi)
}

func maxOf(rs []result, unit string) float64 {
	m := math.Inf(-1)
	for _, r := range rs {
		if v, ok := r.metrics[unit]; ok {
			m = math.Max(m, v)
		}
	}
	return m
}

// formatNum prints integers plainly and fractions with three significant
// digits.
func formatNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
