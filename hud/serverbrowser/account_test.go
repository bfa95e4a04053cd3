package serverbrowser

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vimpclient/hostlist"
)

func listedBrowser(t *testing.T) *Browser {
	t.Helper()
	b := New(testMaster)
	b.Refresh()
	var gen int
	for _, r := range b.Requests() {
		if r.Kind == RequestRooms {
			gen = r.Gen
		}
	}
	b.SetRooms(gen, 0, 3, rooms(3), nil)
	b.Requests()
	return b
}

// S asks for a sign-in in the system browser (once while one waits); a
// join made while signed out waits for it and goes ahead when it is done.
func TestBrowserSignInHoldsTheJoin(t *testing.T) {
	b := listedBrowser(t)
	b.Key(13, false, false)
	if len(b.Requests()) != 0 || !strings.Contains(b.Status, "S signs in") {
		t.Fatalf("join not held: %q", b.Status)
	}
	b.Key(83, false, false)
	only(t, b.Requests(), RequestSignInStart)
	if !b.SigningIn() {
		t.Fatal("not signing in")
	}
	b.Key(83, false, false)
	if len(b.Requests()) != 0 {
		t.Fatal("a second sign-in asked for while one waits")
	}
	b.Key(27, false, false) // Esc cancels the waiting sign-in
	only(t, b.Requests(), RequestSignInCancel)
	b.SignInDone(SignIn{State: SignedIn, Nick: "Alice", Until: time.Now().Add(time.Hour)}, "Signed in as Alice", false)
	j := only(t, b.Requests(), RequestJoin)
	if j.Choice.Room != "r00" || b.SigningIn() {
		t.Fatalf("held join %+v", j.Choice)
	}
}

// A token that expires while the browser is open is noticed before the
// join: the sign-in line turns to expired and the join waits.
func TestBrowserNoticesExpiryBeforeJoining(t *testing.T) {
	b := listedBrowser(t)
	now := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	b.Clock = func() time.Time { return now }
	b.SetSignIn(SignIn{State: SignedIn, Nick: "Alice", Until: now.Add(30 * time.Second)})
	b.Key(13, false, false)
	if len(b.Requests()) != 0 || b.SignIn.State != SignInExpired || !strings.Contains(b.Status, "expired") {
		t.Fatalf("joined with a token about to expire: %q, %+v", b.Status, b.SignIn)
	}
}

// The paste field takes the keys while open, never shows the token, sends
// it on Enter and forgets it; Ctrl+V asks for the clipboard.
func TestBrowserPasteField(t *testing.T) {
	b := listedBrowser(t)
	b.Key(80, false, false)
	if !b.Pasting() {
		t.Fatal("P opened no field")
	}
	b.Type([]rune("abc/def"))
	b.Key(82, false, false) // R is typed, not a refresh
	b.Type([]rune("R"))
	b.Key(8, false, false)
	if txt := b.PasteText(); strings.Contains(txt, "abc") || !strings.Contains(txt, "7 characters") {
		t.Fatalf("paste line %q", txt)
	}
	b.Key(86, false, true)
	only(t, b.Requests(), RequestPaste)
	b.Pasted("ghi", nil)
	b.Key(13, false, false)
	if r := only(t, b.Requests(), RequestSignInToken); r.Text != "abc/defghi" || b.Pasting() {
		t.Fatalf("token sent %q", r.Text)
	}
	b.Key(80, false, false)
	b.Type([]rune("x"))
	b.Key(27, false, false)
	if b.Pasting() || len(b.Requests()) != 0 {
		t.Fatal("Esc did not drop the field")
	}
}

// N plays the selected room's game now; the room found is joined.
func TestBrowserPlayNow(t *testing.T) {
	b := listedBrowser(t)
	b.SetSignIn(SignIn{State: SignedIn, Nick: "Alice"})
	b.Key(78, false, false)
	if r := only(t, b.Requests(), RequestQuickPlay); r.GameID != "tanks" {
		t.Fatalf("play now asked for %q", r.GameID)
	}
	b.QuickPlayFound(Choice{}, errors.New("tanks: no room with space right now"))
	if !b.StatusError || len(b.Requests()) != 0 {
		t.Fatalf("status %q", b.Status)
	}
	found := Choice{Kind: hostlist.Lobby, Address: testMaster, Room: "r02", Name: "Room 2", GameID: "tanks"}
	b.QuickPlayFound(found, nil)
	if j := only(t, b.Requests(), RequestJoin); j.Choice != found {
		t.Fatalf("joined %+v", j.Choice)
	}
}

// A saved room is looked for on its master first; found under a new id it
// is joined, found only loosely it is offered and Enter on it joins the
// offer.
func TestBrowserSavedRoomFoundAgain(t *testing.T) {
	b := listedBrowser(t)
	b.SetSignIn(SignIn{State: SignedIn, Nick: "Alice"})
	saved := hostlist.Entry{Kind: hostlist.Lobby, Address: testMaster, Room: "old", Name: "Rig Room", GameID: "tanks", Favourite: true}
	b.SetHosts(&hostlist.List{Entries: []hostlist.Entry{saved}})
	b.SetTab(TabFavourites)
	b.Requests()
	b.Key(13, false, false)
	asked := only(t, b.Requests(), RequestResolve).Choice
	moved := asked
	moved.Room = "new"
	b.Resolved(asked, moved, ResolvedSame, 1, nil)
	if j := only(t, b.Requests(), RequestJoin); j.Choice.Room != "new" {
		t.Fatalf("joined %+v", j.Choice)
	}

	b.Key(13, false, false)
	asked = only(t, b.Requests(), RequestResolve).Choice
	other := Choice{Kind: hostlist.Lobby, Address: testMaster, Room: "s1", Name: "Rig Room", GameID: "snakes"}
	b.Resolved(asked, other, ResolvedLoose, 1, nil)
	if len(b.Requests()) != 0 || !strings.Contains(b.Status, "found “Rig Room” (snakes): Enter joins it") {
		t.Fatalf("offer %q", b.Status)
	}
	b.Key(13, false, false)
	if j := only(t, b.Requests(), RequestJoin); j.Choice.Room != "s1" {
		t.Fatalf("Enter on the offer joined %+v", j.Choice)
	}

	b.Key(13, false, false)
	asked = only(t, b.Requests(), RequestResolve).Choice
	b.Resolved(asked, asked, ResolvedNone, 2, nil)
	if !strings.Contains(b.Status, "2 rooms have its name") {
		t.Fatalf("none: %q", b.Status)
	}
}
