package session

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"vimpclient/internal/version"
	"vimpclient/termtext"
)

// Recorder writes every message both ways, and connection events, as JSON
// lines in the form of the shared captures (t, ms, conn, dir, kind, ...).
type Recorder struct {
	mu       sync.Mutex
	w        *bufio.Writer
	c        io.Closer
	now      func() time.Time
	start    time.Time
	scenario string
	conn     string
	err      error
	secrets  [][]byte
}

// Redact replaces secret (an identity token) with "[redacted]" in every
// line written from now on.
func (r *Recorder) Redact(secret string) {
	if r == nil || len(secret) < 8 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.secrets {
		if string(s) == secret {
			return
		}
	}
	r.secrets = append(r.secrets, []byte(secret))
}

// NewRecorder starts a transcript on w; the header line names the scenario
// and the client's build.
// now is the clock of the timestamps (time.Now when nil; a replay's clock
// when re-recording a replay, so its pauses survive).
func NewRecorder(w io.WriteCloser, scenario string, now func() time.Time) *Recorder {
	if now == nil {
		now = time.Now
	}
	return &Recorder{w: bufio.NewWriterSize(w, 64<<10), c: w, now: now, conn: "A", scenario: scenario}
}

// SetConn labels the following lines with conn (a new label per reconnect).
func (r *Recorder) SetConn(conn string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.conn = conn
	r.mu.Unlock()
}

func (r *Recorder) line(fields map[string]any, withConn bool) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.start.IsZero() {
		r.start = now
		r.write(map[string]any{"t": now.UnixMilli(), "ms": 0, "dir": "event", "kind": "session", "scenario": r.scenario,
			"client": version.Get().String()})
	}
	fields["t"] = now.UnixMilli()
	fields["ms"] = float64(now.Sub(r.start).Microseconds()) / 1000
	if withConn {
		fields["conn"] = r.conn
	}
	r.write(fields)
}

func (r *Recorder) write(fields map[string]any) {
	if r.err != nil {
		return
	}
	b, err := json.Marshal(fields)
	if err != nil {
		r.err = fmt.Errorf("recorder: %w", err)
		return
	}
	for _, s := range r.secrets {
		b = bytes.ReplaceAll(b, s, []byte(Redacted))
	}
	// The same JSON, but a transcript printed on a terminal obeys none
	// of the host's text (DEL, C1, bidi marks as \u escapes).
	b = append(termtext.EscapeJSON(b), '\n')
	if _, err := r.w.Write(b); err != nil {
		r.err = fmt.Errorf("recorder: %w", err)
		return
	}
	if err := r.w.Flush(); err != nil {
		r.err = fmt.Errorf("recorder: %w", err)
	}
}

// Event records a connection event (connect, open, close, client-close, error).
func (r *Recorder) Event(kind string, extra map[string]any) {
	if r == nil {
		return
	}
	f := map[string]any{"dir": "event", "kind": kind}
	for k, v := range extra {
		f[k] = v
	}
	r.line(f, true)
}

// Message records one wire message in direction dir ("s2c" or "c2s").
func (r *Recorder) Message(dir string, m Message) {
	if r == nil {
		return
	}
	if m.Binary {
		r.line(map[string]any{"dir": dir, "kind": "binary", "port": 5, "bytes": len(m.Data), "b64": base64.StdEncoding.EncodeToString(m.Data)}, true)
		return
	}
	var parts []json.RawMessage
	if json.Unmarshal(m.Data, &parts) == nil && len(parts) >= 1 && len(parts) <= 2 {
		var port int
		if json.Unmarshal(parts[0], &port) == nil {
			payload := json.RawMessage("null")
			if len(parts) == 2 {
				payload = parts[1]
			}
			r.line(map[string]any{"dir": dir, "kind": "json", "port": port, "payload": payload}, true)
			return
		}
	}
	head := m.Data
	if len(head) > 40 {
		head = head[:40]
	}
	r.line(map[string]any{"dir": dir, "kind": "raw", "bytes": len(m.Data), "textHead": string(head)}, true)
}

// Close writes the trailer and closes the file.
func (r *Recorder) Close() error {
	if r == nil {
		return nil
	}
	r.line(map[string]any{"dir": "event", "kind": "end"}, false)
	r.mu.Lock()
	defer r.mu.Unlock()
	ferr := r.w.Flush()
	cerr := r.c.Close()
	if r.err != nil {
		return r.err
	}
	if ferr != nil {
		return fmt.Errorf("recorder: %w", ferr)
	}
	if cerr != nil {
		return fmt.Errorf("recorder: %w", cerr)
	}
	return nil
}
