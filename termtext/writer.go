package termtext

import (
	"io"
	"sync"
	"unicode/utf8"
)

// LineMax bounds, in runes, one line that a Writer passes.
const LineMax = 4096

// Writer is the last guard of a stream of lines meant for a person, such
// as stderr: every Unsafe rune but the newline and the tab, and every byte
// that is not UTF-8, is written as a visible escape, and a line longer
// than LineMax runes is cut with an ellipsis. The fields of a line are
// bounded where they are made (Field); the Writer makes sure that a text
// which reached the stream unescaped still never steers the terminal.
// Each Write is taken as whole runes. A Writer is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	line int  // runes written on the current line
	cut  bool // the current line was cut: drop up to its newline
	buf  []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write implements io.Writer; it reports len(p) when all of p was
// handled, escaped or dropped.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.buf[:0]
	var esc [8]byte
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		var piece []byte
		escaped := true
		switch {
		case r == '\n':
			w.line, w.cut = 0, false
			out = append(out, '\n')
			i++
			continue
		case r == utf8.RuneError && size == 1:
			piece = escape(esc[:0], rune(p[i]), true)
		case Unsafe(r) && r != '\t':
			piece = escape(esc[:0], r, false)
		default:
			piece, escaped = p[i:i+size], false
		}
		i += size
		if w.cut {
			continue
		}
		n := 1
		if escaped {
			n = len(piece)
		}
		if w.line+n > LineMax-1 {
			w.cut = true
			out = utf8.AppendRune(out, Ellipsis)
			continue
		}
		w.line += n
		out = append(out, piece...)
	}
	w.buf = out[:0]
	if cap(out) > 64<<10 {
		w.buf = nil // a huge write's buffer is not kept
	}
	if _, err := w.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
