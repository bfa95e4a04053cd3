package tanks

import (
	"math"
	tankgame "vimpclient/games/tanks"

	"vimpclient/clientcore"
	"vimpclient/internal/angle"
	"vimpclient/parts"
)

// TracksFactory is the Tracks part class (track marks, one per tank).
type TracksFactory struct{}

type tracksBinding struct{ f tankgame.TankRow }

// Bind implements parts.Factory.
func (TracksFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := bindTank(k)
	return &tracksBinding{f}, err
}

// maxMarks bounds one tank's marks drawn one by one (those left between
// levels).
const maxMarks = 1200

// Track marks are left at alpha markAlpha and fade out over markFadeMs,
// linearly. A mark left on a level goes on the level's ground decal layer,
// which fades every mark at one rate, so every mark lasts the same time:
// the mean of the 1.8–2.5 s the game gives its marks.
const (
	markAlpha  = 0.4
	markFadeMs = 2150
	markFade   = markAlpha / markFadeMs // alpha per ms
)

type mark struct {
	m         parts.Affine // texture pixels to world, fixed at creation
	age, fade float64
	alpha     float64
	h         float64 // the tank's height when the mark was left
}

// Tracks leaves track marks behind a tank (zIndex 1). Marks left on a
// level are painted onto the level's ground decal layer and stay there,
// fading, after the tank is gone; only marks left between levels (on a
// ramp, in a fall) are the part's own, drawn each frame at their height.
type Tracks struct {
	b                   *tracksBinding
	c                   *parts.Ctx
	Pose                tankPose
	prev                tankPose
	havePrev            bool
	prevSpeed, prevTurn float64
	sinceMark           float64
	Marks               []mark
	h                   parts.Handle
	tex                 parts.Tex
	at, prevAt          parts.Height
}

// New implements parts.Binding.
func (b *tracksBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	t := &Tracks{b: b, c: c, Marks: make([]mark, 0, 64)}
	t.tex, _ = c.Tex.Baked("trackMark")
	t.Update(row)
	t.h = c.Stage.Add(drawZ(1, t.at), t)
	return t
}

// Update implements parts.Part.
func (t *Tracks) Update(row []float32) {
	t.Pose = readTank(&t.b.f, row)
	t.at = t.Pose.height(t.c.Levels)
	if t.h != (parts.Handle{}) {
		t.h = t.c.Stage.Move(t.h, drawZ(1, t.at))
	}
}

// Step implements parts.Part: marks fade out over their lifetime and go.
func (t *Tracks) Step(dt float64) bool {
	if dt <= 0 {
		return true
	}
	n := 0
	for i := range t.Marks {
		m := &t.Marks[i]
		m.age += dt
		if m.age >= m.fade {
			continue
		}
		m.alpha = markAlpha * (1 - m.age/m.fade)
		if n != i {
			t.Marks[n] = *m // a mark before it went: close the gap
		}
		n++
	}
	t.Marks = t.Marks[:n]
	t.sinceMark += dt
	p := t.Pose
	if !t.havePrev {
		t.prev, t.prevAt, t.havePrev = p, t.at, true
		return true
	}
	speed := math.Hypot(p.x-t.prev.x, p.y-t.prev.y)
	turn := math.Abs(angle.Normalize(p.angle - t.prev.angle))
	if math.IsNaN(turn) {
		turn = 0 // an angle that is not a number turns nothing
	}
	accel := math.Abs(speed - t.prevSpeed)
	turnAccel := math.Abs(turn - t.prevTurn)
	leave := p.cond != 0 && t.sinceMark > 2 && (accel > 4 || (speed > 1.4 && (turn > 0.02 || turnAccel > 0.4)))
	if leave || p.load > 1 {
		t.leave()
		t.sinceMark = 0
	}
	t.prev, t.prevSpeed, t.prevTurn, t.prevAt = p, speed, turn, t.at
	return true
}

func (t *Tracks) leave() {
	size := float64(t.prev.size)
	lat := size * 3 / 2 * 0.7
	back := size * 3 * 0.4
	a := t.prev.angle
	for _, s := range [2]float64{-1, 1} {
		if len(t.Marks) >= maxMarks {
			return
		}
		x := t.prev.x + s*lat*math.Cos(a+math.Pi/2) - back*math.Cos(a)
		y := t.prev.y + s*lat*math.Sin(a+math.Pi/2) - back*math.Sin(a)
		l, w := 0.5*size, 0.4*size
		m := parts.Identity().Scale(l/trackMarkW, w/trackH).Translate(-l/2, -w/2).Rotate(a).Translate(x, y)
		if level, ok := parts.OnLevel(t.prevAt.H); ok {
			h := float64(level)
			d := t.c.Stage.Decals(drawZ(1, parts.Height{Level: level, H: h}), h, markFade)
			d.Paint(t.tex, parts.Rect{W: trackMarkW, H: trackH}, m, parts.White().WithAlpha(markAlpha))
			continue
		}
		t.Marks = append(t.Marks, mark{m: m, fade: uniform(t.c.Rand, 1800, 2500), alpha: markAlpha, h: t.prevAt.H})
	}
}

// Destroy implements parts.Part: the marks between levels go with the
// tank; those on the ground decal layers stay until they have faded.
func (t *Tracks) Destroy(parts.Removal) { t.c.Stage.Remove(t.h) }

// Draw implements parts.Drawable: marks 0.5·size long, 0.4·size wide.
func (t *Tracks) Draw(g parts.Gfx) {
	h := math.NaN() // the height the gfx is elevated to; marks of a stretch share one
	for i := range t.Marks {
		m := &t.Marks[i]
		if m.h != h {
			h = m.h
			g.Elevate(h)
		}
		g.Image(t.tex, parts.Rect{W: trackMarkW, H: trackH}, m.m, parts.White().WithAlpha(m.alpha))
	}
}
