package lobby_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

var (
	keysOnce sync.Once
	keys     *fakemaster.Keys
)

func testKeys(t *testing.T) *fakemaster.Keys {
	keysOnce.Do(func() {
		k, err := fakemaster.NewKeys("test-key")
		if err != nil {
			t.Fatal(err)
		}
		keys = k
	})
	return keys
}

func TestParseServerPageBothGenerations(t *testing.T) {
	older := `{"total":2,"servers":[{"hostId":"h1","name":"Alpha","mapName":"arena","currentPlayers":3,"maxPlayers":8,"region":"eu","gameId":"tanks","rating":4},{"name":"no id"}]}`
	page, dropped, err := lobby.ParseServerPage([]byte(older))
	if err != nil || dropped != 1 || len(page.Servers) != 1 || page.Total != 2 {
		t.Fatalf("older: %+v %d %v", page, dropped, err)
	}
	r := page.Servers[0]
	if r.ID != "h1" || r.Name != "Alpha" || r.CurrentPlayers != 3 || r.MaxPlayers != 8 || r.Rating == nil || *r.Rating != 4 {
		t.Errorf("older room %+v", r)
	}
	newer := `{"total":1,"servers":[{"roomId":"abcd2345","hostId":"abcd2345","gameId":"tanks","info":"Beta room","mapName":"m","currentPlayers":1,"maxPlayers":4,"region":"us"}]}`
	page, _, err = lobby.ParseServerPage([]byte(newer))
	if err != nil || len(page.Servers) != 1 || page.Servers[0].ID != "abcd2345" || page.Servers[0].Name != "Beta room" || page.Servers[0].Rating != nil {
		t.Fatalf("newer: %+v %v", page, err)
	}
	if !strings.Contains(string(page.Servers[0].Raw), `"info":"Beta room"`) {
		t.Errorf("raw room lost: %s", page.Servers[0].Raw)
	}
	for _, bad := range []string{``, `[]`, `{"total":1}`, `<html>`, `{"servers":"x"}`} {
		if _, _, err := lobby.ParseServerPage([]byte(bad)); !errors.Is(err, lobby.ErrNotRoomList) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestFindRoom(t *testing.T) {
	rooms := []lobby.Room{{ID: "id-1", Name: "Alpha"}, {ID: "id-2", Name: "beta"}, {ID: "id-3", Name: "Beta"}, {ID: "Alpha", Name: "Gamma"}}
	for _, tc := range []struct {
		q, want, errHas string
	}{
		{"id-1", "id-1", ""},
		{"Alpha", "Alpha", ""}, // an exact id wins over a name
		{"ALPHA", "id-1", ""},
		{"gamma", "Alpha", ""},
		{"beta", "", `2 rooms are named "beta"`},
		{"delta", "", `"Alpha" (id-1)`},
		{"", "", "no room named"},
	} {
		r, err := lobby.FindRoom(rooms, tc.q)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%q: error %v, want %q", tc.q, err, tc.errHas)
			}
			continue
		}
		if err != nil || r.ID != tc.want {
			t.Errorf("%q: %+v %v, want %s", tc.q, r, err, tc.want)
		}
	}
}

func TestAllServersPagesAndSearch(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{Keys: testKeys(t)})
	defer fm.Close()
	for i := range 40 {
		region := "eu"
		if i%4 == 0 {
			region = "us"
		}
		fm.AddListed(fmt.Sprintf("Room %02d", i), region, i%5, 8)
	}
	m, err := lobby.NewMaster(fm.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := m.Servers(ctx, lobby.Query{})
	if err != nil || len(first.Servers) != 10 || first.Total != 40 {
		t.Fatalf("first page: %d of %d, %v", len(first.Servers), first.Total, err)
	}
	all, err := m.AllServers(ctx, lobby.Query{})
	if err != nil || len(all.Servers) != 40 || all.Total != 40 {
		t.Fatalf("all pages: %d of %d, %v", len(all.Servers), all.Total, err)
	}
	us, err := m.AllServers(ctx, lobby.Query{Region: "us"})
	if err != nil || len(us.Servers) != 10 {
		t.Fatalf("region: %d, %v", len(us.Servers), err)
	}
	found, err := m.AllServers(ctx, lobby.Query{Search: "room 1"})
	if err != nil || len(found.Servers) != 10 || found.Servers[0].Name != "Room 10" {
		t.Fatalf("search: %+v, %v", found, err)
	}
	slash, err := m.AllServers(ctx, lobby.Query{Search: "TANKS/room 3"})
	if err != nil || len(slash.Servers) != 10 {
		t.Fatalf("gameId/name search: %d, %v", len(slash.Servers), err)
	}
	g, err := m.Manifest(ctx, "tanks")
	if err != nil || g.AssetsBase != fm.URL()+"/games/tanks/" {
		t.Errorf("manifest: %+v %v", g, err)
	}
	if _, err := m.Manifest(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "unknownGame") {
		t.Errorf("unknown game: %v", err)
	}
}

// A master that is down, slow or talking nonsense gives a clear error in
// bounded time.
func TestMasterFailures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	m, _ := lobby.NewMaster(down, nil)
	if _, err := m.Servers(context.Background(), lobby.Query{}); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("down: %v", err)
	}

	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	m, _ = lobby.NewMaster(slow.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := m.Servers(ctx, lobby.Query{}); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("slow: %v", err)
	}

	for body, want := range map[string]string{
		`<html>oops</html>`:                 "not a vimp room list",
		`{"error":"tooManyRequests"}`:       "wait a moment",
		`{"total":1,"servers":[12,"x",{}]}`: "",
	} {
		status := http.StatusOK
		if strings.Contains(body, "error") {
			status = http.StatusTooManyRequests
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}))
		m, _ = lobby.NewMaster(srv.URL, nil)
		page, err := m.Servers(context.Background(), lobby.Query{})
		srv.Close()
		if want == "" {
			if err != nil || len(page.Servers) != 0 {
				t.Errorf("%s: %+v %v", body, page, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

func TestMasterAddresses(t *testing.T) {
	for addr, want := range map[string][3]string{
		"http://127.0.0.1:3002":    {"ws://127.0.0.1:3002/", "https://127.0.0.1:3002", "127.0.0.1:3002"},
		"https://vimp.example":     {"wss://vimp.example/", "https://vimp.example", "vimp.example:443"},
		"localhost:8080":           {"ws://localhost:8080/", "https://localhost:8080", "localhost:8080"},
		"https://Vimp.Example:443": {"wss://Vimp.Example:443/", "https://Vimp.Example", "vimp.example:443"},
	} {
		m, err := lobby.NewMaster(addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := [3]string{m.SignalURL(), m.Origin(), m.Key()}; got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
	if _, err := lobby.NewMaster("ftp://x", nil); err == nil {
		t.Error("ftp accepted")
	}
}

func TestICEServerURLs(t *testing.T) {
	var w lobby.Welcome
	in := `{"id":"s","iceServers":[{"urls":"stun:a:1"},{"urls":["stun:b:1","turn:c:1"],"username":"u","credential":"p"},{"urls":null}]}`
	if err := json.Unmarshal([]byte(in), &w); err != nil {
		t.Fatal(err)
	}
	if len(w.ICEServers) != 3 || w.ICEServers[0].URLs[0] != "stun:a:1" || len(w.ICEServers[1].URLs) != 2 || w.ICEServers[1].Username != "u" || w.ICEServers[2].URLs != nil {
		t.Errorf("%+v", w.ICEServers)
	}
	if err := json.Unmarshal([]byte(`{"urls":5}`), new(lobby.ICEServer)); err == nil {
		t.Error("numeric urls accepted")
	}
}

func TestErrorWords(t *testing.T) {
	codes := []string{"unknownHost", "unknownRoom", "rateLimited", "voteRejected", "noSuccessor", "invalidToken",
		"authServiceUnavailable", "blocked", "hostLimit", "alreadyRegistered", "gameUnavailable", "migrating",
		"memberTaken", "invalidRoomSecret", "staleEpoch", "roomTaken", "badRequest", "tooManyRequests"}
	seen := map[string]string{}
	for _, c := range codes {
		w := lobby.Words(c, "")
		if strings.Contains(w, "("+c+")") || w == "" {
			t.Errorf("%s: %q is not in words", c, w)
		}
		seen[c] = w
	}
	for _, r := range []string{"migrating", "host", "tooNew", "active", "roomCooldown", "userCooldown"} {
		if w := lobby.Words("voteRejected", r); w == seen["voteRejected"] {
			t.Errorf("voteRejected %s has no words of its own", r)
		}
	}
	if w := lobby.Words("somethingNew", ""); !strings.Contains(w, "somethingNew") {
		t.Errorf("unknown code: %q", w)
	}
	if !errors.Is(&lobby.MasterError{Code: "unknownRoom"}, lobby.ErrRoomGone) || errors.Is(&lobby.MasterError{Code: "migrating"}, lobby.ErrRoomGone) {
		t.Error("ErrRoomGone matching")
	}
}

// The newer master answers GET /rooms/:id with the room and its status;
// the older one has no such route.
func TestRoomByID(t *testing.T) {
	for _, d := range []fakemaster.Dialect{fakemaster.Older, fakemaster.Newer} {
		fm := fakemaster.Start(fakemaster.Config{Dialect: d, Keys: testKeys(t)})
		id := fm.AddListed("Alpha", "eu", 1, 8)
		m, _ := lobby.NewMaster(fm.URL(), nil)
		r, err := m.RoomByID(context.Background(), id)
		if d == fakemaster.Newer && (err != nil || r.ID != id || r.Name != "Alpha" || r.Status != "online") {
			t.Errorf("newer: %+v %v", r, err)
		}
		if d == fakemaster.Older && err == nil {
			t.Errorf("older answered /rooms: %+v", r)
		}
		if _, err := m.RoomByID(context.Background(), "zzzzzzzz"); err == nil || (d == fakemaster.Newer && !errors.Is(err, lobby.ErrRoomGone)) {
			t.Errorf("unknown room: %v", err)
		}
		fm.Close()
	}
}

// A room's closing reason is a sentence: the newer master's code in
// words, anything else quoted and escaped.
func TestClosedWords(t *testing.T) {
	if w := lobby.ClosedWords("noHost"); strings.Contains(w, "noHost") || !strings.Contains(w, "no other player") {
		t.Errorf("noHost: %q", w)
	}
	if w := lobby.ClosedWords(""); w != "The room was closed." {
		t.Errorf("no reason: %q", w)
	}
	if w := lobby.ClosedWords("hostLeft\x1b[2J"); w != `The room was closed (hostLeft\x1b[2J).` {
		t.Errorf("unknown reason: %q", w)
	}
}

// Entries the client cannot read are counted, not lost: the walk pages by
// what the master sent, and the shortfall says how many rooms are not
// shown and why.
func TestAllServersCountsUnreadable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Query().Get("offset") {
		case "", "0":
			fmt.Fprint(w, `{"total":6,"servers":[{"hostId":"a","name":"A"},{"name":"no id"},"not a room"]}`)
		case "3":
			fmt.Fprint(w, `{"total":6,"servers":[{"hostId":"b","name":"B"}]}`)
		case "4": // the master counts rooms it does not send
			fmt.Fprint(w, `{"total":6,"servers":[]}`)
		default:
			t.Errorf("asked for offset %q", r.URL.Query().Get("offset"))
			fmt.Fprint(w, `{"total":6,"servers":[]}`)
		}
	}))
	defer srv.Close()
	m, err := lobby.NewMaster(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, err := m.AllServers(context.Background(), lobby.Query{})
	if err != nil || len(all.Servers) != 2 || all.Unreadable != 2 || all.Total != 6 {
		t.Fatalf("all: %+v %v", all, err)
	}
	if got, want := all.Shortfall(), "2 of 6 rooms, 4 not shown: 2 unreadable, 2 not sent by the master"; got != want {
		t.Errorf("shortfall %q, want %q", got, want)
	}
	if s := (lobby.ServerPage{Total: 1, Servers: all.Servers[:1]}).Shortfall(); s != "" {
		t.Errorf("a whole list has a shortfall: %q", s)
	}
}
