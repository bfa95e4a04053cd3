package window

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"vimpclient/gameloop"
	"vimpclient/hud"
	"vimpclient/hud/serverbrowser"
	"vimpclient/hud/settingsmenu"
	"vimpclient/input/ebiteninput"
	"vimpclient/render"
)

// The server browser in the window: pointed at a lobby master, the window
// opens on the master's rooms; a room chosen there is joined with a session
// and a loop of its own, shown once its host's CONFIG_DATA arrived; leaving
// it (Esc with nothing open, the menu's Server list entry, or the match
// ending by itself — a closed room, a refused sign-in, giving up) stops its
// session and shows the browser again, with the reason.

// BrowserLabel is the M menu's entry back to the server list.
const BrowserLabel = "Server list (Esc)"

// Lobby is what the window needs to browse a master's rooms and play them.
type Lobby struct {
	Browser *serverbrowser.Browser
	// Backend runs the browser's requests other than joins off the
	// window's goroutine.
	Backend Backend
	// Join starts a match for the player's choice; it returns at once,
	// the match connecting in the background.
	Join func(ctx context.Context, c serverbrowser.Choice) (Match, error)
	// Start, if set, is joined at once (a room named on the command line).
	Start *serverbrowser.Choice
	// Silence stops the sounds of a match leaving the screen (nil: none).
	Silence func()
	// Close ends the backend once the browser is closed (nil: nothing to
	// end); a window opened on the browser leaves it to the wiring.
	Close func()
}

// Backend runs the browser's requests.
type Backend interface {
	// Do starts a request; it never blocks.
	Do(r serverbrowser.Request)
	// Apply hands the answers that arrived since the last call to b; it
	// runs on the window's goroutine.
	Apply(b *serverbrowser.Browser)
}

// Match is one joined room or host: a session and its loop.
type Match interface {
	Loop() *gameloop.Loop
	// Done is closed when the match ended by itself.
	Done() <-chan struct{}
	// End says why it ended, once Done: "" and false when the player left.
	End() (reason string, failed bool)
	// Stop ends the match and returns once its session stopped.
	Stop()
}

// lobbyScreen is the window's browser and the match it started.
type lobbyScreen struct {
	cfg      Lobby
	match    Match     // joining or on screen (nil: none)
	shown    bool      // the match is on screen
	askedAt  time.Time // when the join was asked for
	joinTime time.Duration
	kb       *keyboard // the settings overlay's keys while browsing
	codes    []int
	chars    []rune
	stops    sync.WaitGroup // matches being stopped in the background
	status   string         // the last joining status from the match's HUD
}

// NewLobby builds a window that opens on the server browser; the matches
// it starts are drawn with renderer, whose textures their loops' worlds
// must use.
func NewLobby(ctx context.Context, l Lobby, renderer *render.Renderer, o Options) (*Window, error) {
	w, err := newWindow(ctx, nil, renderer, o)
	if err != nil {
		return nil, err
	}
	if err := w.startLobby(l); err != nil {
		return nil, err
	}
	return w, nil
}

// ErrNoBrowser refuses a lobby without a browser, backend or join.
var ErrNoBrowser = errors.New("window: a lobby needs a browser, a backend and a join")

func (w *Window) startLobby(l Lobby) error {
	if l.Browser == nil || l.Backend == nil || l.Join == nil {
		return ErrNoBrowser
	}
	w.lobby = &lobbyScreen{cfg: l, kb: &keyboard{w: w}}
	l.Browser.Refresh()
	if l.Start != nil {
		w.lobby.join(w, *l.Start, w.opts.Clock())
	}
	return nil
}

// browsing reports whether the browser is on screen.
func (w *Window) browsing() bool { return w.lobby != nil && !w.lobby.shown }

// JoinTime is how long the last join took from the player's choice to its
// host's CONFIG_DATA (0 before one).
func (w *Window) JoinTime() time.Duration {
	if w.lobby == nil {
		return 0
	}
	return w.lobby.joinTime
}

// lobbyUpdate runs the browser's part of a frame, before the play's tick:
// the backend's answers, the browser's requests, the match being joined,
// and the keys that leave a match. It reports whether the browser is on
// screen (then nothing else is ticked).
func (w *Window) lobbyUpdate(now time.Time) bool {
	s := w.lobby
	b := s.cfg.Browser
	s.cfg.Backend.Apply(b)
	b.Update(w.ms(now))
	if s.match != nil {
		select {
		case <-s.match.Done():
			reason, failed := s.match.End()
			s.leave(w, reason, failed)
		default:
		}
	}
	if s.shown {
		l := s.match.Loop()
		if l.BrowserAsked() || (inpututil.IsKeyJustPressed(ebiten.KeyEscape) && !w.menu.Open && escapeFree(l.HUD())) {
			s.leave(w, "", false)
		}
	}
	if s.match != nil && !s.shown {
		// Joining: the match's loop runs without input until its host's
		// configuration arrives.
		l := s.match.Loop()
		l.Tick(now)
		if t := l.Target(); t.Lobby {
			b.JoinNamed(t.RoomName) // a room chosen by id is named once found
		}
		if at := l.ConfigAt(); !at.IsZero() {
			s.show(w, at)
		} else if r := &l.HUD().Reconnect; r.Shown {
			if t := r.Text(l.NowMs()); t != s.status {
				s.status = t
				b.JoinProgress(t)
			}
		}
	}
	if !s.shown {
		s.input(w, now)
	}
	for _, r := range b.Requests() {
		switch r.Kind {
		case serverbrowser.RequestJoin:
			s.join(w, r.Choice, now)
		case serverbrowser.RequestCancel:
			if s.match != nil && !s.shown {
				s.leave(w, "Join cancelled", false)
			}
		default:
			s.cfg.Backend.Do(r)
		}
	}
	return !s.shown
}

// escapeFree reports whether nothing on the HUD takes Esc itself (see
// hud.HUD.EscapeFree): the Name form is left with Esc too.
func escapeFree(h *hud.HUD) bool { return h.EscapeFree() }

// join starts a match for c (one at a time).
func (s *lobbyScreen) join(w *Window, c serverbrowser.Choice, now time.Time) {
	b := s.cfg.Browser
	if s.match != nil {
		return
	}
	m, err := s.cfg.Join(w.ctx, c)
	if err != nil {
		b.JoinEnded(fmt.Sprintf("%s: %v", c.Label(), err), true)
		return
	}
	s.match, s.askedAt, s.status = m, now, ""
	w.applyLoop(m.Loop()) // the palette known before the textures are drawn
	b.JoinStarted(c, w.ms(now))
	w.opts.Log.Info("joining", "room", c.Label(), "address", c.Address)
}

// show puts the joined match on screen: it takes the keyboard, the
// player's settings and the menu's entries.
func (s *lobbyScreen) show(w *Window, configAt time.Time) {
	s.shown = true
	s.joinTime = configAt.Sub(s.askedAt)
	w.opts.Log.Info("joined", "room", s.cfg.Browser.Joining.Label(), "to CONFIG_DATA", s.joinTime)
	w.onScreen(s.match.Loop(), BrowserLabel, s.cfg.Browser.Joining.Label())
}

// onScreen puts a match's loop on screen: it takes the keyboard, the
// player's settings and the menu's entries (entry is the one back to the
// screen it came from), and the window's title names it.
func (w *Window) onScreen(l *gameloop.Loop, entry, name string) {
	w.play = live{l}
	l.SetInput(&keyboard{w: w})
	l.SetSettingsEntry(true)
	l.SetBrowserEntry(entry)
	w.applyLoop(l)
	ebiten.SetWindowTitle(w.title() + " — " + name)
}

// offScreen takes the play off the screen, silencing it.
func (w *Window) offScreen(silence func()) {
	w.play = nil
	if silence != nil {
		silence()
	}
	ebiten.SetWindowTitle(w.title())
}

// leave stops the match (in the background: the window goes on at once)
// and shows the browser with why the match ended.
func (s *lobbyScreen) leave(w *Window, reason string, failed bool) {
	m := s.match
	if m == nil {
		return
	}
	if s.shown {
		w.offScreen(s.cfg.Silence)
	}
	s.match, s.shown = nil, false
	s.stops.Add(1)
	go func() {
		defer s.stops.Done()
		m.Stop()
	}()
	b := s.cfg.Browser
	b.JoinEnded(reason, failed)
	b.Refresh() // the rooms, the sign-in and the recent hosts as they are now
}

// stopAll ends the match, if any, and waits for every match to stop.
func (s *lobbyScreen) stopAll() {
	if m := s.match; m != nil {
		s.match = nil
		m.Stop()
	}
	s.stops.Wait()
}

// input feeds the browser this frame's keys, text, clicks and wheel, or
// the settings overlay while it is open.
func (s *lobbyScreen) input(w *Window, now time.Time) {
	w.screenInput(s.kb, s.cfg.Browser, &s.codes, &s.chars, now)
}

// screenModel is a screen of its own that reads the keyboard and the
// mouse: the server browser, the start screen.
type screenModel interface {
	Type(rs []rune)
	Key(code int, shift, ctrl bool)
	Click(w, h, x, y, now float64)
	Scroll(steps int)
}

// screenInput feeds m this frame's text, keys, clicks and wheel, or the
// settings overlay (through kb) while it is open. Text goes before keys:
// the "/" that opens the browser's search field is not typed into it.
func (w *Window) screenInput(kb *keyboard, m screenModel, codes *[]int, chars *[]rune, now time.Time) {
	if w.menu.Open {
		kb.menuInput(nil, 0, 0, w.ms(now))
		return
	}
	*chars = ebiten.AppendInputChars((*chars)[:0])
	m.Type(*chars)
	*codes = w.typingKeys((*codes)[:0])
	shift, ctrl := ebiten.IsKeyPressed(ebiten.KeyShift), ebiten.IsKeyPressed(ebiten.KeyControl)
	for _, code := range *codes {
		if code != keyF10 {
			m.Key(code, shift, ctrl)
		}
	}
	scale := w.hudDPR()
	lw, lh := w.outW/w.hudScaleOr1(), w.outH/w.hudScaleOr1()
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		m.Click(lw, lh, float64(x)/scale, float64(y)/scale, w.ms(now))
	}
	if _, dy := ebiten.Wheel(); dy != 0 {
		m.Scroll(-int(dy))
	}
}

// typingKeys appends this frame's key presses (DOM codes) to codes, with
// the arrows and Backspace repeating while held, as in a text field.
func (w *Window) typingKeys(codes []int) []int {
	codes = w.reader.JustPressed(codes)
	for _, k := range [...]ebiten.Key{ebiten.KeyArrowUp, ebiten.KeyArrowDown, ebiten.KeyBackspace} {
		if d := inpututil.KeyPressDuration(k); d > 1 && repeats(d) {
			if code, ok := ebiteninput.DOMKeyCode(k); ok {
				codes = append(codes, code)
			}
		}
	}
	return codes
}

// repeats is true at the OS-like repeat rate of a held key (after half a
// second, then every 3 frames at 60 Hz).
func repeats(frames int) bool { return frames >= 30 && (frames-30)%3 == 0 }

// ms is the window's clock in ms since it started.
func (w *Window) ms(now time.Time) float64 {
	return float64(now.Sub(w.start)) / float64(time.Millisecond)
}

// hudScaleOr1 is the HUD scale drawn now: the setting, or Auto's for the
// window's width.
func (w *Window) hudScaleOr1() float64 { return settingsmenu.HUDScaleFor(w.hudScale, w.outW) }

func (w *Window) title() string {
	if w.opts.Title == "" {
		return "vimp"
	}
	return w.opts.Title
}
