package tankclient

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/host/packer"
	"vimpclient/internal/rowtest"
)

// pilot drives a tank around the bridge map towards waypoints chosen at
// random among the places where levels matter (the ramp feet, the bridge,
// the gap in its north railing, the sides of the ramps, the road under
// it), with random key flips on top and a reverse when it is stuck: long
// random input sequences that climb, cross, fall and bump into guards.
type pilot struct {
	rng     *rand.Rand
	cell    float32
	route   [][2]float32
	target  [2]float32
	since   int
	stuck   int
	reverse int
	flip    string
	flipFor int
	held    map[string]bool
}

// bridgeRoutes are the pilot's routes, in cells: up a ramp and across,
// off the gap in the north railing, off a ramp's side half way up, under
// the bridge along the road, into a ramp's rails from the side, and back.
var bridgeRoutes = [][][2]float32{
	{{2, 16}, {5, 16}, {16, 15.5}, {30, 16}, {46, 16}},
	{{45, 15.5}, {42, 15.5}, {30, 15}, {16, 16}, {2, 16}},
	{{2, 16}, {5, 16}, {16, 15.5}, {21.5, 15.5}, {21.5, 10}},
	{{45, 16}, {42, 16}, {28, 15.5}, {21, 15}, {21, 9}},
	{{2, 15.5}, {5, 15.5}, {9.5, 15.5}, {9.5, 10}},
	{{45, 16.5}, {42, 16.5}, {38.5, 16.5}, {38.5, 22}},
	{{24, 5}, {24, 27}},
	{{23, 27}, {23, 5}},
	{{9, 11}, {9, 20}},
	{{39, 21}, {39, 11}},
}

func (p *pilot) pick() {
	if len(p.route) == 0 {
		p.route = bridgeRoutes[p.rng.IntN(len(bridgeRoutes))]
	}
	w := p.route[0]
	p.route = p.route[1:]
	p.target = [2]float32{(w[0] + 0.5) * p.cell, (w[1] + 0.5) * p.cell}
	p.since = 0
}

// keys returns the key states wanted for a tank in state s.
func (p *pilot) keys(s *tanks.Tank) map[string]bool {
	want := map[string]bool{}
	p.since++
	dx, dy := p.target[0]-s.X, p.target[1]-s.Y
	if dx*dx+dy*dy < 12*12 || p.since > 120*12 {
		p.pick()
	}
	speed := math.Hypot(float64(s.VX), float64(s.VY))
	if speed < 5 && s.Throttle > 0.9 {
		p.stuck++
	} else {
		p.stuck = 0
	}
	if p.stuck > 120 {
		p.reverse, p.stuck = 60+p.rng.IntN(60), 0
	}
	switch {
	case p.reverse > 0:
		p.reverse--
		want["back"], want["left"] = true, true
	default:
		turn := tanks.Normalize(float32(math.Atan2(float64(dy), float64(dx))) - s.Angle)
		want["forward"] = abs(turn) < 0.9
		if turn > 0.15 {
			want["right"] = true
		} else if turn < -0.15 {
			want["left"] = true
		}
	}
	if p.flipFor > 0 {
		p.flipFor--
		want[p.flip] = !want[p.flip]
	} else if p.rng.IntN(400) == 0 {
		p.flip, p.flipFor = motionKeys[p.rng.IntN(len(motionKeys))], 10+p.rng.IntN(50)
	}
	return want
}

// On the layered bridge map the predictor's step reproduces the host's
// tank bit for bit over long random driving (up and down the ramps, across
// the bridge, off its edges, into the guards, under it), its level and
// height equal the host's own row in every frame, and the level state
// rebuilt from that row alone (RestoreLevel) is the one the prediction
// carries, field for field: the replay after any player block steps on
// from exactly the host's state. Every crate the predictor steps matches
// the host's, level included.
func TestBridgeParity(t *testing.T) {
	e := newEmbeddedOn(t, nil, 0, "bridge")
	g := newGame(t, e)
	key := e.schema.Key("m1")
	var own struct {
		level, z float32
		ok       bool
	}
	e.out.onFrame = func(f *clientcore.Frame) {
		own.ok = false
		for _, b := range f.Blocks {
			if b.Schema != key {
				continue
			}
			for _, r := range b.Rows {
				if f.HasPlayer && r.ID == uint32(f.Player.GameID) && !r.Null {
					own.level, own.z, own.ok = rowtest.Get(t, key, r.Fields, "level"), rowtest.Get(t, key, r.Fields, "z"), true
				}
			}
		}
	}
	for i := 0; i < 8; i++ {
		e.step()
	}
	if e.out.players == 0 || !own.ok {
		t.Fatal("no player block with the own row")
	}
	if g.levels == nil {
		t.Fatal("the game does not predict levels on the bridge map")
	}
	v := e.out.player.State
	g.st = tanks.Tank{X: v[0], Y: v[1], Angle: v[2], VX: v[3], VY: v[4], AngVel: v[5], Gun: v[6], Throttle: v[7], Centering: e.out.player.Centering}
	dt := g.pred.DT()
	g.lv = g.cfg.Levels.Restore(g.levels, g.st.X, g.st.Y, int(own.level), own.z, dt, true)

	pl := &pilot{rng: rand.New(rand.NewPCG(9, 10)), cell: g.levels.TileSize(), held: map[string]bool{}}
	pl.pick()
	var held, shots uint32
	seq := uint32(0)
	var hostCrates []tanks.Body
	var hostLevels []tanks.LevelState
	var stances [3]int
	compared, level1, falls, landings, crateCompared, crateOff := 0, 0, 0, 0, 0, 0
	for tick := 0; tick < 120*300; tick++ {
		want := pl.keys(&g.st)
		for _, name := range motionKeys {
			if want[name] == pl.held[name] {
				continue
			}
			pl.held[name] = want[name]
			kb, _ := g.pred.Lookup(name)
			seq++
			e.m.Keys(1, fmt.Sprintf("%d:%s:%s", seq, map[bool]string{true: "down", false: "up"}[want[name]], name))
			switch {
			case kb.OneShot:
				if want[name] {
					shots |= kb.Bit
				}
			case want[name]:
				held |= kb.Bit
			default:
				held &^= kb.Bit
			}
		}
		before, prev := e.out.players, g.lv
		e.step()
		g.Step(predictInput(held|shots), dt)
		shots = 0
		stances[g.lv.Stance]++
		if g.lv.Level == 1 && g.lv.Stance == tanks.Standing {
			level1++
		}
		if prev.Stance != tanks.Falling && g.lv.Stance == tanks.Falling {
			falls++
		}
		if prev.Stance == tanks.Falling && g.lv.Stance != tanks.Falling {
			landings++
		}
		hostCrates = e.m.CrateBodies(hostCrates[:0])
		hostLevels = e.m.CrateLevels(hostLevels[:0])
		for i := range g.crates.crates {
			c := &g.crates.crates[i]
			if !c.predicted {
				continue
			}
			got, want := c.pose(), hostCrates[i]
			for j, pair := range [6][2]float32{{got.x, want.X}, {got.y, want.Y}, {got.angle, want.Angle},
				{got.vx, want.VX}, {got.vy, want.VY}, {got.w, want.AngVel}} {
				if math.Float32bits(pair[0]) != math.Float32bits(pair[1]) {
					t.Fatalf("tick %d crate %d: component %d: predicted %v, host %v", tick, i, j, pair[0], pair[1])
				}
			}
			if !sameLevel(c.lv, hostLevels[i]) {
				t.Fatalf("tick %d crate %d: predicted level %+v, host %+v", tick, i, c.lv, hostLevels[i])
			}
			crateCompared++
			if c.lv.Level != c.rest.Level || c.lv.Stance != tanks.Standing {
				crateOff++
			}
		}
		if e.out.players == before {
			continue
		}
		p := &e.out.player
		got := [8]float32{g.st.X, g.st.Y, g.st.Angle, g.st.VX, g.st.VY, g.st.AngVel, g.st.Gun, g.st.Throttle}
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(p.State[i]) || g.st.Centering != p.Centering {
				t.Fatalf("tick %d: component %d: predicted %v, host %v (level %+v)", tick, i, got[i], p.State[i], g.lv)
			}
		}
		if !own.ok {
			t.Fatalf("tick %d: no own row", tick)
		}
		if g.lv.Level != int(own.level) || packer.Round2(g.lv.WorldZ(g.levels)) != own.z {
			t.Fatalf("tick %d: predicted level %d height %v, the host's row %v %v (%+v)", tick, g.lv.Level, g.lv.WorldZ(g.levels), own.level, own.z, g.lv)
		}
		if r := g.cfg.Levels.Restore(g.levels, p.State[0], p.State[1], int(own.level), own.z, dt, true); !sameLevel(r, g.lv) {
			t.Fatalf("tick %d: restored from the row %+v, predicted %+v", tick, r, g.lv)
		}
		compared++
	}
	t.Logf("%d player blocks compared bit for bit; steps standing %d (on the bridge %d), climbing %d, falling %d; "+
		"%d falls, %d landings; %d predicted crate states compared, %d off their rest", compared,
		stances[tanks.Standing], level1, stances[tanks.Climbing], stances[tanks.Falling], falls, landings, crateCompared, crateOff)
	if compared < 8000 || level1 < 3000 || stances[tanks.Climbing] < 1000 || falls < 5 || landings < 5 || crateOff < 1000 {
		t.Fatal("too little coverage of the levels")
	}
}

// sameLevel compares level states field for field, heights by their bits.
func sameLevel(a, b tanks.LevelState) bool {
	return a.Level == b.Level && a.Stance == b.Stance && a.FallSteps == b.FallSteps &&
		math.Float32bits(a.Z) == math.Float32bits(b.Z) &&
		math.Float32bits(a.Slope[0]) == math.Float32bits(b.Slope[0]) && math.Float32bits(a.Slope[1]) == math.Float32bits(b.Slope[1])
}
