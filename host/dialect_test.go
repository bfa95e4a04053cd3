package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

// realTanks reads one file of what a real tanks 0.13 host sends.
func realTanks(t *testing.T, name string) any { return realTanksOf(t, "0.13", name) }

// realTanksOf reads one file of what a real host of tanks version sends.
func realTanksOf(t *testing.T, version, name string) any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-"+version, name))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// jsonDiff lists every path where got and want differ: members one has and
// the other lacks, lengths, types and values. Paths in skip (dotted, with
// [i] for array elements) are not compared.
func jsonDiff(got, want any, path string, skip map[string]bool, out *[]string) {
	if skip[path] {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %T, want an object", path, got))
			return
		}
		names := make([]string, 0, len(w)+len(g))
		for k := range w {
			names = append(names, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		for _, k := range names {
			p := strings.TrimPrefix(path+"."+k, ".")
			gv, gok := g[k]
			wv, wok := w[k]
			switch {
			case skip[p]:
			case !gok:
				*out = append(*out, p+": missing")
			case !wok:
				*out = append(*out, p+": not in the real data")
			default:
				jsonDiff(gv, wv, p, skip, out)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: %v, want %v", path, got, want))
			return
		}
		for i := range w {
			jsonDiff(g[i], w[i], fmt.Sprintf("%s[%d]", path, i), skip, out)
		}
	default:
		if !reflect.DeepEqual(got, want) {
			*out = append(*out, fmt.Sprintf("%s: %v, want %v", path, got, want))
		}
	}
}

func decodeJSON(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The embedded host on its default (flat) rotation speaks the real tanks
// dialect of its version, today's (0.22) by default and 0.13 when asked:
// its CONFIG_DATA and AUTH_DATA equal what a real host sends, member by
// member (the snapshot keys' names, types, kinds, interp and optionalFrom,
// the prediction model's keys, the sounds' codecs, the chat templates, the
// module element names), apart from the vote time, which the host's own
// setting gives; its MAP_DATA has the real map's members and none of the
// layered ones.
func TestEmbeddedHostSpeaksTheRealTanksDialect(t *testing.T) {
	for _, c := range []struct{ dialect, version string }{{"", "0.22"}, {"0.13", "0.13"}} {
		t.Run(c.version, func(t *testing.T) { speaksTheRealDialect(t, c.dialect, c.version) })
	}
}

func speaksTheRealDialect(t *testing.T, dialect, version string) {
	realTanks := func(t *testing.T, name string) any { return realTanksOf(t, version, name) }
	srv, _ := startHost(t, Config{VoteSeconds: 3, Dialect: dialect})
	c := dial(t, srv)

	cfg := decodeJSON(t, c.port(protocol.ConfigData).payload)
	var diff []string
	jsonDiff(cfg, realTanks(t, "config-data.json"), "", map[string]bool{"modules.vote.params.time": true}, &diff)
	for _, d := range diff {
		t.Errorf("CONFIG_DATA %s", d)
	}
	if got := cfg.(map[string]any)["modules"].(map[string]any)["vote"].(map[string]any)["params"].(map[string]any)["time"]; got != 3000.0 {
		t.Errorf("CONFIG_DATA vote time %v, want the host's 3000", got)
	}

	c.send(protocol.ConfigReady, nil)
	diff = diff[:0]
	jsonDiff(decodeJSON(t, c.port(protocol.AuthData).payload), realTanks(t, "auth-data.json"), "", nil, &diff)
	for _, d := range diff {
		t.Errorf("AUTH_DATA %s", d)
	}

	c.send(protocol.AuthResponse, map[string]string{"name": "Dialect", "model": "m1"})
	if res := c.port(protocol.AuthResult); string(res.payload) != "null" {
		t.Fatalf("auth rejected: %s", res.payload)
	}
	c.send(protocol.ModulesReady, nil)
	got := decodeJSON(t, c.port(protocol.MapData).payload).(map[string]any)
	want := realTanks(t, "maps/pool-mini.json").(map[string]any)
	for name, v := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("MAP_DATA: no %s", name)
			continue
		}
		if reflect.TypeOf(g) != reflect.TypeOf(v) {
			t.Errorf("MAP_DATA %s: %T, want %T", name, g, v)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("MAP_DATA %s: not in the real data", name)
		}
	}
	for _, layered := range []string{"levels", "ramps", "volumes"} {
		if _, ok := got[layered]; ok {
			t.Errorf("MAP_DATA of a flat map has %s", layered)
		}
	}
}

// A 0.13 host pinned to the layered map speaks the 2.5D dialect, and only
// there: the tank and crate rows carry z and level with their engine roles
// where the schema rules place them (after the angle; in the crate row's
// mandatory head), prediction announces the fall time, and
// MAP_DATA has the levels; everything else is the real dialect. A 0.22
// host sends its own CONFIG_DATA there too: its rows carry the levels.
func TestLayeredMapOptsIntoThe25DDialect(t *testing.T) {
	srv, _ := startHost(t, Config{Map: "bridge", Dialect: "0.13"})
	c := dial(t, srv)
	cfg := decodeJSON(t, c.port(protocol.ConfigData).payload)
	var diff []string
	jsonDiff(cfg, realTanks(t, "config-data.json"), "", map[string]bool{
		"snapshot.m1.fields": true, "snapshot.c1.fields": true, "snapshot.c1.optionalFrom": true,
		"prediction.mapFallTime": true, "prediction.weapons.w2.consumption": true,
	}, &diff)
	for _, d := range diff {
		t.Errorf("CONFIG_DATA %s", d)
	}
	snap := cfg.(map[string]any)["snapshot"].(map[string]any)
	names := func(key string) (out []string) {
		for _, f := range snap[key].(map[string]any)["fields"].([]any) {
			f := f.(map[string]any)
			n := f["name"].(string)
			if r, ok := f["role"]; ok {
				n += "/" + r.(string)
			}
			out = append(out, n)
		}
		return out
	}
	if got, want := names("m1"), []string{"x", "y", "angle", "z/z", "level/level", "gunRotation", "vx", "vy", "engineLoad", "condition", "size", "team", "angvel"}; !slices.Equal(got, want) {
		t.Errorf("m1 fields %v, want %v", got, want)
	}
	if got, want := names("c1"), []string{"x", "y", "angle", "z/z", "level/level", "vx", "vy", "angvel"}; !slices.Equal(got, want) {
		t.Errorf("c1 fields %v, want %v", got, want)
	}
	if of := snap["c1"].(map[string]any)["optionalFrom"]; of != 5.0 {
		t.Errorf("c1 optionalFrom %v, want 5", of)
	}
	pred := cfg.(map[string]any)["prediction"].(map[string]any)
	if pred["mapFallTime"] != 0.35 {
		t.Errorf("prediction.mapFallTime %v, want 0.35", pred["mapFallTime"])
	}
	c.send(protocol.ConfigReady, nil)
	c.port(protocol.AuthData)
	c.send(protocol.AuthResponse, map[string]string{"name": "Layered", "model": "m1"})
	c.port(protocol.AuthResult)
	c.send(protocol.ModulesReady, nil)
	if _, ok := decodeJSON(t, c.port(protocol.MapData).payload).(map[string]any)["levels"]; !ok {
		t.Error("MAP_DATA of the layered map without levels")
	}

	srv22, _ := startHost(t, Config{Map: "bridge"})
	c22 := dial(t, srv22)
	diff = diff[:0]
	jsonDiff(decodeJSON(t, c22.port(protocol.ConfigData).payload), realTanksOf(t, "0.22", "config-data.json"), "",
		map[string]bool{"modules.vote.params.time": true}, &diff)
	for _, d := range diff {
		t.Errorf("0.22 CONFIG_DATA on the layered map: %s", d)
	}
}

// A host given a game's own data sends it as it is: the real CONFIG_DATA,
// AUTH_DATA and MAP_DATA, member for member, and the frames decode with
// that CONFIG_DATA's schema.
func TestGameDataIsSentAsItIs(t *testing.T) {
	game, auth, err := LoadGameData(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.13"))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := startHost(t, Config{Data: game, AuthData: auth, Map: "garden", Bots: 1})
	c := dial(t, srv)
	same := func(what string, got []byte, want any) {
		t.Helper()
		var diff []string
		jsonDiff(decodeJSON(t, got), want, "", nil, &diff)
		for _, d := range diff {
			t.Errorf("%s %s", what, d)
		}
	}
	c.handshakeWith("Verbatim", func(port int, payload []byte) {
		switch port {
		case protocol.ConfigData:
			same("CONFIG_DATA", payload, realTanks(t, "config-data.json"))
		case protocol.AuthData:
			same("AUTH_DATA", payload, realTanks(t, "auth-data.json"))
		case protocol.MapData:
			same("MAP_DATA", payload, realTanks(t, "maps/garden.json"))
		}
	})
	c.joinTeam("team1")
	c.until("a decoded frame with tanks", func(m msg) bool { return m.binary && c.gid >= 0 })
}
