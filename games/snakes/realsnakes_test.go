package snakes

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/protocol"
	"vimpclient/testkit/rowtest"
)

// realSnakes015Config is the CONFIG_DATA a real snakes 0.15 host sends.
func realSnakes015Config(t *testing.T) *protocol.Config {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedDir(t), "captures", "real-snakes-0.15", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := protocol.ParseConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The game's records of s1 and cr agree exactly with the schema a real
// snakes 0.15 host sends, both ways: 0.15 keeps the 0.6 rows, the flags
// byte still named "boost".
func TestRowsBindTheRealSnakes015Schema(t *testing.T) {
	cfg := realSnakes015Config(t)
	rowtest.CheckKeyRecord(t, cfg.Snapshot, "s1", func(b *clientcore.Binder) { BindSnakeRow(b.Positions()) })
	rowtest.CheckKeyRecord(t, cfg.Snapshot, "cr", func(b *clientcore.Binder) { BindCrystalRow(b.Positions()) })
}

// The 0.15 prediction section builds the snakes game, and its s1 model
// carries the figures the file declares, read here with encoding/json
// alone: the turn rate falls with the square root of the crystals
// carried (3.4 rad/s empty, 3.4 − 0.18·√100 = 1.6 at a hundred) and is
// held at its floor of 1.4 past that.
func TestRealSnakes015Model(t *testing.T) {
	cfg := realSnakes015Config(t)
	schema, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromConfig(schema, cfg.Prediction); err != nil {
		t.Fatalf("the 0.15 prediction does not build the game: %v", err)
	}
	var raw struct {
		Models map[string]map[string]json.RawMessage `json:"models"`
	}
	if err := json.Unmarshal(cfg.Prediction, &raw); err != nil {
		t.Fatal(err)
	}
	num := func(k string) float64 {
		var v float64
		if err := json.Unmarshal(raw.Models["s1"][k], &v); err != nil {
			t.Fatalf("s1.%s: %v", k, err)
		}
		return v
	}
	pc, err := ParseConfig(cfg.Prediction)
	if err != nil {
		t.Fatal(err)
	}
	m := pc.Models["s1"]
	for k, got := range map[string]float32{"turnSpeed": m.TurnSpeed, "turnSpeedFalloff": m.TurnSpeedFalloff,
		"turnSpeedMin": m.TurnSpeedMin, "baseRadius": m.BaseRadius, "boostMinCrystals": m.BoostMinCrystals} {
		if float64(got) != float64(float32(num(k))) {
			t.Errorf("%s = %v, the file says %v", k, got, num(k))
		}
	}
	for _, c := range []struct{ crystals, want float64 }{{0, 3.4}, {100, 1.6}, {400, 1.4}, {1e6, 1.4}} {
		if got := m.TurnRate(float32(c.crystals)); math.Abs(float64(got)-c.want) > 1e-5 {
			t.Errorf("TurnRate(%v) = %v, want %v", c.crystals, got, c.want)
		}
	}
	old := S1()
	if got := old.TurnRate(400); got != old.TurnSpeed {
		t.Errorf("a model without falloff turns at %v with 400 crystals, want %v", got, old.TurnSpeed)
	}
}
