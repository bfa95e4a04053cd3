package window

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"vimpclient/demo"
	"vimpclient/hud"
	"vimpclient/hud/startscreen"
	"vimpclient/render"
)

// The start screen in the window, and the screens it opens in place: the
// connecting screen of a match (shown from the first frame, counting the
// attempts and saying the last error, until the host answers), the match
// itself, a lobby master's server browser, a demo. Esc goes back one
// screen (from a match only when nothing on its HUD takes Esc); a match
// that ends by itself goes back to the start screen with why.

// MenuLabel is the M menu's entry back to the start screen.
const MenuLabel = "Main menu (Esc)"

// Home is what the start screen opens; the wiring builds each.
type Home struct {
	// Menu is the start screen's model.
	Menu *startscreen.Menu
	// Connect starts a match for a startscreen.Offline or startscreen.Join choice; it
	// returns at once, the match connecting in the background. A match
	// whose address is a lobby master's ends with Master (see Redirect).
	Connect func(ctx context.Context, c startscreen.Choice) (Match, error)
	// Label names a choice on the connecting screen (nil: its Value).
	Label func(c startscreen.Choice) string
	// Browse opens the server browser of the lobby master at an address
	// a match found one at.
	Browse func(ctx context.Context, master string) (Lobby, error)
	// Demo opens a recording (nil: no demos).
	Demo func(ctx context.Context, path string) (*demo.Demo, error)
	// Start, if set, is opened at once (an address on the command line).
	Start *startscreen.Choice
	// Silence stops the sounds of a match leaving the screen (nil: none).
	Silence func()
	// Notice, if set, is asked each time the start screen comes up for what
	// the player must be told that no screen said yet (a store set aside
	// because it could not be read): "" when nothing.
	Notice func() string
}

// Redirect is a Match that may find a lobby master instead of a host at
// its address: once it is Done, Master is the master's address ("" when
// it was not one), and the window opens that master's server browser.
type Redirect interface {
	Master() string
}

// homeScreen is the window's start screen and what it opened.
type homeScreen struct {
	cfg    Home
	kb     *keyboard // the settings overlay's keys on the start screen
	codes  []int
	chars  []rune
	choice startscreen.Choice // what the connecting screen connects to
	// connecting is whether the connecting screen is up (match may be
	// nil then: the last one ended and R starts another).
	connecting bool
	conn       hud.Connecting
	match      Match
	shown      bool // match is on screen
	demo       *demo.Demo
	stops      sync.WaitGroup // matches being stopped in the background
	browser    func()         // closes the open browser's backend (nil: none open)
}

// ErrNoHome refuses a start screen without a menu or a way to connect.
var ErrNoHome = errors.New("window: a start screen needs a menu and a connect")

// NewHome builds a window that opens on the start screen, or at once on
// Home.Start's connecting screen; the matches it starts are drawn with
// renderer, whose textures their loops' worlds must use.
func NewHome(ctx context.Context, h Home, renderer *render.Renderer, o Options) (*Window, error) {
	if h.Menu == nil || h.Connect == nil {
		return nil, ErrNoHome
	}
	w, err := newWindow(ctx, nil, renderer, o)
	if err != nil {
		return nil, err
	}
	w.home = &homeScreen{cfg: h, kb: &keyboard{w: w}}
	w.home.tell("", false)
	if h.Start != nil {
		w.home.open(w, *h.Start)
	}
	return w, nil
}

// homeUpdate runs the start screen's part of a frame. It reports whether
// a screen of its own is up (then nothing else is ticked): false while a
// match or a demo plays.
func (w *Window) homeUpdate(now time.Time) bool {
	s := w.home
	esc := inpututil.IsKeyJustPressed(ebiten.KeyEscape) && !w.menu.Open
	if w.lobby != nil {
		if b := w.lobby.cfg.Browser; esc && !w.lobby.shown && !b.Searching && b.Joining == nil {
			s.closeBrowser(w)
			return true
		}
		return w.lobbyUpdate(now)
	}
	if s.demo != nil {
		if esc {
			s.closeDemo(w)
			return true
		}
		if s.demo.Ended() && inpututil.IsKeyJustPressed(ebiten.KeyO) && !w.menu.Open {
			// Another demo: the Demos page, the newest recording ready.
			s.closeDemo(w)
			s.cfg.Menu.OpenPage(startscreen.Demos)
			return true
		}
		return false
	}
	if s.match != nil {
		select {
		case <-s.match.Done():
			s.ended(w)
		default:
		}
	}
	if s.match != nil && s.shown {
		l := s.match.Loop()
		if l.BrowserAsked() || (esc && escapeFree(l.HUD())) {
			s.leave(w, "", false)
			return true
		}
		return false
	}
	if s.connecting {
		s.connectingUpdate(w, now)
		return true
	}
	s.input(w, now)
	for _, c := range s.cfg.Menu.Choices() {
		s.open(w, c)
	}
	return true
}

// connectingUpdate runs the match being connected without input until its
// host answers (a CONFIG_DATA or an auth form), and reads R and Esc.
func (s *homeScreen) connectingUpdate(w *Window, now time.Time) {
	if s.match != nil {
		l := s.match.Loop()
		l.Tick(now)
		if !l.ConfigAt().IsZero() || l.HUD().AuthOpen() {
			s.show(w)
			return
		}
		s.conn.Follow(&l.HUD().Reconnect)
	}
	if w.menu.Open {
		s.kb.menuInput(nil, 0, 0, w.ms(now))
		return
	}
	s.codes = w.reader.JustPressed(s.codes[:0])
	for _, code := range s.codes {
		switch code {
		case hud.ConnectRetryKey:
			s.stop(w)
			s.open(w, s.choice)
			return
		case hud.ConnectBackKey:
			s.stop(w)
			s.connecting = false
			return
		}
	}
}

// open acts on a choice of the start screen.
func (s *homeScreen) open(w *Window, c startscreen.Choice) {
	switch c.Kind {
	case startscreen.Offline, startscreen.Join, startscreen.Browse:
		// A master chosen to browse is probed as any address is: the
		// connecting screen stays until it answers as one.
		s.choice, s.connecting = c, true
		label := c.Value
		if s.cfg.Label != nil {
			label = s.cfg.Label(c)
		}
		s.conn = hud.NewConnecting(label)
		m, err := s.cfg.Connect(w.ctx, c)
		if err != nil {
			s.conn.End(err.Error())
			return
		}
		s.match = m
		w.applyLoop(m.Loop()) // the palette known before the textures are drawn
		w.opts.Log.Info("connecting", "address", label)
	case startscreen.Demos:
		s.openDemo(w, c.Value)
	case startscreen.Settings:
		w.toggleMenu()
	case startscreen.Quit:
		w.quit = true
	}
}

// ended handles a match that ended by itself: a master found at its
// address opens its browser; a match on screen goes back to the start
// screen with why; a match connecting leaves its connecting screen up,
// saying why the attempts stopped.
func (s *homeScreen) ended(w *Window) {
	m := s.match
	reason, failed := m.End()
	if r, ok := m.(Redirect); ok && r.Master() != "" {
		s.stop(w)
		s.connecting = false
		s.openBrowser(w, r.Master())
		return
	}
	if s.shown {
		s.leave(w, reason, failed)
		return
	}
	s.stop(w)
	s.conn.End(reason)
}

// show puts the connected match on screen.
func (s *homeScreen) show(w *Window) {
	s.shown, s.connecting = true, false
	w.onScreen(s.match.Loop(), MenuLabel, s.conn.Address)
}

// leave takes the match off the screen and goes back to the start screen,
// saying why when reason is set.
func (s *homeScreen) leave(w *Window, reason string, failed bool) {
	s.stop(w)
	s.tell(reason, failed)
}

// tell sets the start screen's status line to reason, followed by Notice's
// sentence when it has one (a notice is a failure: something was wrong).
func (s *homeScreen) tell(reason string, failed bool) {
	if s.cfg.Notice != nil {
		if n := s.cfg.Notice(); n != "" {
			reason, failed = strings.TrimSpace(strings.TrimSuffix(reason, ".")+". "+n), true
			reason = strings.TrimPrefix(reason, ". ")
		}
	}
	s.cfg.Menu.Say(reason, failed)
}

// stop ends the match, if any, in the background (the window goes on at
// once) and takes it off the screen.
func (s *homeScreen) stop(w *Window) {
	m := s.match
	if m == nil {
		return
	}
	s.match = nil
	if s.shown {
		s.shown = false
		w.offScreen(s.cfg.Silence)
	}
	s.stops.Add(1)
	go func() {
		defer s.stops.Done()
		m.Stop()
	}()
}

// openBrowser opens master's server browser in place of the start screen.
func (s *homeScreen) openBrowser(w *Window, master string) {
	if s.cfg.Browse == nil {
		s.cfg.Menu.Say(master+" is a lobby master, and this window cannot browse one", true)
		return
	}
	l, err := s.cfg.Browse(w.ctx, master)
	if err == nil {
		err = w.startLobby(l)
	}
	if err != nil {
		s.cfg.Menu.Say(master+": "+err.Error(), true)
		return
	}
	s.browser = l.Close
	ebiten.SetWindowTitle(w.title() + " — " + master)
}

// closeBrowser ends the browser's matches and its backend in the
// background and goes back to the start screen.
func (s *homeScreen) closeBrowser(w *Window) {
	l, done := w.lobby, s.browser
	w.lobby, s.browser = nil, nil
	if l.shown {
		w.offScreen(s.cfg.Silence)
	}
	s.stops.Add(1)
	go func() {
		defer s.stops.Done()
		l.stopAll()
		if done != nil {
			done()
		}
	}()
	ebiten.SetWindowTitle(w.title())
}

// openDemo plays a recording in place of the start screen.
func (s *homeScreen) openDemo(w *Window, path string) {
	if s.cfg.Demo == nil {
		return
	}
	d, err := s.cfg.Demo(w.ctx, path)
	if err != nil {
		s.cfg.Menu.Say(err.Error(), true)
		return
	}
	s.demo = d
	w.play = &demoPlay{d: d, fonts: w.hud.Fonts(), inHome: true}
	w.applyLoop(d.Loop())
	ebiten.SetWindowTitle(w.title() + " — " + path)
}

// closeDemo ends the demo and goes back to the start screen.
func (s *homeScreen) closeDemo(w *Window) {
	d := s.demo
	s.demo = nil
	w.offScreen(s.cfg.Silence)
	d.Close()
}

// stopAll ends everything the start screen opened and waits for it.
func (s *homeScreen) stopAll(w *Window) {
	if s.demo != nil {
		s.closeDemo(w)
	}
	if w.lobby != nil {
		s.closeBrowser(w)
	}
	if m := s.match; m != nil {
		s.match = nil
		m.Stop()
	}
	s.stops.Wait()
}

// input feeds the start screen this frame's keys, text, clicks and wheel,
// or the settings overlay while it is open.
func (s *homeScreen) input(w *Window, now time.Time) {
	w.screenInput(s.kb, s.cfg.Menu, &s.codes, &s.chars, now)
}

// drawHome draws the start screen's own screens (the window has no play
// on screen); it reports whether it drew one.
func (w *Window) drawHome(screen *ebiten.Image, now, scale float64) bool {
	s := w.home
	switch {
	case s == nil || w.lobby != nil:
		return false
	case s.connecting:
		if s.match != nil {
			now = s.match.Loop().NowMs() // the clock the countdown is on
		}
		w.hud.DrawConnecting(screen, &s.conn, now, scale)
	default:
		w.hud.DrawStart(screen, s.cfg.Menu, now, scale)
	}
	return true
}
