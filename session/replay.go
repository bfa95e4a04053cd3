package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"vimpclient/internal/localfile"
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
			if l.Bytes < 0 || l.Bytes > MaxIncomingMessage {
				return Message{}, false, fmt.Errorf("binary line: a size of %d bytes, not between 0 and %d", l.Bytes, MaxIncomingMessage)
			}
			return Message{Binary: true, Data: make([]byte, l.Bytes)}, true, nil
		}
		if base64.StdEncoding.DecodedLen(len(l.B64)) > MaxIncomingMessage {
			return Message{}, false, fmt.Errorf("binary line: %d characters of base64, over the %d bytes a message holds", len(l.B64), MaxIncomingMessage)
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
		n += len(l.Payload) + len(l.B64)*3/4 + min(max(l.Bytes, 0), MaxIncomingMessage) + 256
	}
	return n
}

// Limits of what ReadRecording keeps of a recording. A recording is read a
// line at a time; only the lines a replay uses are kept (see Recording),
// and these bound how many and how large they may be, so a damaged or
// hostile file costs at most about MaxRecordingKept of memory however it
// is made.
const (
	// MaxRecordingLines bounds the lines kept: about eleven hours of a
	// match at fifty messages a second.
	MaxRecordingLines = 1 << 21
	// MaxRecordingKept bounds the bytes kept, as RecordedLine.Cost counts
	// them (each line's own size in memory, its text and the message it
	// plays), with the lines' own size counted again for the moment they
	// are joined into one slice.
	MaxRecordingKept = 512 << 20
)

// Bounds of a recording line's numbers. A time is in milliseconds: t since
// 1970 (up to the largest integer a JSON number holds exactly), ms since
// the recording began (up to about 34 years, well inside a time.Duration).
// A port is what an envelope may carry (the client's envelope parser
// accepts 0 to 65536); a client message may also carry a negative one,
// which the error probes send. A close code is 0 (none) or one WebSocket
// defines or leaves to applications (1000 to 4999).
const (
	maxLineT       = 1 << 53
	maxLineMs      = 1 << 40
	maxLinePort    = 1 << 16
	minCloseCode   = 1000
	maxCloseCode   = 4999
	maxRecordedB64 = (MaxIncomingMessage + 2) / 3 * 4
)

// lineSize is what a kept line costs before its text: the struct itself.
const lineSize = int64(unsafe.Sizeof(RecordedLine{}))

// RecordingLimits bound what ReadRecording keeps.
type RecordingLimits struct {
	Lines int   // lines kept; four times as many are read at most
	Bytes int64 // bytes kept, as MaxRecordingKept says
}

// DefaultRecordingLimits are the limits a replay reads a recording with.
func DefaultRecordingLimits() RecordingLimits {
	return RecordingLimits{Lines: MaxRecordingLines, Bytes: MaxRecordingKept}
}

// Recording is what ReadRecording keeps of a recording: the lines a replay
// uses (server messages, the client's JSON messages, connect and close
// events), in order. The rest (the session header and trailer, other
// events, raw text messages, lines without a direction) are read, checked
// and counted, but not kept.
type Recording struct {
	Lines   []RecordedLine
	Read    int   // lines read, blank ones included
	Skipped int   // lines read and not kept
	Kept    int64 // what Lines cost, as RecordedLine.Cost counts it
}

// LoadRecording reads the recording at path with the default limits. Only
// a regular file is read (a FIFO or a device is refused at once), and at
// most localfile.RecordingLimit bytes of it.
func LoadRecording(path string) (*Recording, error) {
	f, _, err := localfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	defer f.Close()
	rec, err := ReadRecording(localfile.LimitReader(f, localfile.RecordingLimit, path, "recording"), DefaultRecordingLimits())
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, err // names the path already
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// ReadRecording reads a capture or recording line by line, keeping the
// lines a replay uses within lim. Every line is checked as it is read: a
// line that is not JSON, or whose numbers a recording cannot hold (a
// negative size, a time before 1970, a port or close code out of range),
// is an error naming its line number. Such a line is never dropped: a
// replay is a function of every server message, and playing the recording
// without one would show a match that never happened.
func ReadRecording(r io.Reader, lim RecordingLimits) (*Recording, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxRecordedLine)
	// Kept lines gather in chunks copied once into a slice of the exact
	// length at the end: the lines end in no spare room, as a slice grown
	// by doubling would (up to half of it).
	const chunk = 4096
	var (
		rec    Recording
		chunks [][]RecordedLine
		cur    []RecordedLine
		n      int
		conn   string // the previous line's connection, shared by the next
	)
	for sc.Scan() {
		if rec.Read++; rec.Read > maxRead(lim) {
			return nil, fmt.Errorf("recording line %d: more than %d lines, the most a replay reads", rec.Read, maxRead(lim))
		}
		text := sc.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			rec.Skipped++
			continue
		}
		var l RecordedLine
		if err := json.Unmarshal(text, &l); err != nil {
			return nil, fmt.Errorf("recording line %d: %w", rec.Read, jsonLineError(err))
		}
		if err := l.check(); err != nil {
			return nil, fmt.Errorf("recording line %d: %w", rec.Read, err)
		}
		if !l.kept() {
			rec.Skipped++
			continue
		}
		if l.Conn == conn {
			l.Conn = conn
		}
		conn = l.Conn
		l.Dir, l.Kind = intern(l.Dir), intern(l.Kind)
		if n >= lim.Lines {
			return nil, fmt.Errorf("recording line %d: more than %d lines to keep, the most a replay holds", rec.Read, lim.Lines)
		}
		// The lines' own size counts twice: the chunks and the slice they
		// are joined into are both held while it is filled.
		if rec.Kept += l.Cost(); rec.Kept+int64(n+1)*lineSize > lim.Bytes {
			return nil, fmt.Errorf("recording line %d: more than %s to keep, the most a replay holds in memory", rec.Read, localfile.Size(lim.Bytes))
		}
		if len(cur) == cap(cur) {
			if cur != nil {
				chunks = append(chunks, cur)
			}
			cur = make([]RecordedLine, 0, chunk)
		}
		cur = append(cur, l)
		n++
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("recording line %d: longer than %s, the longest line a recording holds", rec.Read+1, localfile.Size(maxRecordedLine))
		}
		return nil, fmt.Errorf("recording line %d: %w", rec.Read+1, err)
	}
	if n > 0 {
		rec.Lines = make([]RecordedLine, 0, n)
		for _, c := range append(chunks, cur) {
			rec.Lines = append(rec.Lines, c...)
		}
	}
	return &rec, nil
}

// maxRead is how many lines, kept or skipped, ReadRecording reads at most
// with lim: a recording skips few (its header, trailer and connection
// events), so four times the lines kept leaves room to spare, and a file
// of nothing but skipped lines is not read on for minutes.
func maxRead(lim RecordingLimits) int { return 4 * lim.Lines }

// maxRecordedLine is the longest line a recording holds: a largest binary
// message in base64 with room to spare.
const maxRecordedLine = 2 * MaxIncomingMessage

// check refuses a line whose numbers no recording holds.
func (l *RecordedLine) check() error {
	switch {
	case !(l.T >= 0 && l.T <= maxLineT):
		return fmt.Errorf(`"t" is %g: a time must lie between 0 and %d ms`, l.T, int64(maxLineT))
	case !(l.Ms >= 0 && l.Ms <= maxLineMs):
		return fmt.Errorf(`"ms" is %g: a time into the recording must lie between 0 and %d ms`, l.Ms, int64(maxLineMs))
	case l.Port > maxLinePort || l.Port < -maxLinePort:
		return fmt.Errorf(`"port" is %d: a port must lie between -%d and %d`, l.Port, maxLinePort, maxLinePort)
	case l.Port < 0 && l.Dir == "s2c":
		return fmt.Errorf(`"port" is %d: a server message's port cannot be negative`, l.Port)
	case l.Bytes < 0:
		return fmt.Errorf(`"bytes" is %d: a message's size cannot be negative`, l.Bytes)
	case l.Bytes > MaxIncomingMessage:
		return fmt.Errorf(`"bytes" is %d: a message may hold at most %d bytes`, l.Bytes, MaxIncomingMessage)
	case len(l.B64) > maxRecordedB64:
		return fmt.Errorf(`"b64" holds %d characters: a message may hold at most %d bytes`, len(l.B64), MaxIncomingMessage)
	case l.Code != 0 && (l.Code < minCloseCode || l.Code > maxCloseCode):
		return fmt.Errorf(`"code" is %d: a close code is 0 (none) or lies between %d and %d`, l.Code, minCloseCode, maxCloseCode)
	}
	return nil
}

// kept reports whether a replay uses the line: a server message, a client
// JSON message (the recorded auth answer, the replies tests compare), a
// connect event (the assets' key) or a close.
func (l *RecordedLine) kept() bool {
	switch l.Dir {
	case "s2c":
		return l.Kind == "json" || l.Kind == "binary"
	case "c2s":
		return l.Kind == "json"
	case "event":
		return l.Kind == "connect" || l.Kind == "close"
	}
	return false
}

// intern returns the constant for a kept line's direction or kind, so the
// many lines share one copy of each.
func intern(s string) string {
	for _, c := range [...]string{"s2c", "c2s", "event", "json", "binary", "connect", "close"} {
		if s == c {
			return c
		}
	}
	return s
}

// Cost is about what the line holds in memory, and what playing it
// allocates: its own size, its text, and for a binary message logged by
// size only the zero bytes it becomes.
func (l *RecordedLine) Cost() int64 {
	n := lineSize + int64(len(l.Payload)+len(l.B64)+len(l.Conn)+len(l.Reason)+
		len(l.Host)+len(l.GameID)+len(l.GameVersion)+len(l.AssetsBase))
	if l.Kind == "binary" && (l.B64Omitted || l.B64 == "") && l.Bytes > 0 {
		n += int64(min(l.Bytes, MaxIncomingMessage))
	}
	return n
}

// jsonLineError says what a line's JSON got wrong in a player's terms: a
// field of the wrong type names the field and what it should hold.
func jsonLineError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return err
	}
	want := "a " + te.Type.String()
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		want = "a whole number"
	case reflect.Float64:
		want = "a number a float64 holds"
	case reflect.String:
		want = "a string"
	case reflect.Bool:
		want = "true or false"
	}
	return fmt.Errorf("%q must be %s; the line has %s", te.Field, want, te.Value)
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
