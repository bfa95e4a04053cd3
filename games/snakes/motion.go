// Package snakes is the snakes game's local prediction:
// the head's turn and speed, the breadcrumb body path and its trim, the
// 16-point resample of the s1 row, and the clientcore.Game that predicts
// the own snake with them. Remote snakes are interpolated by the core.
package snakes

import (
	"math"

	"vimpclient/internal/angle"
)

// Model holds the motion constants of a snake model (s1 in the game data).
type Model struct {
	BaseSpeed        float32
	BoostFactor      float32
	TurnSpeed        float32
	BaseRadius       float32
	RadiusGain       float32
	BaseLength       float32
	LengthPerCrystal float32
	PointSpacing     float32
	BoostMinCrystals float32
	// TurnSpeedFalloff and TurnSpeedMin make a fat snake steer heavier:
	// the turn rate falls with the square root of the crystals carried,
	// never below the floor. Hosts of the older game declare neither (no
	// falloff).
	TurnSpeedFalloff float32
	TurnSpeedMin     float32
}

// TurnRate is the turn rate (radians per second) of a snake carrying
// crystals: TurnSpeed less TurnSpeedFalloff per square root of a crystal,
// held at TurnSpeedMin. Without a falloff it is TurnSpeed at any size.
func (m *Model) TurnRate(crystals float32) float32 {
	if !(m.TurnSpeedFalloff > 0) || !(crystals > 0) {
		return m.TurnSpeed
	}
	r := m.TurnSpeed - m.TurnSpeedFalloff*float32(math.Sqrt(float64(crystals)))
	return max(r, min(m.TurnSpeedMin, m.TurnSpeed))
}

// S1 returns the snakes model s1 with the reference game's figures.
func S1() Model {
	return Model{BaseSpeed: 260, BoostFactor: 1.9, TurnSpeed: 3.4, BaseRadius: 14, RadiusGain: 1.6,
		BaseLength: 150, LengthPerCrystal: 9, PointSpacing: 6, BoostMinCrystals: 2}
}

// aimDeadZone: an aim point this close to the head does not turn it.
const aimDeadZone = 4

// SpinePoints is the number of points of the s1 row's spine.
const SpinePoints = 16

// MaxPathNodes bounds the body path; a longer body loses its tail nodes.
const MaxPathNodes = 8192

// Controls is the input of one step.
type Controls struct {
	Left, Right, Boost bool
	Aim                bool
	AimX, AimY         float32
}

// Snake is the simulated own snake: the head, its facing, the carried
// crystals and the body length the host trims to, and the body path.
type Snake struct {
	X, Y, Angle float32
	Crystals    float32
	Length      float32
	Alive       bool
	// Grace is the seconds of spawn grace left: until it runs out the
	// snake stands still (the host's player block says how much is left;
	// older hosts send 0).
	Grace float32
	Path  Path
}

// Path is the body polyline as a ring of nodes, node 0 being the live head.
type Path struct {
	nodes [MaxPathNodes][2]float32
	front int // index of node 0
	n     int
}

// Len is the number of nodes.
func (p *Path) Len() int { return p.n }

// At returns node i (0 = head).
func (p *Path) At(i int) (float32, float32) {
	v := p.nodes[(p.front+i)%MaxPathNodes]
	return v[0], v[1]
}

func (p *Path) set(i int, x, y float32) { p.nodes[(p.front+i)%MaxPathNodes] = [2]float32{x, y} }

// Reset makes the path two copies of (x, y), or empty when clear is set.
func (p *Path) Reset(x, y float32) {
	p.front, p.n = 0, 2
	p.nodes[0] = [2]float32{x, y}
	p.nodes[1] = [2]float32{x, y}
}

// LayOut makes the path a straight body of the given length behind the
// head (x, y) facing ang (radians), a node every spacing units: a snake
// that spawns whole. A length or spacing that is not positive gives the
// head alone; the nodes are bounded by the ring.
func (p *Path) LayOut(x, y, ang, length, spacing float32) {
	p.Reset(x, y)
	if !(length > 0) || !(spacing > 0) || math.IsInf(float64(length), 0) {
		return
	}
	n := min(int(math.Ceil(float64(length/spacing))), MaxPathNodes-1)
	sn, cs := math.Sincos(float64(ang))
	p.Clear()
	for k := n; k >= 0; k-- {
		d := min(float32(k)*spacing, length)
		p.pushFront(x-float32(cs)*d, y-float32(sn)*d)
	}
}

// Clear empties the path.
func (p *Path) Clear() { p.front, p.n = 0, 0 }

// SetHead moves node 0 (a correction keeps the body's predicted shape).
func (p *Path) SetHead(x, y float32) {
	if p.n == 0 {
		p.Reset(x, y)
		return
	}
	p.set(0, x, y)
}

func (p *Path) pushFront(x, y float32) {
	if p.n == MaxPathNodes {
		p.n--
	}
	p.front = (p.front + MaxPathNodes - 1) % MaxPathNodes
	p.n++
	p.set(0, x, y)
}

func hypot32(x, y float32) float32 { return float32(math.Hypot(float64(x), float64(y))) }

// Step advances the snake by one step of dt seconds.
// The boost drain, collisions, pickups and death stay with the host.
func (m *Model) Step(s *Snake, c Controls, dt float32) {
	boosting := c.Boost && s.Crystals > m.BoostMinCrystals
	maxStep := m.TurnRate(s.Crystals) * dt
	var d float32
	if c.Aim && !c.Left && !c.Right {
		dx, dy := c.AimX-s.X, c.AimY-s.Y
		if hypot32(dx, dy) > aimDeadZone {
			want := float32(math.Atan2(float64(dy), float64(dx)))
			d = min(max(angle.Normalize(want-s.Angle), -maxStep), maxStep)
		}
	} else {
		if c.Left {
			d -= maxStep
		}
		if c.Right {
			d += maxStep
		}
	}
	s.Angle = angle.Normalize(s.Angle + d)
	speed := m.BaseSpeed
	if boosting {
		speed *= m.BoostFactor
	}
	sn, cs := math.Sincos(float64(s.Angle))
	s.X += float32(cs) * speed * dt
	s.Y += float32(sn) * speed * dt
	p := &s.Path
	if p.n < 2 {
		p.Reset(s.X, s.Y)
	} else {
		p.set(0, s.X, s.Y)
		x1, y1 := p.At(1)
		if hypot32(s.X-x1, s.Y-y1) >= m.PointSpacing {
			p.pushFront(s.X, s.Y)
		}
	}
	p.Trim(s.Length)
}

// Trim cuts the path to length l: the node past the cut moves to the exact
// cut point and everything after it goes. A shorter path is left alone;
// l ≤ 0 keeps only the head.
func (p *Path) Trim(l float32) {
	if p.n == 0 {
		return
	}
	if l <= 0 || l != l {
		p.n = 1
		return
	}
	var sum float32
	for i := 1; i < p.n; i++ {
		ax, ay := p.At(i - 1)
		bx, by := p.At(i)
		seg := hypot32(bx-ax, by-ay)
		if sum+seg >= l {
			if seg > 0 {
				f := (l - sum) / seg
				p.set(i, ax+(bx-ax)*f, ay+(by-ay)*f)
			}
			p.n = i + 1
			return
		}
		sum += seg
	}
}

// Resample writes the 16 spine points (x, y pairs, head first) evenly
// spaced along the path; a path of zero length gives 16 copies of the head.
func (p *Path) Resample(dst *[2 * SpinePoints]float32) {
	if p.n == 0 {
		clear(dst[:])
		return
	}
	hx, hy := p.At(0)
	var total float32
	for i := 1; i < p.n; i++ {
		ax, ay := p.At(i - 1)
		bx, by := p.At(i)
		total += hypot32(bx-ax, by-ay)
	}
	dst[0], dst[1] = hx, hy
	if total <= 0 {
		for k := 1; k < SpinePoints; k++ {
			dst[2*k], dst[2*k+1] = hx, hy
		}
		return
	}
	stride := total / (SpinePoints - 1)
	seg := 1
	var walked float32 // length up to node seg-1
	for k := 1; k < SpinePoints; k++ {
		target := stride * float32(k)
		for seg < p.n {
			ax, ay := p.At(seg - 1)
			bx, by := p.At(seg)
			l := hypot32(bx-ax, by-ay)
			if walked+l >= target || seg == p.n-1 {
				f := float32(1)
				if l > 0 {
					f = min(max((target-walked)/l, 0), 1)
				}
				dst[2*k], dst[2*k+1] = ax+(bx-ax)*f, ay+(by-ay)*f
				break
			}
			walked += l
			seg++
		}
	}
}

// Radius is the body half-thickness for a crystal count.
func (m *Model) Radius(crystals float32) float32 {
	return m.BaseRadius + m.RadiusGain*float32(math.Sqrt(float64(max(crystals, 0))))
}
