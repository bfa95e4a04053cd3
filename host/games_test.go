package host

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// A host started with Game "snakes" announces and serves snakes: its
// /config and manifest, the arena map, its sounds and no tank images; an
// unknown game or a map of the other game does not start.
func TestSnakesDiscovery(t *testing.T) {
	srv, _ := startHost(t, Config{Game: "snakes", Bots: 1, Sound: func(f string) ([]byte, string, bool) {
		return []byte("ID3" + f), "audio/mpeg", f == "death.mp3" || f == "shot.mp3"
	}})
	if srv.GameID() != "snakes" || srv.MapName() != "" && srv.MapName() != "arena" {
		t.Fatalf("game %q map %q", srv.GameID(), srv.MapName())
	}
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, b := get("/config")
	var cfg map[string]any
	if code != 200 || json.Unmarshal([]byte(b), &cfg) != nil || cfg["gameId"] != "snakes" {
		t.Fatalf("/config: %d %s", code, b)
	}
	code, b = get("/games/snakes/manifest.json")
	var man map[string]any
	if code != 200 || json.Unmarshal([]byte(b), &man) != nil || man["title"] != "Snakes" || man["assetsBase"] != "/games/snakes/" {
		t.Fatalf("manifest: %d %s", code, b)
	}
	for path, want := range map[string]int{"/games/tanks/manifest.json": 404, "/games/snakes/maps/arena": 200,
		"/games/snakes/maps/yard": 404, "/games/snakes/sounds/death.mp3": 200, "/games/tanks/sounds/death.mp3": 404,
		"/games/snakes/img/tiles.png": 404, "/games/tanks/img/tiles.png": 404} {
		if code, b := get(path); code != want {
			t.Errorf("%s: %d %.80s, want %d", path, code, b, want)
		}
	}
	for _, c := range []Config{{Game: "chess"}, {Game: "snakes", Map: "bridge"}, {Map: "arena"}} {
		c.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
		if s, err := Start(context.Background(), c); err == nil {
			t.Errorf("%+v started: %s", c, s.URL())
		} else if !strings.Contains(err.Error(), "tanks") && !strings.Contains(err.Error(), "arena") {
			t.Errorf("%+v: %v does not list the choices", c, err)
		}
	}
	if g, err := FindGame(""); err != nil || g.ID != "tanks" || len(Games()) != 2 || Games()[1].Title != "Snakes" {
		t.Errorf("default game %+v %v, games %+v", g, err, Games())
	}
}

// A host's bots play the skill it is given; an unknown skill does not
// start, and the error lists the skills there are.
func TestBotSkillChecked(t *testing.T) {
	for _, s := range []string{"", "easy", "normal", "hard"} {
		if err := CheckBotSkill(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	c := Config{BotSkill: "insane", Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if s, err := Start(context.Background(), c); err == nil {
		t.Errorf("skill insane started: %s", s.URL())
	} else if !strings.Contains(err.Error(), "easy, normal, hard") {
		t.Errorf("%v does not list the skills", err)
	}
}
