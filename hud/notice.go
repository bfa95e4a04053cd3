package hud

import (
	"math"
	"strconv"
	"strings"
)

// NoticeKind says how a notice looks and how long it stays.
type NoticeKind uint8

const (
	// NoticeInfo is a passing remark; it goes after NoticeInfoMs.
	NoticeInfo NoticeKind = iota
	// NoticeWarning is a refusal the player should read (a team not
	// offered, a full team); it goes after NoticeWarningMs.
	NoticeWarning
	// NoticeError is a failure that keeps the game from working (frames
	// this client cannot decode); it stays until ClearNotices or the next
	// connection.
	NoticeError
)

// How long notices stay, in ms.
const (
	NoticeInfoMs    = 6000
	NoticeWarningMs = 12000
)

// MaxNotices bounds the notices shown at once; a new one pushes out the
// oldest.
const MaxNotices = 3

// maxNoticeText bounds a notice's length in runes.
const maxNoticeText = 200

// Notice is one line over the game: a reason in a sentence.
type Notice struct {
	Text string
	Kind NoticeKind
	At   float64 // when it was raised (monotonic ms)

	unstamped bool // raised before the HUD saw a time: the next Update stamps it
}

// Notice raises a one-line notice over the game, e.g. "frames from this host
// cannot be decoded: not a v5 frame", "team red is not offered: team1,
// spectators" or "team1 is full". The same text again only restarts its
// time, so a reason reported on every frame still shows once.
func (h *HUD) Notice(text string, kind NoticeKind) {
	text = strings.Join(strings.Fields(cleanText(text)), " ")
	if text == "" {
		return
	}
	if r := []rune(text); len(r) > maxNoticeText {
		text = string(r[:maxNoticeText-1]) + "…"
	}
	for i := range h.notices {
		if h.notices[i].Text == text {
			h.notices[i].Kind = max(h.notices[i].Kind, kind)
			h.notices[i].At, h.notices[i].unstamped = h.now, !h.haveNow
			return
		}
	}
	if len(h.notices) >= MaxNotices {
		h.notices = append(h.notices[:0], h.notices[1:]...)
	}
	h.notices = append(h.notices, Notice{Text: text, Kind: kind, At: h.now, unstamped: !h.haveNow})
}

// ClearNotices removes every notice.
func (h *HUD) ClearNotices() { h.notices = h.notices[:0] }

// Notices are the notices on screen, oldest first. The slice is the HUD's
// own: read it, do not keep it.
func (h *HUD) Notices() []Notice { return h.notices }

func (h *HUD) updateNotices(now float64) {
	keep := h.notices[:0]
	for _, n := range h.notices {
		if n.unstamped {
			n.At, n.unstamped = now, false
		}
		var life float64
		switch n.Kind {
		case NoticeInfo:
			life = NoticeInfoMs
		case NoticeWarning:
			life = NoticeWarningMs
		default:
			life = math.Inf(1)
		}
		if now-n.At < life {
			keep = append(keep, n)
		}
	}
	h.notices = keep
}

// GiveUpKey is the DOM key code that gives up reconnecting (Escape).
const GiveUpKey = 27

// Reconnect is the screen shown while the connection is down and the
// session waits to try again.
type Reconnect struct {
	Shown   bool
	Reason  string  // why the connection was lost
	At      float64 // when the next attempt starts (monotonic ms)
	Attempt int     // the attempt that starts at At, from 1
	GaveUp  bool    // the player pressed the give-up key
	// Failed is why the last attempt could not connect ("" when none
	// failed yet), shown under the countdown.
	Failed string

	text      string
	textSecs  int
	textState int
}

// Reconnecting shows the reconnecting screen: the connection was lost for
// reason and attempt number attempt starts at at (the monotonic ms the HUD
// is fed). Call it again for every new attempt; Reconnected hides it.
func (h *HUD) Reconnecting(reason string, at float64, attempt int) {
	r := &h.Reconnect
	r.Shown, r.GaveUp = true, false
	r.Reason = strings.Join(strings.Fields(cleanText(reason)), " ")
	r.At, r.Attempt = at, max(1, attempt)
	r.text = ""
	h.HostChange = HostChange{} // a host that never came: the reconnecting screen says what happens
	h.Chat.Escape()
}

// ReconnectFailed says why the last attempt could not connect, under the
// countdown; call it after Reconnecting.
func (h *HUD) ReconnectFailed(why string) {
	h.Reconnect.Failed = strings.Join(strings.Fields(cleanText(why)), " ")
}

// Reconnected hides the reconnecting screen (the new connection is open).
func (h *HUD) Reconnected() { h.Reconnect = Reconnect{} }

// Resumed is a lobby room's seat taken back on a new connection: the
// match goes on where it was, so the reconnecting and host-change screens
// and the close reason are gone, the rest of the HUD stays.
func (h *HUD) Resumed() {
	h.Reconnect = Reconnect{}
	h.HostChange = HostChange{}
	h.Tech.Reset()
}

// ReconnectKey handles a key press (DOM code) while the reconnecting
// screen is shown: the give-up key queues an OutGiveUp for the wiring,
// which stops reconnecting. It reports whether the screen took the key.
func (h *HUD) ReconnectKey(code int) bool {
	r := &h.Reconnect
	if !r.Shown {
		return false
	}
	if code == GiveUpKey && !r.GaveUp {
		r.GaveUp = true
		r.text = ""
		h.out = append(h.out, Out{Kind: OutGiveUp})
	}
	return true
}

// Text is the screen's line at now: "Connection lost (reason) —
// reconnecting in N s (attempt k)", or that it was given up. It is rebuilt
// only when the countdown's second changes.
func (r *Reconnect) Text(now float64) string {
	secs := int(math.Max(0, math.Ceil((r.At-now)/1000)))
	state := 0
	if r.GaveUp {
		state, secs = 1, 0
	}
	if r.text != "" && secs == r.textSecs && state == r.textState {
		return r.text
	}
	var b strings.Builder
	b.WriteString("Connection lost")
	if r.Reason != "" {
		b.WriteString(" (" + r.Reason + ")")
	}
	if r.GaveUp {
		b.WriteString(" — gave up reconnecting")
	} else {
		b.WriteString(" — reconnecting in " + strconv.Itoa(secs) + " s (attempt " + strconv.Itoa(r.Attempt) + ")")
	}
	r.text, r.textSecs, r.textState = b.String(), secs, state
	return r.text
}

// Hint is the key line under the text.
func (r *Reconnect) Hint() string {
	if r.GaveUp {
		return ""
	}
	return "Esc — give up"
}

// Detail is the line under the hint: why the last attempt failed ("" when
// none did).
func (r *Reconnect) Detail() string {
	if r.Failed == "" || r.GaveUp {
		return ""
	}
	return "last attempt: " + r.Failed
}
