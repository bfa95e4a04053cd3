package main

import (
	"bytes"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gameloop"
)

func TestTable(t *testing.T) {
	sum := func(frozen float64, freezes uint64, p95 float64) gameloop.Summary {
		return gameloop.Summary{DurationMs: 30000, Prediction: &clientcore.PredictionSummary{ErrorP95: p95},
			Interp: &gameloop.InterpSummary{FrozenMs: frozen, Freezes: freezes, MaxStepMs: 1.5 * float64(freezes), DelayMsP50: 100, DelayMsMax: 100}}
	}
	var b bytes.Buffer
	printTable(&b, []row{{cond: "direct", interp: "fixed", sums: []gameloop.Summary{sum(300, 2, 0.5), sum(600, 3, 0.45)}}}, 2, 0, 5)
	want := "| direct | fixed | 0.45–0.50 / 0 | 300–600 (1.0–2.0 %) | 2–3 (0) | 0 (0) | 3.0–4.5 | 0 | 100 / 100 | 0 | 0 (0.0) |"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("got\n%s\nwant the row\n%s", b.String(), want)
	}
}
