package gameloop

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/snapschema"
)

// recorder is every interface of the router, writing down what it was handed, in order;
// passVotes is what vote answers.
type recorder struct {
	got       []string
	passVotes bool
}

func (r *recorder) add(format string, a ...any) { r.got = append(r.got, fmt.Sprintf(format, a...)) }

func (r *recorder) authForm(_ *protocol.AuthForm, _ map[string]string, e error) {
	r.add("authForm %v", e)
}

func (r *recorder) opened()                               { r.add("opened") }
func (r *recorder) resumed()                              { r.add("resumed") }
func (r *recorder) frame(data []byte, _ time.Time)        { r.add("frame %d", len(data)) }
func (r *recorder) playing(time.Time)                     { r.add("playing") }
func (r *recorder) closed(c *session.CloseInfo)           { r.add("closed %d", c.Code) }
func (r *recorder) refused(err error)                     { r.add("refused %v", err) }
func (r *recorder) retry(ri *session.RetryInfo)           { r.add("retry %d", ri.Attempt) }
func (r *recorder) ping(time.Time)                        { r.add("ping") }
func (r *recorder) platform(ev *session.Event)            { r.add("platform %v", ev.Platform.Kind) }
func (r *recorder) vote(protocol.Vote) bool               { r.add("vote"); return r.passVotes }
func (r *recorder) refuse(msg string)                     { r.add("refuse %s", msg) }
func (r *recorder) overlays(m protocol.Message)           { r.add("overlays %T", m) }
func (r *recorder) config(*protocol.Config, time.Time)    { r.add("config") }
func (r *recorder) verdict(v protocol.AuthVerdict)        { r.add("verdict %v", v.OK) }
func (r *recorder) chat(protocol.Chat)                    { r.add("chat") }
func (r *recorder) mapData(*protocol.MapInfo)             { r.add("map") }
func (r *recorder) firstShot(*protocol.FirstShot)         { r.add("firstShot") }
func (r *recorder) panel(protocol.Panel)                  { r.add("panel") }
func (r *recorder) clear(c protocol.ClearScope)           { r.add("clear %v", c.Full) }
func (r *recorder) keyset(k protocol.Keyset)              { r.add("keyset %d", k) }
func (r *recorder) tech(t protocol.TechInform)            { r.add("tech %v", t.Hide) }
func (r *recorder) inform(i protocol.Inform, _ time.Time) { r.add("inform %d", i.Code) }
func (r *recorder) sound(s protocol.Sound)                { r.add("sound %s", s) }

func route(r *recorder, evs ...session.Event) string {
	for i := range evs {
		router{conn: r, arrivals: r, gates: r, handshake: r, inPlay: r}.event(&evs[i])
	}
	return strings.Join(r.got, "; ")
}

func msg(m protocol.Message) session.Event {
	return session.Event{Kind: session.EventMessage, Msg: m}
}

// Every kind of event reaches its own handler; a message reaches the HUD
// first, then the handler it is for.
func TestRouterHandsEachEventToItsHandler(t *testing.T) {
	got := route(&recorder{passVotes: true},
		session.Event{Kind: session.EventOpen},
		session.Event{Kind: session.EventFrame, Data: []byte{1, 2, 3}},
		session.Event{Kind: session.EventState, State: session.StateAuth},
		session.Event{Kind: session.EventState, State: session.StatePlaying},
		session.Event{Kind: session.EventClosed, Close: &session.CloseInfo{Code: 4006}},
		session.Event{Kind: session.EventRefused, Err: errors.New("no")},
		session.Event{Kind: session.EventRetry, Retry: &session.RetryInfo{Attempt: 2}},
		session.Event{Kind: session.EventPlatform},
		session.Event{Kind: session.EventPlatform, Platform: &session.PlatformEvent{Kind: session.PlatformNotice}},
		msg(&protocol.Config{}),
		session.Event{Kind: session.EventMessage, Msg: &protocol.AuthForm{}, Err: errors.New("ask")},
		msg(protocol.AuthVerdict{OK: true}),
		msg(protocol.Chat{}),
		msg(&protocol.MapInfo{}),
		msg(&protocol.FirstShot{}),
		msg(protocol.Panel{}),
		msg(protocol.ClearScope{Full: true}),
		msg(protocol.Keyset(1)),
		msg(protocol.TechInform{Hide: true}),
		msg(protocol.Inform{Code: 1}),
		msg(protocol.Sound("s")),
	)
	want := strings.Join([]string{"opened", "frame 3", "playing", "closed 4006", "refused no", "retry 2",
		fmt.Sprintf("platform %v", session.PlatformNotice),
		"overlays *protocol.Config", "config",
		"overlays *protocol.AuthForm", "authForm ask",
		"overlays protocol.AuthVerdict", "verdict true",
		"overlays protocol.Chat", "chat",
		"overlays *protocol.MapInfo", "map",
		"overlays *protocol.FirstShot", "firstShot",
		"overlays protocol.Panel", "panel",
		"overlays protocol.ClearScope", "clear true",
		"overlays protocol.Keyset", "keyset 1",
		"overlays protocol.TechInform", "tech true",
		"overlays protocol.Inform", "inform 1",
		"overlays protocol.Sound", "sound s",
	}, "; ")
	if got != want {
		t.Fatalf("routed\n%s\nwant\n%s", got, want)
	}
}

// A vote the feedback keeps (answered by the session, held for a rejoin)
// never reaches the HUD; one it lets through does, and has no handler of
// its own after the HUD.
func TestRouterVoteGate(t *testing.T) {
	if got := route(&recorder{}, msg(protocol.Vote{})); got != "vote" {
		t.Fatalf("kept vote routed %q", got)
	}
	if got := route(&recorder{passVotes: true}, msg(protocol.Vote{})); got != "vote; overlays protocol.Vote" {
		t.Fatalf("passed vote routed %q", got)
	}
}

// A CONFIG_DATA whose schema is past the limit is refused before the HUD,
// the core or the world read it; one at the limit goes through.
func TestRouterRefusesAHugeSchema(t *testing.T) {
	big := &protocol.Config{Snapshot: make([]byte, snapschema.MaxBytes+1)}
	got := route(&recorder{}, msg(big))
	if !strings.HasPrefix(got, "refuse snapshot schema: ") || strings.Contains(got, "overlays") || strings.Contains(got, "config") {
		t.Fatalf("huge schema routed %q", got)
	}
	ok := &protocol.Config{Snapshot: make([]byte, snapschema.MaxBytes)}
	if got := route(&recorder{}, msg(ok)); got != "overlays *protocol.Config; config" {
		t.Fatalf("schema at the limit routed %q", got)
	}
}

// leftToOthers are the message kinds no concern of the loop is handed,
// and who reads them instead.
var leftToOthers = map[string]string{
	"protocol.Vote":         "the vote gate, then the HUD",
	"*protocol.Stat":        "the HUD (the loop notes it in overlays)",
	"*protocol.Accolades":   "the HUD (the loop notes it in overlays)",
	"protocol.MiscEntry":    "the session (a nick the host renamed)",
	"protocol.ConsoleLog":   "nobody: the host's debug log",
	"protocol.PingID":       "the session, which answers it and queues an EventPing",
	"protocol.SessionInfo":  "the session, which keeps the resume key to itself",
	"protocol.ResumeAnswer": "the session, which resumes or joins afresh",
	"protocol.Unknown":      "the session, which counts it",
}

// Every kind of message reaches the HUD and then one concern, or is one
// left to others: a kind added to protocol.MessageKinds without a case in
// the router fails here.
func TestRouterHandlesEveryMessageKind(t *testing.T) {
	kinds := map[string]bool{}
	for _, m := range protocol.MessageKinds() {
		kind := fmt.Sprintf("%T", m)
		kinds[kind] = true
		r := &recorder{passVotes: true}
		route(r, msg(m))
		got := slices.DeleteFunc(slices.Clone(r.got), func(s string) bool { return s == "vote" })
		if len(got) == 0 || got[0] != "overlays "+kind {
			t.Errorf("%s: routed %q, the HUD first", kind, r.got)
			continue
		}
		_, left := leftToOthers[kind]
		switch {
		case left && len(got) != 1:
			t.Errorf("%s is left to %s, but was routed %q", kind, leftToOthers[kind], r.got)
		case !left && len(got) != 2:
			t.Errorf("%s: routed %q: no concern of the loop is handed it, and leftToOthers does not name it", kind, r.got)
		}
	}
	for kind := range leftToOthers {
		if !kinds[kind] {
			t.Errorf("leftToOthers names %s, which is no message kind", kind)
		}
	}
}
