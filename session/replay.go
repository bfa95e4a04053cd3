package session

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"vimpclient/protocol"
)

// RecordedLine is one line of a capture or recording.
type RecordedLine struct {
	T          float64         `json:"t"`
	Ms         float64         `json:"ms"`
	Conn       string          `json:"conn"`
	Dir        string          `json:"dir"`
	Kind       string          `json:"kind"`
	Port       int             `json:"port"`
	Payload    json.RawMessage `json:"payload"`
	Bytes      int             `json:"bytes"`
	B64        string          `json:"b64"`
	B64Omitted bool            `json:"b64Omitted"`
	Code       int             `json:"code"`
	Reason     string          `json:"reason"`
	// A connect event's target: what keys the game's assets in the disk
	// cache, so a replay draws with the images the match drew with.
	Host        string `json:"host"`
	GameID      string `json:"gameId"`
	GameVersion string `json:"gameVersion"`
	AssetsBase  string `json:"assetsBase"`
}

// connectFields are a connect event's fields for target t: the address
// dialled and what keys the game's assets (see RecordedTarget).
func connectFields(t Target) map[string]any {
	f := map[string]any{"url": t.WSURL, "origin": t.Origin}
	for k, v := range map[string]string{"host": t.Host, "gameId": t.GameID, "gameVersion": t.GameVersion, "assetsBase": t.AssetsBase} {
		if v != "" {
			f[k] = v
		}
	}
	return f
}

// RecordedTarget is the target the recording's connection conn ("": the
// first) was made to, as far as its connect event tells: the host, the game
// and its version, and the assets base. ok is false when the recording
// names no assets base (an older recording, or a host without a game
// manifest).
func RecordedTarget(lines []RecordedLine, conn string) (t Target, ok bool) {
	for i := range lines {
		l := &lines[i]
		if l.Dir != "event" || l.Kind != "connect" || conn != "" && l.Conn != conn {
			continue
		}
		if l.AssetsBase == "" {
			return Target{}, false
		}
		return Target{Host: l.Host, GameID: l.GameID, GameVersion: l.GameVersion, AssetsBase: l.AssetsBase}, true
	}
	return Target{}, false
}

// Wire returns the message as it travelled, for s2c/c2s json and binary lines.
// A binary line logged by size only becomes that many zero bytes.
func (l RecordedLine) Wire() (Message, bool, error) {
	switch l.Kind {
	case "json":
		p := l.Payload
		if len(p) == 0 {
			p = json.RawMessage("null")
		}
		return Message{Data: append(append([]byte(fmt.Sprintf("[%d,", l.Port)), p...), ']')}, true, nil
	case "binary":
		if l.B64Omitted || l.B64 == "" {
			return Message{Binary: true, Data: make([]byte, min(l.Bytes, MaxIncomingMessage))}, true, nil
		}
		b, err := base64.StdEncoding.DecodeString(l.B64)
		if err != nil {
			return Message{}, false, fmt.Errorf("binary line: %w", err)
		}
		return Message{Binary: true, Data: b}, true, nil
	}
	return Message{}, false, nil
}

// RecordingBytes is about how many bytes a recording's messages take once
// queued: what a fast replay's queue needs.
func RecordingBytes(lines []RecordedLine) int {
	n := 0
	for _, l := range lines {
		n += len(l.Payload) + len(l.B64)*3/4 + l.Bytes + 256
	}
	return n
}

// ReadRecording reads every line of a capture or recording, up to limit lines.
func ReadRecording(r io.Reader, limit int) ([]RecordedLine, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 2*MaxIncomingMessage)
	var out []RecordedLine
	for sc.Scan() {
		if len(out) >= limit {
			return nil, fmt.Errorf("recording: more than %d lines", limit)
		}
		var l RecordedLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("recording line %d: %w", len(out)+1, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	return out, nil
}

// Replay is a Transport that plays back the server side of one recorded
// connection and keeps what the client sends. With a Speed it keeps the
// recorded spacing divided by the speed (1: as recorded); at 0 messages
// follow each other at once.
type Replay struct {
	lines []RecordedLine
	pos   int
	Speed float64
	start time.Time
	base  float64

	mu   sync.Mutex
	sent [][]byte
	at   time.Time // recorded time of the latest message handed out
}

// Now is the replay's clock: the recorded time of the latest message. A
// session given it as Options.Now keeps its own timed actions (the team
// vote pauses) in the recording's time, so a fast replay stays faithful.
func (r *Replay) Now() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.at
}

// NewReplay selects the lines of connection conn ("" = the first one seen).
func NewReplay(lines []RecordedLine, conn string) (*Replay, error) {
	if conn == "" {
		for _, l := range lines {
			if l.Conn != "" && (l.Dir == "s2c" || l.Dir == "c2s") {
				conn = l.Conn
				break
			}
		}
	}
	r := &Replay{base: -1}
	for _, l := range lines {
		if l.Conn != conn {
			continue
		}
		if l.Dir == "s2c" || (l.Dir == "event" && l.Kind == "close") {
			r.lines = append(r.lines, l)
		}
	}
	if len(r.lines) == 0 {
		return nil, fmt.Errorf("replay: no server messages for connection %q", conn)
	}
	return r, nil
}

// Lines are the recorded lines the replay plays: the connection's server
// messages and its close, in order.
func (r *Replay) Lines() []RecordedLine { return r.lines }

// Recv implements Transport.
func (r *Replay) Recv(ctx context.Context) (Message, error) {
	for {
		if err := ctx.Err(); err != nil {
			return Message{}, &CloseError{Code: protocol.CloseAbnormal, Err: err}
		}
		if r.pos >= len(r.lines) {
			return Message{}, &CloseError{Code: 1000, Reason: "end of recording"}
		}
		l := r.lines[r.pos]
		r.pos++
		r.mu.Lock()
		r.at = time.UnixMilli(int64(l.T - l.Ms)).Add(time.Duration(l.Ms * float64(time.Millisecond)))
		r.mu.Unlock()
		if r.Speed > 0 {
			if r.base < 0 {
				r.base, r.start = l.Ms, time.Now()
			}
			wait := time.Duration((l.Ms-r.base)/r.Speed*float64(time.Millisecond)) - time.Since(r.start)
			if wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					return Message{}, &CloseError{Code: protocol.CloseAbnormal, Err: ctx.Err()}
				case <-t.C:
				}
			}
		}
		if l.Dir == "event" {
			return Message{}, &CloseError{Code: l.Code, Reason: l.Reason}
		}
		m, ok, err := l.Wire()
		if err != nil {
			return Message{}, &CloseError{Code: protocol.CloseAbnormal, Err: err}
		}
		if ok {
			return m, nil
		}
	}
}

// Send implements Transport: the message is kept for inspection.
func (r *Replay) Send(_ context.Context, text []byte, _ bool) error {
	r.mu.Lock()
	r.sent = append(r.sent, append([]byte(nil), text...))
	r.mu.Unlock()
	return nil
}

// Lockstep tells the session to write each message's replies before reading
// the next one, so a replay faster than real time stays faithful.
func (r *Replay) Lockstep() bool { return true }

// Close implements Transport.
func (r *Replay) Close(int, string) error { return nil }

// Sent returns the messages the client sent so far.
func (r *Replay) Sent() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.sent...)
}

// RecordedAuth is the auth answer the recorded client last sent on conn
// (the first connection when conn is ""), so a replay answers the recorded
// form as the player did and needs no -nick. Non-string values keep their
// JSON text; the identity token (redacted in recordings anyway) is left out.
// nil when the recording holds no answer.
func RecordedAuth(lines []RecordedLine, conn string) map[string]string {
	var last json.RawMessage
	for _, l := range lines {
		if conn == "" && l.Conn != "" && (l.Dir == "s2c" || l.Dir == "c2s") {
			conn = l.Conn
		}
		if l.Conn == conn && l.Dir == "c2s" && l.Kind == "json" && l.Port == protocol.AuthResponse {
			last = l.Payload
		}
	}
	var fields map[string]json.RawMessage
	if last == nil || json.Unmarshal(last, &fields) != nil || len(fields) == 0 {
		return nil
	}
	out := make(map[string]string, len(fields))
	for k, raw := range fields {
		if k == TokenField {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		out[k] = s
	}
	return out
}

// ReplayAuth is how a replay answers the recorded auth form: the recorded
// answer, with nick (when not "") in place of the recorded identity field.
func ReplayAuth(lines []RecordedLine, conn, nick string) AuthValues {
	set := RecordedAuth(lines, conn)
	if nick != "" {
		delete(set, NickField)
	}
	return AuthValues{Nick: nick, Set: set}
}
