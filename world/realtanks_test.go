package world

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/games/tanks"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/registry"
	"vimpclient/snapschema"
	"vimpclient/testkit/capturetest"
)

// realTanks022Config is the CONFIG_DATA a real tanks 0.22 host sends.
func realTanks022Config(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The client takes a real tanks 0.22 CONFIG_DATA as the tanks game: the
// config parses without a problem, its schema compiles, its eleven part
// classes are recognised as tanks whether or not the host names the game,
// the game's client half builds from its prediction section, both
// canvases come up, and the world binds every key to the tanks parts with
// no part falling back to the generic renderer. The classes this client
// has no part for (Dust, WreckFire) are left undrawn, never handed to the
// generic renderer. Each of the six maps goes onto that world.
func TestWorldTakesTheRealTanks022Config(t *testing.T) {
	cfg, err := protocol.ParseConfig(realTanks022Config(t))
	if err != nil || len(cfg.Problems) != 0 {
		t.Fatalf("CONFIG_DATA: %v %v", err, cfg.Problems)
	}
	schema, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := parts.ParsePartsConfig(cfg.Parts)
	if err != nil {
		t.Fatal(err)
	}
	rnd := func() float64 { return 0.5 }
	if g, _, ok := registry.Default().Pick("", pc, rnd); !ok || g.ID != "tanks" {
		t.Fatalf("unannounced: picked %q %v, want tanks", g.ID, ok)
	}
	g, pg, ok := registry.Default().Pick("tanks", pc, rnd)
	if !ok {
		t.Fatal("the 0.22 part classes are not recognised as tanks")
	}
	if _, err := g.Client(schema, cfg.Prediction); err != nil {
		t.Fatalf("tanks client half: %v", err)
	}
	specs, tune, pointer, err := ParseCanvasManager(cfg.CanvasManager)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range specs {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"radar", "vimp"}) {
		t.Fatalf("canvases %v", ids)
	}
	w := New(Options{Rand: rnd})
	if err := w.Configure(&Config{Schema: schema, Canvases: specs, Camera: tune, PointerCanvas: pointer, Parts: pc}, pg); err != nil {
		t.Fatal(err)
	}
	if fb := w.Fallbacks(); len(fb) != 0 {
		t.Errorf("parts fell back to the generic renderer: %v", fb)
	}
	d := w.Drawers()
	if len(d) != len(pc.EntitiesOnCanvas) || len(d) != 11 {
		t.Errorf("drawers %v, want one per class of the config's eleven", d)
	}
	// Each of the game's maps goes onto the configured world: its map parts
	// stage the map's layers on the main canvas and its radar view.
	maps, err := filepath.Glob(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "maps", "*.json"))
	if err != nil || len(maps) != 6 {
		t.Fatalf("maps %v %v", maps, err)
	}
	for _, p := range maps {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := gamemap.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
		w.SetMap(m)
		if v, r := w.Stage("vimp").Len(), w.Stage("radar").Len(); v == 0 || r == 0 {
			t.Errorf("%s: staged vimp %d, radar %d", filepath.Base(p), v, r)
		}
	}
	for class, by := range d {
		switch class {
		case "Dust", "WreckFire":
			if by == parts.DrawnGeneric {
				t.Errorf("%s drawn generically", class)
			}
		default:
			if by != "tanks" {
				t.Errorf("%s drawn by %q, want the tanks parts", class, by)
			}
		}
	}
}

// boundField is a field a row layout bound, by the name the schema gives it.
type boundField struct {
	name string
	pos  snapschema.Pos
}

// Each row of the 0.22 schema binds through the game's row layouts, every
// field the layout reads at the index the schema gives its name: the tank
// row among its sixteen fields, the weapon rows with their levels after the
// author id, the map rows with z, level and state by role. A field a layout
// does not read is one 0.22 added (m1's z, level, vz, pitch, roll; the
// weapon rows' levels), which the layouts read past.
func TestRowLayoutsBindTheRealTanks022Rows(t *testing.T) {
	var raw struct {
		Snapshot map[string]struct {
			Fields []struct {
				Name string `json:"name"`
				Role string `json:"role"`
			} `json:"fields"`
		} `json:"snapshot"`
	}
	b := realTanks022Config(t)
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	cfg, err := protocol.ParseConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	index := func(key, name string) int {
		for i, f := range raw.Snapshot[key].Fields {
			if f.Name == name {
				return i
			}
		}
		t.Fatalf("%s has no field %s", key, name)
		return -1
	}
	for _, c := range []struct {
		key    string
		layout func(b *snapschema.Binder) []boundField
		added  []string
	}{
		{"m1", func(b *snapschema.Binder) []boundField {
			r := tanks.BindTankRow(b)
			got := []boundField{{"x", r.X}, {"y", r.Y}, {"angle", r.Angle}, {"gunRotation", r.Gun}, {"vx", r.VX}, {"vy", r.VY},
				{"engineLoad", r.Load}, {"condition", r.Cond}, {"size", r.Size}, {"team", r.Team}, {"angvel", r.AngVel}}
			if r.Z.Bound() {
				got = append(got, boundField{"z", r.Z})
			}
			if r.Level.Bound() {
				got = append(got, boundField{"level", r.Level})
			}
			return got
		}, []string{"z", "level", "vz", "pitch", "roll"}},
		{"w1", func(b *snapschema.Binder) []boundField {
			r := tanks.BindTracerRow(b)
			return []boundField{{"startX", r.StartX}, {"startY", r.StartY}, {"endX", r.EndX}, {"endY", r.EndY},
				{"bodyX", r.BodyX}, {"bodyY", r.BodyY}, {"wasHit", r.Hit}, {"shooterId", r.Author}}
		}, []string{"startLevel", "endLevel"}},
		{"w2", func(b *snapschema.Binder) []boundField {
			r := tanks.BindBombRow(b)
			return []boundField{{"x", r.X}, {"y", r.Y}, {"angle", r.Angle}, {"size", r.Size}, {"time", r.Time}, {"ownerId", r.Author}}
		}, []string{"level"}},
		{"w2e", func(b *snapschema.Binder) []boundField {
			r := tanks.BindExplosionRow(b)
			return []boundField{{"x", r.X}, {"y", r.Y}, {"radius", r.Radius}}
		}, []string{"level"}},
		{"c1", crateLayout, nil},
		{"c2", crateLayout, nil},
	} {
		k := schema.Key(c.key)
		if k == nil {
			t.Fatalf("no key %s", c.key)
		}
		got, err := clientcore.BindLayout(k, c.layout)
		if err != nil {
			t.Errorf("%s: %v", c.key, err)
			continue
		}
		for _, f := range got {
			if f.pos.Index() != index(c.key, f.name) {
				t.Errorf("%s.%s bound at %d, want %d", c.key, f.name, f.pos.Index(), index(c.key, f.name))
			}
		}
		var seen []string
		for _, f := range got {
			seen = append(seen, f.name)
		}
		var rest []string
		for _, f := range raw.Snapshot[c.key].Fields {
			if !slices.Contains(seen, f.Name) {
				rest = append(rest, f.Name)
			}
		}
		for _, name := range rest {
			if !slices.Contains(c.added, name) {
				t.Errorf("%s: field %s not read, and it is not one 0.22 added", c.key, name)
			}
		}
	}
}

// crateLayout is the map rows' layout with every field it binds named.
func crateLayout(b *snapschema.Binder) []boundField {
	r := tanks.BindCrateRow(b)
	return []boundField{{"x", r.X}, {"y", r.Y}, {"angle", r.Angle}, {"z", r.Z}, {"level", r.Level}, {"state", r.State},
		{"vx", r.VX}, {"vy", r.VY}, {"angvel", r.AngVel}}
}
