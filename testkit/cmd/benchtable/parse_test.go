package main

import (
	"strings"
	"testing"
)

func TestParseResults(t *testing.T) {
	out := []byte(`goos: linux
BenchmarkDecodeHeavyTanks-2   	   45822	      2661 ns/op	1510.31 MB/s	       0 B/op	       0 allocs/op
BenchmarkBake/canopy-2         	       1	 512345678 ns/op	        84.5 ms/map	  12 frame-ms	 1024 B/op	      15 allocs/op
BenchmarkBroken-2 not a result
PASS
ok  	vimpclient/clientcore	2.1s
`)
	rs := parseResults(out)
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2: %+v", len(rs), rs)
	}
	if rs[0].name != "BenchmarkDecodeHeavyTanks" || rs[0].metrics["ns/op"] != 2661 || rs[0].metrics["allocs/op"] != 0 {
		t.Errorf("first: %+v", rs[0])
	}
	if rs[1].name != "BenchmarkBake/canopy" || rs[1].metrics["ms/map"] != 84.5 || rs[1].metrics["allocs/op"] != 15 {
		t.Errorf("second: %+v", rs[1])
	}
}

func TestParseCounters(t *testing.T) {
	if n, err := parsePerf([]byte("123456789,,instructions:u,1000,100.00,,\n")); err != nil || n != 123456789 {
		t.Errorf("perf: %d, %v", n, err)
	}
	if _, err := parsePerf([]byte("<not supported>,,instructions:u,0,100.00,,\n")); err == nil {
		t.Error("an unsupported counter was read as a count")
	}
	if n, err := parseCallgrind([]byte("==12== Events    : Ir\n==12== Collected : 251224746\n")); err != nil || n != 251224746 {
		t.Errorf("callgrind: %d, %v", n, err)
	}
}

func TestFormatTable(t *testing.T) {
	lines := []tableLine{{
		row:   row{name: "decode"},
		instr: "80196",
		results: []result{
			{name: "BenchmarkDecodeHeavyTanks", metrics: map[string]float64{"ns/op": 2900, "allocs/op": 0}},
			{name: "BenchmarkDecodeHeavyTanks", metrics: map[string]float64{"ns/op": 2661, "allocs/op": 0}},
		},
	}, {
		row:   row{name: "bake"},
		instr: "—",
		results: []result{
			{name: "BenchmarkBake/canopy", metrics: map[string]float64{"ns/op": 5e8, "allocs/op": 15, "ms/map": 84.5}},
		},
	}}
	got := formatTable(lines, 2, "callgrind")
	for _, want := range []string{
		"| decode | BenchmarkDecodeHeavyTanks | 2661–2900 | 0 | 80196 |  |",
		"| bake | BenchmarkBake/canopy | 500000000 | 15 | — | 84.5 ms/map |",
		"instructions/op (callgrind)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}
