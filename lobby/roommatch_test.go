package lobby_test

import (
	"context"
	"errors"
	"testing"

	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

func TestMatchRoom(t *testing.T) {
	rooms := []lobby.Room{
		{ID: "new-1", Name: "Rig Room", GameID: "tanks"},
		{ID: "h2", Name: "Other", GameID: "tanks"},
		{ID: "h3", Name: "Twin", GameID: "tanks", Owner: "ann"},
		{ID: "h4", Name: "twin", GameID: "tanks", Owner: "bob"},
		{ID: "h5", Name: "Snaky", GameID: "snakes"},
		{ID: "h6", Name: "Dup", GameID: "tanks"},
		{ID: "h7", Name: "Dup", GameID: "tanks"},
	}
	for _, c := range []struct {
		name   string
		ref    lobby.RoomRef
		wantID string
		how    lobby.Match
	}{
		{"same id", lobby.RoomRef{ID: "h2", Name: "renamed"}, "h2", lobby.MatchExact},
		{"host restarted: new id, same name and game", lobby.RoomRef{ID: "old-1", Name: "rig room", GameID: "tanks"}, "new-1", lobby.MatchSame},
		{"the owner tells two rooms of one name apart", lobby.RoomRef{ID: "gone", Name: "Twin", GameID: "tanks", Owner: "BOB"}, "h4", lobby.MatchSame},
		{"same name, other game: offered", lobby.RoomRef{ID: "gone", Name: "Snaky", GameID: "tanks"}, "h5", lobby.MatchLoose},
		{"two rooms of the name, no owner to tell them apart", lobby.RoomRef{ID: "gone", Name: "Dup", GameID: "tanks"}, "", lobby.MatchNone},
		{"gone", lobby.RoomRef{ID: "gone", Name: "Nowhere", GameID: "tanks"}, "", lobby.MatchNone},
	} {
		r, how, _ := lobby.MatchRoom(rooms, c.ref)
		if how != c.how || r.ID != c.wantID {
			t.Errorf("%s: got %q (%d), want %q (%d)", c.name, r.ID, how, c.wantID, c.how)
		}
	}
}

func TestIsRoomID(t *testing.T) {
	for id, want := range map[string]bool{"0a1b2c3d": true, "abcdefgh": true, "abcdefgi": false, "ABCDEFGH": false,
		"00000000-0000-4000-8000-000000000001": false, "abc": false} {
		if lobby.IsRoomID(id) != want {
			t.Errorf("IsRoomID(%q) != %v", id, want)
		}
	}
}

func TestQuickPlay(t *testing.T) {
	for _, d := range []fakemaster.Dialect{fakemaster.Older, fakemaster.Newer} {
		fm := fakemaster.Start(fakemaster.Config{Dialect: d})
		fm.AddRoom(fakemaster.Listed{Name: "Half", Players: 3, MaxPlayers: 8})
		full := fm.AddRoom(fakemaster.Listed{Name: "Full", Players: 8, MaxPlayers: 8})
		best := fm.AddRoom(fakemaster.Listed{Name: "Busy", Players: 6, MaxPlayers: 8})
		fm.AddRoom(fakemaster.Listed{Name: "Tie", Players: 6, MaxPlayers: 8})
		snakes := fm.AddRoom(fakemaster.Listed{Name: "Snakes", GameID: "snakes", Players: 7, MaxPlayers: 10})
		m, _ := lobby.NewMaster(fm.URL(), nil)
		ctx := context.Background()
		r, err := m.QuickPlay(ctx, "tanks")
		if err != nil || r.ID != best {
			t.Errorf("dialect %d: QuickPlay(tanks) = %q, %v; want %q (the fullest with space, not %q)", d, r.ID, err, best, full)
		}
		if r, err := m.QuickPlay(ctx, ""); err != nil || r.ID != snakes {
			t.Errorf("dialect %d: QuickPlay of any game = %q, %v; want %q", d, r.ID, err, snakes)
		}
		if _, err := m.QuickPlay(ctx, "chess"); !errors.Is(err, lobby.ErrNoQuickPlay) {
			t.Errorf("dialect %d: a game with no room: %v", d, err)
		}
		asked := false
		for _, q := range fm.Requests() {
			asked = asked || q.URI == "/quickplay/tanks"
		}
		if !asked {
			t.Errorf("dialect %d: /quickplay/tanks was never asked", d)
		}
		fm.Close()
	}
}
