package logs

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"vimpclient/termtext"
)

// Safe is a slog.Handler that passes every message, key and text value
// through termtext before the next handler sees them: what a host or a
// master said (a close reason, a room name, an error built from its
// words) reaches the log escaped and bounded, whichever call logged it.
// Errors, Stringers and other values are logged as their text. Numbers,
// booleans, times and durations pass as they are.
type Safe struct{ next slog.Handler }

// NewSafe wraps next.
func NewSafe(next slog.Handler) *Safe { return &Safe{next: next} }

// NewText is a logger writing text lines to w at level, through Safe.
func NewText(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(NewSafe(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
}

// NewQuiet is a text logger of problems only (warnings and errors), unless
// verbose asks for everything: for what runs beside the program's own work
// (the embedded host, latency probes).
func NewQuiet(w io.Writer, verbose bool) *slog.Logger {
	lvl := slog.LevelWarn
	if verbose {
		lvl = slog.LevelDebug
	}
	return NewText(w, lvl)
}

// Enabled implements slog.Handler.
func (h *Safe) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

// Handle implements slog.Handler.
func (h *Safe) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, termtext.Message(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(safeAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

// WithAttrs implements slog.Handler.
func (h *Safe) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = safeAttr(a)
	}
	return &Safe{next: h.next.WithAttrs(clean)}
}

// WithGroup implements slog.Handler.
func (h *Safe) WithGroup(name string) slog.Handler {
	return &Safe{next: h.next.WithGroup(termtext.Name(name))}
}

func safeAttr(a slog.Attr) slog.Attr {
	key := termtext.Name(a.Key)
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(key, termtext.Message(v.String()))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = safeAttr(ga)
		}
		return slog.Group(key, clean...)
	case slog.KindAny:
		var s string
		switch x := v.Any().(type) {
		case error:
			s = x.Error()
		case fmt.Stringer:
			s = x.String()
		default:
			s = fmt.Sprintf("%+v", x)
		}
		return slog.String(key, termtext.Message(s))
	}
	return slog.Attr{Key: key, Value: v}
}
