package render

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// The window tests share one Ebiten loop (RunGame runs once per process,
// on the main thread): each test hands a job to the driver and waits.

const winW, winH = 960, 540

// testGame is what the driver runs: a scene under test (a world drawn by a
// renderer), or a whole game loop.
type testGame interface {
	Update() error
	Draw(screen *ebiten.Image)
	LayoutF(w, h float64) (float64, float64)
}

type job struct {
	g      testGame
	frames int
	each   func(screen *ebiten.Image, frame int)
	until  func() bool // optional: ends the job early once true
	w, h   float64     // layout size; 0 = winW×winH
	done   chan struct{}
	err    error // what the game's Update returned when it ended the job
}

type driver struct {
	jobs  chan *job
	stop  chan struct{}
	cur   *job
	frame int
}

func (d *driver) Update() error {
	if d.cur == nil {
		select {
		case d.cur = <-d.jobs:
			d.frame = 0
		case <-d.stop:
			return ebiten.Termination
		default:
			return nil
		}
	}
	w, h := d.cur.w, d.cur.h
	if w == 0 {
		w, h = winW, winH
	}
	d.cur.g.LayoutF(w, h)
	if err := d.cur.g.Update(); err != nil {
		// The game under test ended (e.g. after its screenshot): finish its job.
		d.cur.err = err
		close(d.cur.done)
		d.cur = nil
	}
	return nil
}

func (d *driver) Draw(screen *ebiten.Image) {
	if d.cur == nil {
		return
	}
	d.cur.g.Draw(screen)
	if d.cur.each != nil {
		d.cur.each(screen, d.frame)
	}
	d.frame++
	if d.frame >= d.cur.frames || (d.cur.until != nil && d.cur.until()) {
		close(d.cur.done)
		d.cur = nil
	}
}

func (d *driver) Layout(int, int) (int, int) {
	if d.cur != nil && d.cur.w != 0 {
		return int(d.cur.w), int(d.cur.h)
	}
	return winW, winH
}

var theDriver = &driver{jobs: make(chan *job), stop: make(chan struct{})}

func TestMain(m *testing.M) {
	ebiten.SetWindowSize(winW, winH)
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	code := make(chan int, 1)
	go func() {
		c := m.Run()
		close(theDriver.stop)
		code <- c
	}()
	if err := ebiten.RunGame(theDriver); err != nil {
		fmt.Fprintln(os.Stderr, "ebiten:", err)
		os.Exit(1)
	}
	os.Exit(<-code)
}

// run plays g for frames frames, calling each after every Draw.
func run(t testing.TB, g testGame, frames int, each func(*ebiten.Image, int)) error {
	return runUntil(t, g, frames, each, nil)
}

// runUntil is run that also ends once until reports true.
func runUntil(t testing.TB, g testGame, frames int, each func(*ebiten.Image, int), until func() bool) error {
	t.Helper()
	j := &job{g: g, frames: frames, each: each, until: until, done: make(chan struct{})}
	select {
	case theDriver.jobs <- j:
	case <-time.After(time.Minute):
		t.Fatal("window loop not running")
	}
	select {
	case <-j.done:
	case <-time.After(5 * time.Minute):
		t.Fatal("window job did not finish")
	}
	return j.err
}
