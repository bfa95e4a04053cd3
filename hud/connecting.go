package hud

import (
	"math"
	"strconv"
	"strings"
)

// Connecting is the screen a window shows from the moment it opens until
// the host it was pointed at answers: the address, the attempt, the last
// error in words and the keys. It follows the session's reconnecting
// screen (Follow), so it counts down to the next attempt as that one does,
// and it says so when no attempt comes by itself any more (Ended).
type Connecting struct {
	Address string
	Attempt int     // the attempt under way or the next one, from 1
	At      float64 // when the next attempt starts (monotonic ms; 0: under way)
	Failed  string  // why the last attempt failed, in words ("" when none did)
	Ended   bool    // nothing will be tried again until R
}

// Keys of the connecting screen (DOM codes).
const (
	ConnectRetryKey = 82 // R
	ConnectBackKey  = 27 // Esc
)

// ConnectHint is the key line of the connecting screen.
const ConnectHint = "R retry · Esc back"

// NewConnecting starts the screen for address, at attempt 1.
func NewConnecting(address string) Connecting {
	return Connecting{Address: oneLine(address), Attempt: 1}
}

// Follow takes the attempt, the countdown and the last error from the
// match's reconnecting screen while it is shown.
func (c *Connecting) Follow(r *Reconnect) {
	if !r.Shown {
		return
	}
	c.Attempt, c.At = max(1, r.Attempt+1), r.At
	switch {
	case r.Failed != "":
		c.Failed = r.Failed
	case r.Reason != "":
		c.Failed = r.Reason
	}
}

// End says that the attempts stopped, with why.
func (c *Connecting) End(why string) {
	c.Ended, c.At = true, 0
	why = oneLine(why)
	for c.Address != "" && strings.HasPrefix(why, c.Address+": ") {
		why = why[len(c.Address)+2:] // the title names the address already
	}
	if why != "" {
		c.Failed = why
	}
}

// Title is the screen's first line.
func (c *Connecting) Title() string {
	if c.Ended {
		return "Could not connect to " + c.Address
	}
	return "Connecting to " + c.Address
}

// Status is the line under the title at now: the attempt, and the
// countdown to the next one while waiting.
func (c *Connecting) Status(now float64) string {
	if c.Ended {
		return "Stopped after attempt " + strconv.Itoa(max(1, c.Attempt))
	}
	s := "Attempt " + strconv.Itoa(max(1, c.Attempt))
	if secs := math.Ceil((c.At - now) / 1000); c.At > 0 && secs > 0 {
		s += " in " + strconv.Itoa(int(secs)) + " s"
	} else {
		s += "…"
	}
	return s
}

// Detail is the last error line ("" when none failed yet).
func (c *Connecting) Detail() string {
	if c.Failed == "" {
		return ""
	}
	return "Last error: " + c.Failed
}

func oneLine(s string) string { return strings.Join(strings.Fields(cleanText(s)), " ") }
