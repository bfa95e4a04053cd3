package view

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/netgraph"
)

func TestFormat(t *testing.T) {
	s := netgraph.Summary{PingMs: 83.4, JitterMs: 4.25, HasPing: true, HasJitter: true, FramesPerSec: 30, Buffered: 3, LateTotal: 2, LatePerSec: 0.5,
		DroppedTotal: 1, DroppedPerSec: 0, ErrorNow: 0.031, ErrorMax: 0.4, Predicting: true, DelayMs: 117.6, FreezesTotal: 4}
	got := string(Format(nil, s))
	want := "ping 83 ms  jitter 4.2 ms\nframes 30.0/s  buffer 3\nlate 2 (0.5/s)\ndropped 1 (0.0/s)\ndelay 118 ms  freezes 4\npred err 0.03 max 0.40"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// Whatever the figures, every line fits the box.
	huge := netgraph.Summary{PingMs: 1e12, JitterMs: 1e9, HasPing: true, HasJitter: true, FramesPerSec: 1e6, Buffered: 1 << 40, LateTotal: 1 << 63,
		LatePerSec: 1e7, DroppedTotal: 1 << 63, DroppedPerSec: 1e7, ErrorNow: 1e9, ErrorMax: math.Inf(1), Predicting: true,
		DelayMs: math.Inf(1), FreezesTotal: 1 << 63}
	for _, s := range []netgraph.Summary{s, huge, {PingMs: math.NaN(), JitterMs: -3, DelayMs: math.NaN()}} {
		lines := strings.Split(string(Format(nil, s)), "\n")
		if len(lines) != TextLines {
			t.Fatalf("%d lines, want %d: %q", len(lines), TextLines, lines)
		}
		for _, l := range lines {
			if len(l) > TextColumns {
				t.Errorf("%q: %d glyphs, the box holds %d", l, len(l), TextColumns)
			}
		}
	}
	if got := string(Format(nil, netgraph.Summary{})); !strings.HasSuffix(got, "no prediction") || !strings.HasPrefix(got, "ping - ms  jitter - ms\n") {
		t.Fatalf("spectator lines %q", got)
	}
	buf := make([]byte, 0, 160)
	if a := testing.AllocsPerRun(100, func() { buf = Format(buf[:0], s) }); a != 0 {
		t.Fatalf("%v allocations", a)
	}
}

// drawGame draws the view for a few frames, then reads a pixel of the
// strip and stops.
type drawGame struct {
	v      *View
	g      *netgraph.Graph
	frames int
	pixel  [4]byte
	scaled [4]byte // the same column drawn by DrawAt at scale 2
	spill  int     // text pixels drawn right of the box
	big    *ebiten.Image
	now    float64
	c      netgraph.Counters
}

func (d *drawGame) Update() error {
	d.now += 1000.0 / 60
	d.c.Received++
	d.c.Buffered = 4
	d.g.Observe(d.now, d.c, netgraph.Prediction{Active: true})
	d.frames++
	if d.frames > 5 {
		return ebiten.Termination
	}
	return nil
}

func (d *drawGame) Draw(screen *ebiten.Image) {
	screen.Clear()
	d.v.Draw(screen, 0, 0)
	// Bottom row of the strip, rightmost column: a frame bar is there.
	c := screen.At(netgraph.History-1, textHeight+stripHeight-1)
	r, g, b, a := c.RGBA()
	d.pixel = [4]byte{byte(r >> 8), byte(g >> 8), byte(b >> 8), byte(a >> 8)}
	d.spill = 0
	for y := 0; y < textHeight; y++ {
		for x := Width; x < 320; x++ {
			if _, _, _, a := screen.At(x, y).RGBA(); a != 0 {
				d.spill++
			}
		}
	}
	if d.big == nil {
		d.big = ebiten.NewImage(600, 400)
	}
	d.big.Clear()
	d.v.DrawAt(d.big, 10, 20, 2)
	c = d.big.At(2*10+2*(Width-1)+1, 2*20+2*(Height-1)+1)
	r, g, b, a = c.RGBA()
	d.scaled = [4]byte{byte(r >> 8), byte(g >> 8), byte(b >> 8), byte(a >> 8)}
}

func (d *drawGame) Layout(int, int) (int, int) { return 320, 240 }

func TestDrawShowsTheStrip(t *testing.T) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		t.Skip("no display (make test runs under xvfb-run)")
	}
	g := netgraph.New()
	d := &drawGame{v: New(g, true), g: g}
	ebiten.SetWindowSize(320, 240)
	if err := ebiten.RunGame(d); err != nil && !errors.Is(err, ebiten.Termination) {
		t.Fatal(err)
	}
	if d.pixel[1] < 100 || d.pixel[1] <= d.pixel[0] {
		t.Fatalf("no frame bar drawn at the strip's edge: %v", d.pixel)
	}
	if d.spill != 0 {
		t.Errorf("%d text pixels right of the %d px box", d.spill, Width)
	}
	if d.scaled[1] < 100 || d.scaled[1] <= d.scaled[0] {
		t.Fatalf("DrawAt at scale 2: no frame bar at the scaled strip's corner: %v", d.scaled)
	}
}
