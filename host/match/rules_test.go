package match

import (
	"encoding/json"
	"testing"
)

// The weapons and the model of a CONFIG_DATA the host is given (a game's
// own data from a file) are read within bounds: a bad figure is an error,
// never a panic, and what is read is finite and not negative.
func FuzzParseWeapons(f *testing.F) {
	for _, raw := range []json.RawMessage{configJSON, config022JSON} {
		var top struct {
			Prediction struct {
				Models  json.RawMessage `json:"models"`
				Weapons json.RawMessage `json:"weapons"`
			} `json:"prediction"`
		}
		if err := json.Unmarshal(raw, &top); err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(top.Prediction.Weapons), []byte(top.Prediction.Models))
	}
	f.Add([]byte(`{"w1":{"fireRate":-1},"w2":{"time":1e300}}`), []byte(`{"m1":{"size":0}}`))
	f.Add([]byte(`{"w2":{"size":1e9,"radius":"x"}}`), []byte(`{"m1":{"barrelHeight":-2}}`))
	f.Fuzz(func(t *testing.T, weapons, models []byte) {
		if w, err := parseWeapons(weapons); err == nil {
			for _, v := range []float32{w.w1Damage, w.w1Range, w.w1Push, w.w2Damage, w.w2Radius, w.w2Push} {
				if !(v >= 0) || v > maxWeaponFigure {
					t.Fatalf("weapon figure %v from %s", v, weapons)
				}
			}
			if w.w1FireTicks < 0 || w.w2FireTicks < 0 || w.w2FuseTicks < 0 || w.w2Size > 255 {
				t.Fatalf("weapons %+v from %s", w, weapons)
			}
		}
		if m, err := parseModel(models); err == nil && (!(m.Size > 0) || m.BarrelHeight < 0) {
			t.Fatalf("model %+v from %s", m, models)
		}
	})
}
