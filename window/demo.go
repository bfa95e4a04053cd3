package window

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"vimpclient/demo"
	"vimpclient/fonts"
	"vimpclient/gameloop"
	"vimpclient/hud"
	"vimpclient/render"
	"vimpclient/world"
)

// seekStep is how far the arrow keys seek.
const seekStep = 5 * time.Second

// demoPlay is a demo in the window: its own keys instead of the game's, and
// a timeline at the bottom.
//
//	Space pause · ←/→ seek 5 s · ↑/↓ speed · Home restart · [ ] follow the
//	previous/next player · F follow the recorded player · click the timeline
type demoPlay struct {
	d       *demo.Demo
	fonts   *fonts.Fonts
	actors  []world.Actor
	bar     *ebiten.Image
	status  string // the status line, rebuilt when it changes
	key     statusKey
	textOp  text.DrawOptions
	barRect [4]float64 // timeline in device px: x, y, w, h
	// inHome is set for a demo opened from the start screen, whose end
	// card also offers another demo and the way back to the menu.
	inHome bool
}

type statusKey struct {
	sec, length int
	speed       float64
	paused      bool
	follow      world.Actor
	following   bool
	name        string // the followed player's nick ("" unknown)
}

// NewDemo builds the window for a demo, drawing with renderer.
func NewDemo(ctx context.Context, d *demo.Demo, renderer *render.Renderer, o Options) (*Window, error) {
	f, err := fonts.New()
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	w, err := newWindow(ctx, &demoPlay{d: d, fonts: f}, renderer, o)
	if err != nil {
		return nil, err
	}
	w.hud.WatchLift = 44 // over the timeline and its status line
	return w, nil
}

func (p *demoPlay) Loop() *gameloop.Loop { return p.d.Loop() }

// Tick implements play. At the end of the recording the game stays drawn
// as it was, under the end card, instead of the recorded connection's
// closing screen.
func (p *demoPlay) Tick(now time.Time) {
	p.d.Tick(now)
	if p.d.Ended() {
		p.d.Loop().HUD().Tech.Shown = false
	}
}

// Controls implements play: the demo's keys and the timeline click.
func (p *demoPlay) Controls(w *Window) {
	d := p.d
	if d.Ended() {
		switch {
		case inpututil.IsKeyJustPressed(ebiten.KeyR), inpututil.IsKeyJustPressed(ebiten.KeyEnter), inpututil.IsKeyJustPressed(ebiten.KeyHome):
			d.Seek(0)
			d.SetPaused(false)
			return
		case inpututil.IsKeyJustPressed(ebiten.KeyEscape), inpututil.IsKeyJustPressed(ebiten.KeyQ):
			w.quit = true
			return
		}
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeySpace):
		d.SetPaused(!d.Paused())
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowLeft):
		d.Seek(d.Position() - seekStep)
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowRight):
		d.Seek(d.Position() + seekStep)
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowUp):
		d.Faster()
	case inpututil.IsKeyJustPressed(ebiten.KeyArrowDown):
		d.Slower()
	case inpututil.IsKeyJustPressed(ebiten.KeyHome):
		d.Seek(0)
	case inpututil.IsKeyJustPressed(ebiten.KeyF):
		d.Loop().World().Unfollow()
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketRight):
		p.cycle(1)
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketLeft):
		p.cycle(-1)
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		r := p.barRect
		if fx, fy := float64(x), float64(y); r[2] > 0 && fx >= r[0] && fx <= r[0]+r[2] && fy >= r[1]-r[3] && fy <= r[1]+2*r[3] {
			d.Seek(time.Duration((fx - r[0]) / r[2] * float64(d.Length())))
		}
	}
}

// cycle follows the next (dir 1) or previous (-1) player.
func (p *demoPlay) cycle(dir int) {
	w := p.d.Loop().World()
	p.actors = w.Actors(p.actors[:0])
	if len(p.actors) == 0 {
		return
	}
	slices.SortFunc(p.actors, func(a, b world.Actor) int {
		if a.Key != b.Key {
			if a.Key < b.Key {
				return -1
			}
			return 1
		}
		return int(a.ID) - int(b.ID)
	})
	i := 0
	if cur, ok := w.Following(); ok {
		i = slices.Index(p.actors, cur)
		i = (i + dir + len(p.actors)) % len(p.actors)
	} else if dir < 0 {
		i = len(p.actors) - 1
	}
	w.Follow(p.actors[i])
}

// Overlay implements play: the timeline and the status line.
func (p *demoPlay) Overlay(w *Window, screen *ebiten.Image) {
	if p.bar == nil {
		p.bar = ebiten.NewImage(1, 1)
		p.bar.Fill(color.White)
	}
	d := p.d
	b := screen.Bounds()
	s := w.dpr
	x, y, bw, bh := 20*s, float64(b.Dy())-24*s, float64(b.Dx())-40*s, 6*s
	p.barRect = [4]float64{x, y, bw, bh}
	frac := 0.0
	if d.Length() > 0 {
		frac = float64(d.Position()) / float64(d.Length())
	}
	var op ebiten.DrawImageOptions
	op.GeoM.Scale(bw, bh)
	op.GeoM.Translate(x, y)
	op.ColorScale.Scale(0.3, 0.3, 0.3, 0.8)
	screen.DrawImage(p.bar, &op)
	op.GeoM.Reset()
	op.GeoM.Scale(bw*frac, bh)
	op.GeoM.Translate(x, y)
	op.ColorScale.Reset()
	op.ColorScale.Scale(0.2, 0.8, 0.75, 1)
	screen.DrawImage(p.bar, &op)

	k := statusKey{sec: int(d.Position() / time.Second), length: int(d.Length() / time.Second), speed: d.Speed(), paused: d.Paused()}
	k.follow, k.following = d.Loop().World().Following()
	if k.following {
		k.name = d.Loop().HUD().Watching
	}
	if k != p.key || p.status == "" {
		p.key = k
		p.status = fmt.Sprintf("%d:%02d / %d:%02d   %g×", k.sec/60, k.sec%60, k.length/60, k.length%60, k.speed)
		if k.paused {
			p.status += "   paused"
		}
		if k.following {
			name := k.name
			if name == "" {
				name = fmt.Sprintf("player %d", k.follow.ID)
			}
			p.status += "   following " + name
		}
		p.status += "   Space pause · ←/→ seek · ↑/↓ speed · [ ] player · F recorded view"
	}
	face := p.fonts.Face(false, 13*s)
	p.textOp.GeoM.Reset()
	p.textOp.GeoM.Translate(x, y-18*s)
	p.textOp.ColorScale.Reset()
	text.Draw(screen, p.status, face, &p.textOp)
	if d.Ended() {
		// Clear of the timeline's status line and the "Watching" line
		// above it.
		p.drawEndCard(screen, s, p.centreBoxes(w), y-18*s-40*s)
	}
}

// The end card's lines: what ended, and the keys that go on from there.
const (
	endTitle = "End of the demo"
	endKeys  = "R  watch it again   ·   ←  back 5 s   ·   Esc  close"
	// endKeysHome are the end card's keys for a demo opened from the
	// start screen.
	endKeysHome = "R  watch it again   ·   O  open another   ·   Esc  back to the menu"
)

// centreBoxes are the HUD's boxes shown now in the middle of the screen,
// in device px: the round's banner and the game's line, and the game's
// result card.
func (p *demoPlay) centreBoxes(w *Window) []hud.Rect {
	h := p.d.Loop().HUD()
	if !h.ModulesReady {
		return nil
	}
	l := w.hud.Layout()
	var out []hud.Rect
	if h.Accolades.BannerShown && !h.Stat.Visible {
		out = append(out, l.Banner)
	}
	if h.Game.Shown {
		out = append(out, l.Inform)
	}
	if h.Crash.Shown && h.Crash.Spec != nil {
		card, _ := w.hud.CrashCardRect(&h.Crash, l.W, l.H)
		out = append(out, card)
	}
	hs := w.hudDPR()
	for i, r := range out {
		out[i] = hud.Rect{X: r.X * hs, Y: r.Y * hs, W: r.W * hs, H: r.H * hs}
	}
	return out
}

// endCardY is where the end card (cw×ch device px, centred across a w×ht
// screen) goes: in the middle of the screen when none of boxes is there,
// else just below them (above bottom), else just above them (below top),
// else in the middle anyway.
func endCardY(w, ht, cw, ch, top, bottom float64, boxes []hud.Rect) float64 {
	x := (w - cw) / 2
	mid := (ht - ch) / 2
	const gap = 12
	hit := func(y float64) (hud.Rect, bool) {
		c := hud.Rect{X: x, Y: y, W: cw, H: ch}
		for _, b := range boxes {
			if b.W > 0 && b.H > 0 && c.Intersects(b) {
				return b, true
			}
		}
		return hud.Rect{}, false
	}
	y := mid
	for range len(boxes) + 1 { // each step passes one box
		b, ok := hit(y)
		if !ok {
			if y+ch <= bottom {
				return y
			}
			break
		}
		y = b.Y + b.H + gap
	}
	y = mid
	for range len(boxes) + 1 {
		b, ok := hit(y)
		if !ok {
			if y >= top {
				return y
			}
			break
		}
		y = b.Y - gap - ch
	}
	return mid
}

// drawEndCard draws the card over the last picture of the match: the
// recording has ended, and what the keys do now. It keeps clear of boxes
// (the HUD's in the middle of the screen), above bottom.
func (p *demoPlay) drawEndCard(screen *ebiten.Image, s float64, boxes []hud.Rect, bottom float64) {
	b := screen.Bounds()
	title, keys := p.fonts.Face(true, 28*s), p.fonts.Face(false, 16*s)
	endKeys := endKeys
	if p.inHome {
		endKeys = endKeysHome
	}
	tw, _ := text.Measure(endTitle, title, 0)
	kw, _ := text.Measure(endKeys, keys, 0)
	cw := max(tw, kw) + 60*s
	ch := 110 * s
	cx := (float64(b.Dx()) - cw) / 2
	cy := endCardY(float64(b.Dx()), float64(b.Dy()), cw, ch, hud.PanelH*s, bottom, boxes)
	var op ebiten.DrawImageOptions
	op.GeoM.Scale(cw, ch)
	op.GeoM.Translate(cx, cy)
	op.ColorScale.Scale(0, 0, 0, 0.8)
	screen.DrawImage(p.bar, &op)
	p.textOp.GeoM.Reset()
	p.textOp.GeoM.Translate(cx+(cw-tw)/2, cy+20*s)
	p.textOp.ColorScale.Reset()
	text.Draw(screen, endTitle, title, &p.textOp)
	p.textOp.GeoM.Reset()
	p.textOp.GeoM.Translate(cx+(cw-kw)/2, cy+70*s)
	p.textOp.ColorScale.Reset()
	p.textOp.ColorScale.Scale(0.8, 0.8, 0.8, 1)
	text.Draw(screen, endKeys, keys, &p.textOp)
}
