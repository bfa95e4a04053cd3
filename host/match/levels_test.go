package match

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/host/packer"
	"vimpclient/snapschema"
)

// bridgeMatch is a match pinned to the bridge map with one human (uid 1)
// in team1 and no bots, in the 2.5D dialect of tanks 0.13.
func bridgeMatch(t testing.TB) (*Match, *recorder) { return bridgeMatchIn(t, Dialect013) }

// bridgeMatchIn is bridgeMatch in dialect.
func bridgeMatchIn(t testing.TB, dialect string) (*Match, *recorder) {
	t.Helper()
	m, err := New(Config{Log: quiet(), Map: "bridge", MapSeconds: 1, VoteSeconds: 1, Dialect: dialect})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Pilot")
	m.Vote(1, json.RawMessage(`["teamChange","team1"]`))
	return m, r
}

// A pinned match plays its map from the start and keeps it: the map time
// runs out without a vote, a proposal is ignored, the vote menu offers no
// map; and with no bots the first player of team1 starts on that team's
// first spawn point, facing the way it says. An unknown map is refused
// with the catalog named.
func TestPinnedMap(t *testing.T) {
	m, r := bridgeMatch(t)
	if m.current.Name != "bridge" || !m.Pinned() {
		t.Fatalf("playing %q", m.current.Name)
	}
	p := m.Users[1]
	s := m.current.Data.Spawns("team1")[0]
	scale := float32(m.current.Data.Scale)
	if p.tank == nil || p.tank.st.X != float32(s.X)*scale || p.tank.st.Y != float32(s.Y)*scale || p.tank.st.Angle != 0 {
		t.Fatalf("tank %+v, want the first team1 spawn %+v", p.tank, s)
	}
	m.Vote(1, json.RawMessage(`"maps"`))
	m.Vote(1, json.RawMessage(`["mapChange","yard"]`))
	now := 1.7e12
	for i := 0; i < 3*TicksPerSecond; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	if m.current.Name != "bridge" || m.vote != nil || m.round.mapChangeAt != 0 {
		t.Fatalf("a pinned match moved: map %q vote %+v change at %d", m.current.Name, m.vote, m.round.mapChangeAt)
	}
	if !r.has(1, `[16,[]]`) || r.has(1, `"mapChangeBySystem"`) {
		t.Fatalf("the vote menu or a system vote offered maps: %v", r.texts[1])
	}
	if _, err := New(Config{Log: quiet(), Map: "atlantis"}); err == nil || !strings.Contains(err.Error(), "bridge") {
		t.Fatalf("unknown map: %v", err)
	}
	if names := MapNames(); names[len(names)-1] != "bridge" {
		t.Fatalf("bridge is not in the rotation: %v", names)
	}
}

// Driving the pinned bridge straight east from the first spawn: up the
// west ramp, across (between the two crates, which stay where they are),
// down the east ramp. The tank's m1 rows carry its height in world units
// and its level as it goes; the crates' c1 rows carry theirs by role.
func TestBridgeRowsCarryLevels(t *testing.T) {
	// Today's tank is half as fast: it takes longer to cross.
	for _, c := range []struct {
		dialect string
		drive   int
	}{{Dialect013, 4}, {Dialect022, 9}} {
		t.Run(c.dialect, func(t *testing.T) { bridgeRowsCarryLevels(t, c.dialect, c.drive) })
	}
}

func bridgeRowsCarryLevels(t *testing.T, dialect string, drive int) {
	m, r := bridgeMatchIn(t, dialect)
	k := r.dec.Schema().Key("m1")
	b := clientcore.NewBinder(k)
	row := tanks.BindTankRow(b.Positions()) // z and level by role (0.13's 2.5D) or by name (0.22)
	fx, fz, fl := row.X, row.Z, row.Level
	if err := b.Err(); err != nil || !row.Layered() {
		t.Fatal(err, "layered:", row.Layered())
	}
	ck := r.dec.Schema().Key("c1")
	cb := clientcore.NewBinder(ck)
	cz, cl := cb.Role(snapschema.RoleZ), cb.Role(snapschema.RoleLevel)
	if !cz.Bound() || !cl.Bound() {
		t.Fatal("c1 rows are not layered")
	}
	m.Keys(1, "1:down:forward")
	now := 1.7e12
	var maxZ float32
	var levels [2]int
	for i := 0; i < drive*TicksPerSecond; i++ {
		now += 1000.0 / 120
		m.Step(now)
		if i%sendEvery != sendEvery-1 {
			continue
		}
		for _, blk := range r.frame.Blocks {
			switch blk.Schema {
			case k:
				row := blk.Rows[0].Fields
				z, lv := fz.Get(row), fl.Get(row)
				maxZ = max(maxZ, z)
				levels[int(lv)]++
				if x := fx.Get(row); x > 12*19.2+5 && x < 36*19.2-5 && (lv != 1 || z != 1) {
					t.Fatalf("on the bridge at x %v: level %v z %v", x, lv, z)
				}
			case ck:
				for j, row := range blk.Rows {
					want := m.current.Data.Dynamic[j].Level
					if cl.Get(row.Fields) != float32(want) || cz.Get(row.Fields) != float32(want) {
						t.Fatalf("crate %d row %v, want level %d", j, row.Fields, want)
					}
				}
			}
		}
	}
	st := m.Users[1].tank
	if levels[1] < 20 || maxZ != 1 || st.lv != (tanks.LevelState{}) || st.st.X < 42*19.2 {
		t.Fatalf("frames per level %v, top height %v, end %+v at %+v", levels, maxZ, st.lv, st.st)
	}
	if math.Abs(float64(st.st.Y-307.2)) > 1e-3 {
		t.Fatalf("the straight drive strayed to y %v (a crate in the way?)", st.st.Y)
	}
}

// The match binds its rows by name and role: a schema whose tank rows lack
// z and level, or whose crate rows lack the roles, packs the flat rows of
// the real dialect; the layered dialect's rows have them; a schema with
// only one of a pair is refused.
func TestFlatSchemaRows(t *testing.T) {
	layered, err := layeredConfig(configJSON)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(layered, &top); err != nil {
		t.Fatal(err)
	}
	parse := func(edit func(keys map[string]map[string]any)) (rowLayouts, error) {
		var keys map[string]map[string]any
		if err := json.Unmarshal(top["snapshot"], &keys); err != nil {
			t.Fatal(err)
		}
		edit(keys)
		raw, err := json.Marshal(keys)
		if err != nil {
			t.Fatal(err)
		}
		s, err := snapschema.Parse(raw)
		if err != nil {
			return rowLayouts{}, err
		}
		return bindRowLayouts(s)
	}
	drop := func(key string, names ...string) func(keys map[string]map[string]any) {
		return func(keys map[string]map[string]any) {
			var kept []any
			for _, f := range keys[key]["fields"].([]any) {
				n := f.(map[string]any)["name"].(string)
				if !strings.Contains(strings.Join(names, ","), n) {
					kept = append(kept, f)
				}
			}
			keys[key]["fields"] = kept
			if key == "c1" {
				keys[key]["optionalFrom"] = 3
			}
		}
	}
	l, err := parse(func(keys map[string]map[string]any) { drop("m1", "z", "level")(keys); drop("c1", "z", "level")(keys) })
	if err != nil || l.m1.Layered() || l.m1.Z.Bound() || l.m1.Level.Bound() || l.c1.Layered() {
		t.Fatalf("flat rows: %+v %+v %v", l.m1, l.c1, err)
	}
	full, err := parse(func(map[string]map[string]any) {})
	if err != nil || full.m1.Z.Index() != 3 || full.m1.Level.Index() != 4 || full.c1.Z.Index() != 3 || full.c1.Level.Index() != 4 {
		t.Fatalf("layered rows: %+v %+v %v", full.m1, full.c1, err)
	}
	if _, err := parse(drop("m1", "level")); err == nil || !strings.Contains(err.Error(), "z and level") {
		t.Fatalf("m1 with z alone: %v", err)
	}
	var v [13]packer.Value
	packTank(&l.m1, v[:11], &tankValues{x: 1, z: 5, level: 1}) // flat rows have no room for them
}

// A shot keeps its level: a tank on the bridge does not hit one on the
// road under it, and the shooter under the bridge does not hit the one on
// it; on the same level the shot hits.
func TestShotsKeepTheirLevel(t *testing.T) {
	m, _ := bridgeMatch(t)
	joinHuman(t, m, 2, "Below")
	m.Vote(2, json.RawMessage(`["teamChange","team2"]`))
	top, low := m.Users[1], m.Users[2]
	place := func(p *player, x, y, angle float32, level int) {
		p.tank.st = tanks.Tank{X: x, Y: y, Angle: angle}
		p.tank.lv = tanks.LevelState{Level: level, Z: float32(level)}
		p.tank.st.ToBody(&p.tank.body)
	}
	fire := func(p *player) { m.fireHitscan(p) }
	// Both on the road column under the bridge, one above the other on
	// the bridge: shooting straight along it.
	place(top, 24*19.2, 15.5*19.2, 0, 1)
	place(low, 27*19.2, 15.5*19.2, 0, 0)
	fire(top)
	if low.tank.health != maxHealth {
		t.Fatal("a shot on the bridge hit a tank on the road under it")
	}
	place(low, 20*19.2, 15.5*19.2, 0, 0)
	place(top, 23*19.2, 15.5*19.2, 0, 1)
	fire(low)
	if top.tank.health != maxHealth {
		t.Fatal("a shot under the bridge hit a tank on it")
	}
	place(low, 27*19.2, 15.5*19.2, 0, 1)
	fire(top)
	if low.tank.health == maxHealth {
		t.Fatal("a shot on the bridge missed a tank on the bridge")
	}
}

// BenchmarkSimStepBridge is BenchmarkSimStep on the layered bridge map:
// every body's level stepped after the contacts, the terrain of two levels
// and the ramp guards.
func BenchmarkSimStepBridge(b *testing.B) { benchSimStep(b, "bridge") }
