package input

import (
	"math"
	"strings"
	"testing"
)

// gunSim is a predictor that turns a gun the way the tanks model does: a
// held turn command turns it at speed, bounded by maxGun; it also logs the
// commands that went out.
type gunSim struct {
	gun, speed, maxGun float64
	left, right        bool
	log                []string
}

func (g *gunSim) ApplyInput(_ uint32, down bool, name string, _ float64) {
	switch name {
	case "gunLeft":
		g.left = down
	case "gunRight":
		g.right = down
	}
	if down {
		g.log = append(g.log, "+"+name)
	} else {
		g.log = append(g.log, "-"+name)
	}
}
func (g *gunSim) ApplyAim(uint32, float32, float32, uint32, float64) {}

// step advances the gun by dt ms of held keys.
func (g *gunSim) step(dt float64) {
	r := g.speed * dt / 1000
	switch {
	case g.left:
		g.gun = max(g.gun-r, -g.maxGun)
	case g.right:
		g.gun = min(g.gun+r, g.maxGun)
	}
}

func (g *gunSim) turret() (Turret, bool) {
	return Turret{X: 0, Y: 0, Hull: 0, Gun: g.gun, MaxGun: g.maxGun, Speed: g.speed,
		Left: "gunLeft", Right: "gunRight", Fire: "fire",
		Bomb: []string{"nextWeapon", "fire", "prevWeapon"}}, true
}

// tankKeys is a player key set with the tanks gun, fire and weapon keys.
func tankKeys() Config {
	return Config{KeySets: []map[int]string{{}, {
		75: "gunLeft", 76: "gunRight", 74: "fire", 78: "nextWeapon", 80: "prevWeapon", 87: "forward",
	}}}
}

// aimRig is a controller on the tanks keys whose window points are world
// points, driving a gunSim at 60 frames a second.
func aimRig(t *testing.T) (*Controller, *gunSim) {
	t.Helper()
	g := &gunSim{speed: 3, maxGun: 1.4}
	c := NewController(tankKeys(), newFakeUI(), g, func(x, y float64) (float64, float64, bool) { return x, y, true })
	c.SetTurret(g.turret)
	c.SetKeySet(1, 0)
	c.SetEnabled(true, 0)
	return c, g
}

const frameMs = 1000.0 / 60

// TestMouseAimSettles: the gun reaches the pointer's direction within 2° in
// no more than the game's turn time plus a frame, with one press and one
// release (no swinging back), at several targets either side and beyond
// the gun's bound.
func TestMouseAimSettles(t *testing.T) {
	for _, deg := range []float64{3, 10, 37, 60, 79, -5, -45, -80, 120, -170} {
		c, g := aimRig(t)
		want := max(-g.maxGun, min(deg*math.Pi/180, g.maxGun))
		turnFrames := int(math.Ceil(math.Abs(want) / g.speed * 1000 / frameMs))
		px, py := 100*math.Cos(deg*math.Pi/180), 100*math.Sin(deg*math.Pi/180)
		now, settled := 0.0, -1
		for f := 0; f < 120; f++ {
			now += frameMs
			c.Mouse(px, py, now)
			g.step(frameMs)
			if math.Abs(g.gun-want) <= 2*math.Pi/180 && !g.left && !g.right && settled < 0 {
				settled = f + 1
			}
		}
		if settled < 0 || settled > turnFrames+1 {
			t.Errorf("%v°: settled after %d frames (turn time %d frames + 1), gun %.2f° want %.2f°",
				deg, settled, turnFrames, g.gun*180/math.Pi, want*180/math.Pi)
		}
		if math.Abs(g.gun-want) > 2*math.Pi/180 {
			t.Errorf("%v°: gun ends at %.2f°, want within 2° of %.2f°", deg, g.gun*180/math.Pi, want*180/math.Pi)
		}
		if len(g.log) > 2 {
			t.Errorf("%v°: the gun swung: %v", deg, g.log)
		}
	}
}

// TestMouseAimFollowsAMovingPointer: a pointer circling the tank keeps the
// gun within a frame's turn plus 2° of it once caught up, and the gun
// never turns away from it.
func TestMouseAimFollowsAMovingPointer(t *testing.T) {
	c, g := aimRig(t)
	now := 0.0
	for f := 0; f < 240; f++ {
		now += frameMs
		a := 0.6 * math.Sin(float64(f)/40) // slower than the gun turns
		c.Mouse(100*math.Cos(a), 100*math.Sin(a), now)
		before := g.gun
		g.step(frameMs)
		if f > 30 {
			if miss := math.Abs(g.gun - a); miss > 3*frameMs/1000+2*math.Pi/180 {
				t.Fatalf("frame %d: gun %.3f, pointer %.3f", f, g.gun, a)
			}
			if (g.gun-before)*(a-before) < 0 && math.Abs(a-before) > 3*frameMs/1000 {
				t.Fatalf("frame %d: the gun turned away from the pointer", f)
			}
		}
	}
}

// TestMouseAimYieldsToGunKeys: a gun key held by the player stops pointer
// aim until the pointer moves again.
func TestMouseAimYieldsToGunKeys(t *testing.T) {
	c, g := aimRig(t)
	c.Mouse(0, 100, frameMs) // 90°: the aim holds gunRight
	if !g.right {
		t.Fatal("aim did not turn the gun")
	}
	c.KeyDown(75, 2*frameMs) // the player's K: gunLeft
	c.Mouse(0, 100, 3*frameMs)
	if g.right || !g.left {
		t.Fatalf("with K held: right %v left %v, log %v", g.right, g.left, g.log)
	}
	c.KeyUp(75, 4*frameMs)
	c.Mouse(0, 100, 5*frameMs) // the pointer did not move: the gun stays
	if g.left || g.right {
		t.Fatalf("after K, a resting pointer turned the gun: %v", g.log)
	}
	c.Mouse(1, 100, 6*frameMs) // it moved: the aim takes over
	if !g.right {
		t.Fatalf("a moved pointer did not aim: %v", g.log)
	}
}

// TestMouseAimOffAndModes: the setting off, a mode open or input disabled
// let go of the held turn key and turn nothing.
func TestMouseAimOffAndModes(t *testing.T) {
	c, g := aimRig(t)
	c.Mouse(0, 100, frameMs)
	c.SetMouseAim(false, 2*frameMs)
	if g.right {
		t.Fatal("turning aim off kept the key down")
	}
	c.Mouse(0, -100, 3*frameMs)
	if g.left || g.right {
		t.Fatal("aim off turned the gun")
	}
	c.SetMouseAim(true, 4*frameMs)
	c.Mouse(0, 100, 5*frameMs)
	if !g.right {
		t.Fatal("aim back on did not turn the gun")
	}
	c.SetModes(ModesOf(true, false, false)) // chat open
	c.Mouse(0, 101, 6*frameMs)
	if g.right {
		t.Fatal("chat open kept the turn key down")
	}
	c.SetModes(0)
	c.Mouse(0, 102, 7*frameMs)
	c.SetEnabled(false, 8*frameMs)
	if g.right {
		t.Fatal("input disabled kept the turn key down")
	}
}

// TestMouseButtons: the left button fires, the right one plays the bomb
// steps one a frame, and a binding of the player's own wins.
func TestMouseButtons(t *testing.T) {
	c, g := aimRig(t)
	c.SetMouseAim(false, 0)
	c.KeyDown(MouseLeft, 1)
	c.KeyUp(MouseLeft, 2)
	c.KeyDown(MouseRight, 3)
	c.KeyUp(MouseRight, 4)
	for f := 1; f <= 4; f++ {
		c.Mouse(5, 5, 4+float64(f)*frameMs)
	}
	got := strings.Join(g.log, " ")
	want := "+fire -fire +nextWeapon -nextWeapon +fire -fire +prevWeapon -prevWeapon"
	if got != want {
		t.Fatalf("buttons sent %q, want %q", got, want)
	}

	cfg := tankKeys()
	b, err := ParseBindings([]byte("[tanks]\nnextWeapon = MouseRight\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ = cfg.WithBindings(b["tanks"])
	g2 := &gunSim{speed: 3, maxGun: 1.4}
	c2 := NewController(cfg, newFakeUI(), g2, nil)
	c2.SetTurret(g2.turret)
	c2.SetKeySet(1, 0)
	c2.SetEnabled(true, 0)
	c2.KeyDown(MouseRight, 1)
	c2.KeyUp(MouseRight, 2)
	if got := strings.Join(g2.log, " "); got != "+nextWeapon -nextWeapon" {
		t.Fatalf("bound right button sent %q", got)
	}
}

// TestMouseAimGameWithPointer: a game with a pointer channel of its own
// gets no pointer aim and no button defaults.
func TestMouseAimGameWithPointer(t *testing.T) {
	cfg := tankKeys()
	cfg.Pointer = &PointerConfig{}
	g := &gunSim{speed: 3, maxGun: 1.4}
	c := NewController(cfg, newFakeUI(), g, func(x, y float64) (float64, float64, bool) { return x, y, true })
	c.SetTurret(g.turret)
	c.SetKeySet(1, 0)
	c.SetEnabled(true, 0)
	c.Mouse(0, 100, frameMs)
	c.KeyDown(MouseLeft, 2*frameMs)
	if len(g.log) != 0 {
		t.Fatalf("a pointer game got %v", g.log)
	}
}
