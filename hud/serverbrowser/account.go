package serverbrowser

import (
	"strconv"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud/geom"
	"vimpclient/hud/plaintext"
)

// The browser's sign-in (in the system browser, or with a pasted token),
// sign-out, "Play now", and saved rooms found again after their host
// restarted. The wiring runs the requests and answers with SignInDone,
// Pasted, QuickPlayFound and Resolved.

// maxPaste bounds the pasted token in bytes (a token is under 1 KiB).
const maxPaste = 8 << 10

// Keys of the browser's account actions (DOM codes).
const (
	keySignIn  = 83 // S
	keySignOut = 79 // O
	keyPaste   = 80 // P
	keyPlayNow = 78 // N
	keyV       = 86
)

// account is the browser's sign-in and join-finding state.
type account struct {
	// Clock is the wall clock a token's expiry is checked against before
	// a join (time.Now when nil).
	Clock func() time.Time

	signingIn bool
	pasting   bool
	paste     []byte
	// pendingJoin is a join waiting for a sign-in: made once it is done.
	pendingJoin *Choice
	// offer is the room found for a stale saved entry (offerFor its key):
	// Enter on that entry joins it.
	offer    *Choice
	offerFor string
	// pasteText is the paste field's line, kept per length.
	pasteText string
	pasteLen  int
}

// SigningIn reports whether a sign-in in the system browser is waiting.
func (b *Browser) SigningIn() bool { return b.signingIn }

// Pasting reports whether the paste-a-token field has the keys.
func (b *Browser) Pasting() bool { return b.pasting }

// PasteText is the paste field's line; the token itself is never drawn.
func (b *Browser) PasteText() string {
	if b.pasteText == "" || b.pasteLen != len(b.paste) {
		b.pasteLen = len(b.paste)
		if b.pasteLen == 0 {
			b.pasteText = "Paste token: Ctrl+V or type it · Enter signs in · Esc cancels"
		} else {
			b.pasteText = "Paste token: " + strconv.Itoa(b.pasteLen) + " characters · Enter signs in · Esc cancels"
		}
	}
	return b.pasteText
}

func (b *Browser) wall() time.Time {
	if b.Clock != nil {
		return b.Clock()
	}
	return time.Now()
}

// signedInNow reports whether the sign-in is usable now: a token that
// expired while the browser was open is noticed here, before a join.
func (b *Browser) signedInNow() bool {
	s := b.SignIn
	if s.State == SignedIn && !s.Until.IsZero() && !b.wall().Add(time.Minute).Before(s.Until) {
		s.State = SignInExpired
		b.SetSignIn(s)
	}
	return b.SignIn.State == SignedIn
}

// joinChoice joins c: a stale entry's offered match instead of the entry;
// a room of this master only when signed in (else the join waits for the
// sign-in it offers); a saved room (saved) once found again on its master.
func (b *Browser) joinChoice(c Choice, saved bool) {
	if b.offer != nil && b.offerFor == choiceKey(c) {
		c, saved = *b.offer, false
	}
	b.offer, b.offerFor = nil, ""
	if c.Kind == hostlist.Lobby && sameMaster(c.Address, b.Master) && !b.signedInNow() {
		b.pendingJoin = &c
		b.setStatus(b.SignInText(), true)
		return
	}
	if c.Kind == hostlist.Lobby && saved {
		b.requests = append(b.requests, Request{Kind: RequestResolve, Choice: c})
		b.setStatus("Looking for "+c.Label()+" on its master…", false)
		return
	}
	b.requests = append(b.requests, Request{Kind: RequestJoin, Choice: c})
}

func choiceKey(c Choice) string {
	return hostlist.Entry{Kind: c.Kind, Address: c.Address, Room: c.Room, RoomID: c.RoomID, Name: c.Name, GameID: c.GameID, Owner: c.Owner}.Key()
}

// accountKey handles the account keys and the paste field; it reports
// whether it took the key.
func (b *Browser) accountKey(code int, ctrl bool) bool {
	if b.pasting {
		switch code {
		case 13:
			b.pasting = false
			if len(b.paste) > 0 {
				b.requests = append(b.requests, Request{Kind: RequestSignInToken, Text: string(b.paste)})
				b.setStatus("Checking the pasted token…", false)
			}
			clear(b.paste)
			b.paste = b.paste[:0]
		case 27:
			b.pasting = false
			clear(b.paste)
			b.paste = b.paste[:0]
		case 8:
			if n := len(b.paste); n > 0 {
				b.paste = b.paste[:n-1]
			}
		case keyV:
			if ctrl {
				b.requests = append(b.requests, Request{Kind: RequestPaste})
			}
		}
		return true // the field has every key while open
	}
	if ctrl {
		return false
	}
	switch code {
	case keySignIn:
		b.StartSignIn()
	case keyPaste:
		b.pasting = true
	case keySignOut:
		if b.SignIn.State != SignedOut {
			b.requests = append(b.requests, Request{Kind: RequestSignOut})
		}
	case keyPlayNow:
		b.PlayNow()
	case 27:
		if !b.signingIn {
			return false
		}
		b.requests = append(b.requests, Request{Kind: RequestSignInCancel})
	default:
		return false
	}
	return true
}

// typePaste types into the paste field while it is open; it reports
// whether it took the text.
func (b *Browser) typePaste(rs []rune) bool {
	if !b.pasting {
		return false
	}
	for _, r := range rs {
		if r > ' ' && r < 0x7f && len(b.paste) < maxPaste {
			b.paste = append(b.paste, byte(r))
		}
	}
	return true
}

// Pasted hands over the clipboard's text for the paste field (err: it
// could not be read).
func (b *Browser) Pasted(text string, err error) {
	if err != nil {
		b.setStatus("The clipboard could not be read ("+err.Error()+"): type the token, or sign in with S", true)
		return
	}
	if b.pasting {
		b.typePaste([]rune(text))
	}
}

// StartSignIn asks for a sign-in in the system browser (S, or the Sign in
// button).
func (b *Browser) StartSignIn() {
	if b.signingIn {
		b.setStatus("A sign-in is waiting in your browser: finish it there, P pastes a token, Esc cancels", false)
		return
	}
	b.signingIn = true
	b.requests = append(b.requests, Request{Kind: RequestSignInStart})
	b.setStatus("Opening the sign-in in your browser…", false)
}

// SignInDone hands over the end of a sign-in, a sign-out or a pasted
// token: the sign-in state now, and what to say (failed: as an error). A
// join that waited for the sign-in goes ahead once signed in.
func (b *Browser) SignInDone(s SignIn, say string, failed bool) {
	b.signingIn = false
	b.setStatus(say, failed)
	b.SetSignIn(s)
}

// joinHeld makes the join that waited for a sign-in once signed in (by the
// browser's sign-in, or a sign-in state read again, as when a quick play
// found its room before the state arrived).
func (b *Browser) joinHeld() {
	if c := b.pendingJoin; c != nil && b.SignIn.State == SignedIn && b.Joining == nil {
		b.pendingJoin = nil
		b.joinChoice(*c, false)
	}
}

// PlayNow asks for a room to play at once (N, or the Play now button): of
// the selected room's game, else of any game.
func (b *Browser) PlayNow() {
	if b.Joining != nil {
		return
	}
	game := ""
	if c, ok := b.Selected(); ok {
		game = c.GameID
	}
	b.PlayNowGame(game)
}

// PlayNowGame asks for a room of game ("" any) to play at once.
func (b *Browser) PlayNowGame(game string) {
	b.requests = append(b.requests, Request{Kind: RequestQuickPlay, GameID: game})
	what := "a room"
	if game != "" {
		what = "a room of " + plaintext.Clean(game)
	}
	b.setStatus("Finding "+what+" to play now…", false)
}

// QuickPlayFound hands over the room chosen to play now, or why there is
// none.
func (b *Browser) QuickPlayFound(c Choice, err error) {
	if err != nil {
		b.setStatus("Play now: "+err.Error(), true)
		return
	}
	if b.Joining == nil {
		b.joinChoice(c, false)
	}
}

// ResolveKind says how a saved room was found again.
type ResolveKind uint8

const (
	ResolvedNone  ResolveKind = iota // not on its master any more
	ResolvedExact                    // under the same id
	ResolvedSame                     // the same room under a new id (its host restarted)
	ResolvedLoose                    // only a room of that name with another game or owner: offered
)

// Resolved hands over where the saved room asked was found: found is
// joined (exact or same), or offered (loose: Enter on the entry joins it);
// n is how many rooms share its name, for the words when none is taken.
func (b *Browser) Resolved(asked, found Choice, how ResolveKind, n int, err error) {
	if b.Joining != nil {
		return
	}
	name := "“" + plaintext.Clean(asked.Label()) + "”"
	switch {
	case err != nil:
		b.setStatus(name+": "+err.Error(), true)
	case how == ResolvedExact || how == ResolvedSame:
		b.joinChoice(found, false)
	case how == ResolvedLoose:
		b.offer, b.offerFor = &found, choiceKey(asked)
		b.setStatus(name+" is not on its master any more (its host left or restarted); found “"+plaintext.Clean(found.Label())+"”"+
			gameWords(found.GameID)+": Enter joins it", true)
	case n > 1:
		b.setStatus(name+" is not on its master any more, and "+strconv.Itoa(n)+" rooms have its name: choose one in Rooms", true)
	default:
		b.setStatus(name+" is not on its master any more (no room of that name now)", true)
	}
}

func gameWords(game string) string {
	if game == "" {
		return ""
	}
	return " (" + plaintext.Clean(game) + ")"
}

// AccountGeom is where the account buttons go: on the sign-in line's right
// (Sign in and Paste token, or Sign out), Play now in the footer.
type AccountGeom struct {
	SignIn, Paste, SignOut, PlayNow geom.Rect
}

// Account button sizes in logical px.
const (
	accountBtnW = 120
	playNowW    = 110
)

// AccountLayout places the account buttons within g. A button not shown
// has a zero rectangle.
func (b *Browser) AccountLayout(g Geom) AccountGeom {
	var a AccountGeom
	s := g.SignIn
	right := s.X + s.W
	y, h := s.Y+1, s.H-3
	if b.SignIn.State == SignedIn {
		a.SignOut = geom.Rect{X: right - accountBtnW, Y: y, W: accountBtnW, H: h}
	} else {
		a.Paste = geom.Rect{X: right - accountBtnW, Y: y, W: accountBtnW, H: h}
		a.SignIn = geom.Rect{X: a.Paste.X - 8 - accountBtnW, Y: y, W: accountBtnW, H: h}
	}
	a.PlayNow = geom.Rect{X: g.Prev.X - 8 - playNowW, Y: g.Prev.Y, W: playNowW, H: g.Prev.H}
	return a
}

// accountClick handles a press on an account button; it reports whether
// one was pressed.
func (b *Browser) accountClick(g Geom, x, y float64) bool {
	a := b.AccountLayout(g)
	switch {
	case a.SignIn.Contains(x, y):
		b.StartSignIn()
	case a.Paste.Contains(x, y):
		b.pasting = true
	case a.SignOut.Contains(x, y):
		b.requests = append(b.requests, Request{Kind: RequestSignOut})
	case a.PlayNow.Contains(x, y):
		b.PlayNow()
	default:
		return false
	}
	return true
}
