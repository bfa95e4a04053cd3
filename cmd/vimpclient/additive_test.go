package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/host/packer"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/snapschema"
)

// A host newer than the client adds what the client does not know: a field
// in every snapshot row (at its end, right after a weapon row's author id,
// inside the mandatory head and just before an optional tail), part classes
// (one on a key the game draws, one on a key of its own), a CONFIG_DATA
// module and top-level member, and ports. The client must go on as before:
// the game recognised, every part class it knows on the game's drawer, its
// own actor predicted, every frame decoded, the unknown ports counted.
func TestAdditiveChangeKeepsTheGame(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, game := range []string{"tanks", "snakes"} {
		t.Run(game, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var srv *host.Server
			if game == "tanks" {
				srv = startRealTanksHost(t, ctx, "garden", 1) // what a real tanks 0.13 host sends
			} else {
				var err error
				if srv, err = host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Game: "snakes", Bots: 1, Seed: 1, Log: quiet}); err != nil {
					t.Fatal(err)
				}
			}
			w := &widener{}
			sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Newer"}, AutoTeam: true, Logger: quiet})
			ents := gameloop.NewEntities()
			g := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), Context: ctx, AutoTeam: true, Observer: ents})
			play, stop := context.WithCancel(ctx)
			defer stop()
			ents.OnTick = func(g *gameloop.Loop, _ time.Time) {
				if p := g.Stats().Prediction; sess.Stats().Player && p != nil && p.Samples >= 60 && w.frames() >= 60 {
					stop()
				}
			}
			runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: g.SetTarget,
				Dial: func(ctx context.Context, t session.Target) (session.Transport, error) {
					ws, err := session.DialWebSocket(ctx, http.DefaultClient, t.WSURL, t.Origin)
					if err != nil {
						return nil, err
					}
					return &widenedTransport{Transport: ws, w: w}, nil
				}}
			start := time.Now()
			gameloop.RunHeadless(play, g, runner.Run, 60, nil)
			s := gameloop.Summarize(g, ents, time.Since(start))
			t.Logf("%s: state %s, frames %+v (%d widened), game %+v, prediction %+v, ports %v", game, s.State, s.Frames, w.frames(), s.Game, s.Prediction, s.Ports)
			if ctx.Err() != nil {
				t.Fatalf("timed out: player %v, prediction %+v, widened frames %d, errors %v", s.Player, s.Prediction, w.frames(), w.errs())
			}
			if errs := w.errs(); len(errs) > 0 {
				t.Fatalf("widening: %v", errs)
			}
			if s.Game == nil || s.Game.Name != game {
				t.Fatalf("game %+v, want %s recognised", s.Game, game)
			}
			for _, c := range w.knownClasses() {
				if s.Game.Parts[c] != game {
					t.Errorf("part %s drawn by %q, want %s", c, s.Game.Parts[c], game)
				}
			}
			if got := s.Game.Parts["FutureTrail"]; got != parts.DrawnByNone {
				t.Errorf("an unknown class on a key the game draws: %q, want %q", got, parts.DrawnByNone)
			}
			if got := s.Game.Parts["FutureBeacon"]; got != parts.DrawnGeneric {
				t.Errorf("an unknown class on a key of its own: %q, want %q", got, parts.DrawnGeneric)
			}
			if f := s.Frames; f.Received == 0 || f.Decoded != uint64(f.Received) || f.Dropped != 0 || s.Undecodable != nil {
				t.Errorf("frames %+v, undecodable %+v", f, s.Undecodable)
			}
			if s.Prediction == nil || s.Prediction.Samples < 60 {
				t.Errorf("own actor not predicted: %+v", s.Prediction)
			}
			if s.Ports["77"] == 0 || s.Ports["250"] == 0 {
				t.Errorf("unknown ports not counted: %v", s.Ports)
			}
			if len(s.Errors) != 0 {
				t.Errorf("errors %v", s.Errors)
			}
		})
	}
}

// widenedTransport hands the session what a newer host would send: the
// CONFIG_DATA widened, every frame packed again for the wider schema, and
// messages on ports no engine the client knows uses.
type widenedTransport struct {
	session.Transport
	w       *widener
	pending []session.Message
}

func (t *widenedTransport) Recv(ctx context.Context) (session.Message, error) {
	if len(t.pending) > 0 {
		m := t.pending[0]
		t.pending = t.pending[1:]
		return m, nil
	}
	m, err := t.Transport.Recv(ctx)
	if err != nil {
		return m, err
	}
	if m.Binary {
		return session.Message{Binary: true, Data: t.w.frame(m.Data)}, nil
	}
	var env []json.RawMessage
	if json.Unmarshal(m.Data, &env) != nil || len(env) != 2 || string(env[0]) != fmt.Sprint(protocol.ConfigData) {
		return m, nil
	}
	wide, err := t.w.config(env[1])
	if err != nil {
		t.w.fail(err)
		return m, nil
	}
	t.pending = append(t.pending,
		session.Message{Data: []byte(`[77,{"future":true}]`)},
		session.Message{Data: []byte(`[250,["a",1,null]]`)})
	return session.Message{Data: append(append([]byte(`[0,`), wide...), ']')}, nil
}

// widener widens one connection's schema and its frames.
type widener struct {
	mu      sync.Mutex
	dec     *clientcore.Decoder
	wide    *snapschema.Schema
	maps    map[string][]int // key → for each wide field, the old field's index (-1: added)
	known   []string
	pk      packer.Frame
	decoded clientcore.Frame
	vals    []packer.Value
	n       int
	errors  []error
}

func (w *widener) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.errors) < 8 {
		w.errors = append(w.errors, err)
	}
}

func (w *widener) errs() []error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.errors)
}

func (w *widener) frames() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

func (w *widener) knownClasses() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.known
}

// config widens a CONFIG_DATA payload and remembers both schemas.
func (w *widener) config(raw json.RawMessage) (json.RawMessage, error) {
	var top map[string]any
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	oldSnap, err := json.Marshal(top["snapshot"])
	if err != nil {
		return nil, err
	}
	old, err := clientcore.ParseSchema(oldSnap)
	if err != nil {
		return nil, fmt.Errorf("the host's own schema: %w", err)
	}
	keys := top["snapshot"].(map[string]any)
	maps := map[string][]int{}
	maxID := 0.0
	for name, kv := range keys {
		k := kv.(map[string]any)
		maxID = math.Max(maxID, k["id"].(float64))
		fields, _ := k["fields"].([]any)
		idx := make([]int, len(fields))
		for i := range idx {
			idx[i] = i
		}
		insert := func(at int, f map[string]any) {
			fields = slices.Insert(fields, at, any(f))
			idx = slices.Insert(idx, at, -1)
		}
		if of, ok := k["optionalFrom"].(float64); ok && of > 0 {
			insert(int(of), map[string]any{"name": "futureHead", "ty": "u16"}) // the last of the mandatory part
			k["optionalFrom"] = of + 1
		}
		if len(fields) > 1 {
			insert(1, map[string]any{"name": "futureInner", "ty": "f32"})
			if of, ok := k["optionalFrom"].(float64); ok && of > 0 {
				k["optionalFrom"] = of + 1
			}
		}
		for i, f := range fields {
			if n := f.(map[string]any)["name"]; n == "shooterId" || n == "ownerId" {
				insert(i+1, map[string]any{"name": "futureLevel", "ty": "u8"})
				break
			}
		}
		fields = append(fields, map[string]any{"name": "futureTail", "ty": "u8"})
		idx = append(idx, -1)
		k["fields"] = fields
		maps[name] = idx
	}
	keys["z9"] = map[string]any{"id": maxID + 1, "kind": "list16", "class": "event",
		"fields": []any{map[string]any{"name": "x", "ty": "f32"}, map[string]any{"name": "y", "ty": "f32"}}}
	p := top["parts"].(map[string]any)
	eoc := p["entitiesOnCanvas"].(map[string]any)
	var known []string
	for c := range eoc {
		known = append(known, c)
	}
	sets := p["gameSets"].(map[string]any)
	firstKey := ""
	for k := range sets {
		if firstKey == "" || k < firstKey {
			firstKey = k
		}
	}
	sets[firstKey] = append(sets[firstKey].([]any), "FutureTrail")
	sets["z9"] = []any{"FutureBeacon"}
	eoc["FutureTrail"], eoc["FutureBeacon"] = "vimp", "vimp"
	if mods, ok := top["modules"].(map[string]any); ok {
		mods["futureModule"] = map[string]any{"params": map[string]any{"rate": 3, "list": []any{1, "two"}}}
	}
	top["futureTop"] = map[string]any{"since": "a newer engine"}
	wideRaw, err := json.Marshal(top)
	if err != nil {
		return nil, err
	}
	wideSnap, err := json.Marshal(keys)
	if err != nil {
		return nil, err
	}
	wide, err := snapschema.Parse(wideSnap)
	if err != nil {
		return nil, fmt.Errorf("the widened schema: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dec, w.wide, w.maps, w.known = clientcore.NewDecoder(old), wide, maps, known
	return wideRaw, nil
}

// frame decodes a frame with the host's schema and packs it again for the
// wide one, the added fields zero.
func (w *widener) frame(data []byte) []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dec == nil {
		return data
	}
	f := &w.decoded
	if err := w.dec.Decode(data, f); err != nil {
		w.errors = append(w.errors, fmt.Errorf("the host's frame: %w", err))
		return data
	}
	var cam *packer.Camera
	if f.HasCamera {
		cam = &packer.Camera{X: f.Camera.X, Y: f.Camera.Y, ForceReset: f.Camera.ForceReset, Shake: f.Camera.ShakeText(), HasShake: f.Camera.HasShake}
	}
	var pl *packer.Player
	if f.HasPlayer {
		pl = &packer.Player{GameID: f.Player.GameID, InputSeq: f.Player.LastInputSeq, State: f.Player.State, Centering: f.Player.Centering}
	}
	w.pk.Start(f.Seq, f.ServerTime, cam, pl)
	for _, b := range f.Blocks {
		k := w.wide.Key(b.Key())
		idx := w.maps[b.Key()]
		w.pk.Block(k)
		for _, r := range b.Rows {
			if r.Null {
				w.pk.NullRow(r.ID)
				continue
			}
			w.vals = w.vals[:0]
			for i, old := range idx {
				var v float32
				if old >= 0 {
					v = r.Fields[old]
				}
				if k.Fields[i].Type == snapschema.TypeF32 {
					w.vals = append(w.vals, packer.F(v))
				} else {
					w.vals = append(w.vals, packer.I(uint32(v)))
				}
			}
			if k.Kind == snapschema.KindList16 {
				w.pk.ListRow(w.vals)
			} else {
				w.pk.Row(r.ID, w.vals)
			}
		}
	}
	out, err := w.pk.Bytes()
	if err != nil {
		w.errors = append(w.errors, fmt.Errorf("packing for the wide schema: %w", err))
		return data
	}
	w.n++
	return slices.Clone(out)
}
