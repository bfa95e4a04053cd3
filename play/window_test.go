package play

import (
	"context"
	"io"
	"strings"
	"testing"
)

// The start screen's offline page offers both games of the built-in host
// by name, the one -game named first, each with its maps (or the one -map
// picks).
func TestOfflineGames(t *testing.T) {
	got := offlineGames("", "")
	if len(got) != 2 || got[0].Label != "Tanks" || got[0].Value != "tanks" || got[1].Label != "Snakes" || got[1].Value != "snakes" ||
		got[1].Detail != "maps: arena" || !strings.Contains(got[0].Detail, "bridge") {
		t.Fatalf("offline page %+v", got)
	}
	got = offlineGames("snakes", "arena")
	if got[0].Value != "snakes" || got[0].Detail != "map arena" || !strings.HasPrefix(got[1].Detail, "maps: ") {
		t.Fatalf("with -game snakes -map arena: %+v", got)
	}
}

// -map applies to the game chosen on the page: a map of another game is
// refused with the chosen game's list, and the host then started plays the
// game chosen.
func TestOfflineHostMapOfTheGameChosen(t *testing.T) {
	p := &Config{Map: "arena", Bots: 1}
	o := &offlineHost{p: p, stderr: io.Discard}
	defer o.stop()
	ctx := context.Background()
	if _, err := o.url(ctx, "tanks"); err == nil || !strings.Contains(err.Error(), "its maps:") || !strings.Contains(err.Error(), "bridge") {
		t.Fatalf("tanks with -map arena: %v, want a refusal listing the tanks maps", err)
	}
	u, err := o.url(ctx, "snakes")
	if err != nil || u == "" || o.game != "snakes" {
		t.Fatalf("snakes with -map arena: %q, %v", u, err)
	}
	p.Map = ""
	if _, err := o.url(ctx, "tanks"); err != nil || o.game != "tanks" {
		t.Fatalf("switching to tanks: %v, game %q", err, o.game)
	}
}
