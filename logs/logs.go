// Package logs builds the client's logger: text lines on stderr, at Info by
// default (connections, refusals, errors: what a player needs) and Debug
// with -v, where each warning is said once per connection instead of once
// per occurrence, and where every text a host or master put in a message
// or a value is escaped and bounded for the terminal (Safe).
package logs

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// maxRemembered bounds the warnings remembered within one connection; past
// it they are said again rather than remembered without bound.
const maxRemembered = 1024

// Once is a slog.Handler that passes a record at Warn level or above only
// the first time its message and attributes are seen since the last Reset.
// Lower levels always pass: they are asked for with -v.
type Once struct {
	next  slog.Handler
	attrs string // attributes added with WithAttrs, part of the key
	seen  *seen
}

type seen struct {
	mu   sync.Mutex
	keys map[string]struct{}
}

// NewOnce wraps next.
func NewOnce(next slog.Handler) *Once {
	return &Once{next: next, seen: &seen{keys: map[string]struct{}{}}}
}

// New returns a logger writing text to w at Info (verbose: Debug), with
// every text made safe for a terminal (Safe) and warnings said once per
// connection, and the handler to Reset when a new connection starts.
func New(w io.Writer, verbose bool) (*slog.Logger, *Once) {
	lvl := slog.LevelInfo
	if verbose {
		lvl = slog.LevelDebug
	}
	h := NewOnce(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lvl}))
	return slog.New(NewSafe(h)), h
}

// Reset forgets the warnings said so far: a new connection says them again.
func (o *Once) Reset() {
	o.seen.mu.Lock()
	clear(o.seen.keys)
	o.seen.mu.Unlock()
}

// Enabled implements slog.Handler.
func (o *Once) Enabled(ctx context.Context, l slog.Level) bool { return o.next.Enabled(ctx, l) }

// Handle implements slog.Handler.
func (o *Once) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn {
		return o.next.Handle(ctx, r)
	}
	var b strings.Builder
	b.WriteString(r.Level.String())
	b.WriteByte(0)
	b.WriteString(r.Message)
	b.WriteString(o.attrs)
	r.Attrs(func(a slog.Attr) bool {
		b.WriteByte(0)
		b.WriteString(a.String())
		return true
	})
	key := b.String()
	o.seen.mu.Lock()
	_, dup := o.seen.keys[key]
	if !dup && len(o.seen.keys) < maxRemembered {
		o.seen.keys[key] = struct{}{}
	}
	o.seen.mu.Unlock()
	if dup {
		return nil
	}
	return o.next.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (o *Once) WithAttrs(as []slog.Attr) slog.Handler {
	var b strings.Builder
	b.WriteString(o.attrs)
	for _, a := range as {
		b.WriteByte(0)
		b.WriteString(a.String())
	}
	return &Once{next: o.next.WithAttrs(as), attrs: b.String(), seen: o.seen}
}

// WithGroup implements slog.Handler.
func (o *Once) WithGroup(name string) slog.Handler {
	return &Once{next: o.next.WithGroup(name), attrs: o.attrs + "\x00group:" + name, seen: o.seen}
}
