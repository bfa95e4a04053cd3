package tankclient

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/capturetest"
)

// A real tanks 0.22 host's prediction section parses, and the model and
// weapons the predictor gets carry the figures of that section (read here
// with encoding/json alone): the slower, larger m1 and the retuned w1/w2.
// The section's new members (coreParams; the model's hitResponse,
// barrelHeight, turretTop) do not stop the parse.
func TestParseConfigReadsTheRealTanks022Prediction(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Prediction json.RawMessage `json:"prediction"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var want struct {
		Models map[string]struct {
			Size, MaxForwardSpeed, MaxReverseSpeed, BaseTurnTorqueFactor, GunRotationSpeed float32
		}
		Weapons map[string]struct {
			Type           string
			FireRate, Time float64
			Range          float32
		}
		CoreParams map[string]json.RawMessage
	}
	if err := json.Unmarshal(raw.Prediction, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.CoreParams) == 0 {
		t.Fatal("the data has no coreParams: not the 0.22 section")
	}
	cfg, err := ParseConfig(raw.Prediction)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Models) != 1 || cfg.Models[0].Name != "m1" {
		t.Fatalf("models %+v", cfg.Models)
	}
	got, w := cfg.Models[0].Motion, want.Models["m1"]
	if got.Size != w.Size || got.MaxForward != w.MaxForwardSpeed || got.MaxReverse != w.MaxReverseSpeed ||
		got.TurnTorque != w.BaseTurnTorqueFactor || got.GunSpeed != w.GunRotationSpeed {
		t.Errorf("m1 %+v, want %+v", got, w)
	}
	if len(cfg.Weapons) != 2 || cfg.Weapons[0].Name != "w1" || cfg.Weapons[1].Name != "w2" {
		t.Fatalf("weapons %+v", cfg.Weapons)
	}
	w1, w2 := cfg.Weapons[0], cfg.Weapons[1]
	if w1.Explosive || w1.FireRate != want.Weapons["w1"].FireRate || w1.Range != want.Weapons["w1"].Range {
		t.Errorf("w1 %+v, want %+v", w1, want.Weapons["w1"])
	}
	if !w2.Explosive || w2.FireRate != want.Weapons["w2"].FireRate || float64(w2.TimeMs) != want.Weapons["w2"].Time {
		t.Errorf("w2 %+v, want %+v", w2, want.Weapons["w2"])
	}
}
