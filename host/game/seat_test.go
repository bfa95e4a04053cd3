package game

import "testing"

type testUser struct {
	seat  Seat
	plays bool
	alive bool
}

func (u *testUser) Seat() *Seat { return &u.seat }
func (u *testUser) Plays() bool { return u.plays }

// The room loop's calls on users: a latency that changes makes the row
// due, one that does not does not; only the first MODULES_READY counts; a
// user not there (never joined, nil, gone) is none of these.
func TestUsers(t *testing.T) {
	a := &testUser{plays: true}
	u := Users[*testUser]{1: a, 2: nil}
	if p, ok := u.SetLatency(1, 40); !ok || p != a || a.seat.Latency != 40 {
		t.Fatalf("first latency: %v %v", ok, a.seat.Latency)
	}
	if _, ok := u.SetLatency(1, 40); ok {
		t.Fatal("the same latency made the row due again")
	}
	if _, ok := u.EnterGame(1); !ok || !a.seat.InGame {
		t.Fatal("first MODULES_READY not taken")
	}
	if _, ok := u.EnterGame(1); ok {
		t.Fatal("a repeated MODULES_READY counted")
	}
	if !u.Playing(1) || u.Playing(2) || u.Playing(3) {
		t.Fatal("playing")
	}
	for _, uid := range []int{2, 3} {
		if _, ok := u.SetLatency(uid, 1); ok {
			t.Fatalf("user %d: latency taken", uid)
		}
		if _, ok := u.EnterGame(uid); ok {
			t.Fatalf("user %d: entered", uid)
		}
	}
	if p, ok := u.Take(1); !ok || p != a || len(u) != 1 {
		t.Fatal("take")
	}
	if _, ok := u.Take(1); ok {
		t.Fatal("taken twice")
	}
}

// The watched one is the chosen one while it lives, else the first alive,
// which becomes the chosen one; nobody alive gives none.
func TestWatched(t *testing.T) {
	ps := make([]*testUser, 5)
	ps[2], ps[4] = &testUser{alive: true}, &testUser{alive: true}
	alive := func(u *testUser) bool { return u.alive }
	watch := uint8(4)
	if w, ok := Watched(ps, &watch, alive); !ok || w != ps[4] || watch != 4 {
		t.Fatal("the chosen one")
	}
	ps[4].alive = false
	if w, ok := Watched(ps, &watch, alive); !ok || w != ps[2] || watch != 2 {
		t.Fatalf("after the chosen one died: watch %d", watch)
	}
	ps[2].alive = false
	watch = 200 // past the slice: no panic
	if _, ok := Watched(ps, &watch, alive); ok {
		t.Fatal("somebody watched with nobody alive")
	}
}
