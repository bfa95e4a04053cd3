package localfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Limits of the kinds of file the client reads. A store holds a few
// hundred small entries at most; the limits leave room for many times that
// and still bound what a damaged or hostile file can cost.
const (
	// StoreLimit bounds a store under the config directory (hosts.json,
	// tokens.json, auth.json, settings.json, keys.conf).
	StoreLimit = 1 << 20
	// TokenFileLimit bounds a -token-file: one identity token.
	TokenFileLimit = 8 << 10
	// SchemaLimit bounds a snapshot schema given to `frames`.
	SchemaLimit = 1 << 20
	// FrameLimit bounds one raw snapshot frame given to `frames`.
	FrameLimit = 16 << 20
	// CALimit bounds a CA bundle (-ca).
	CALimit = 4 << 20
	// FontLimit bounds a system font file read for the HUD's fallback.
	FontLimit = 64 << 20
	// RecordingLimit bounds a recording or capture (streamed, never held
	// whole: it bounds what a replay can be made to keep).
	RecordingLimit = 512 << 20
)

// ErrNotRegular is returned for a path that names a FIFO, a device, a
// socket or a directory: reading one could block forever or never end.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file over the limit of its kind.
var ErrTooLarge = errors.New("file too large")

// ErrLinkOutside is returned for a store that is a link to a file outside
// the store's own directory.
var ErrLinkOutside = errors.New("a link to a file outside its directory")

// Open opens the file at path for reading when it is a regular file. A
// FIFO is opened without waiting for a writer and then refused, as are
// devices, sockets and directories. The returned size is the file's size
// when opened.
func Open(path string) (*os.File, int64, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kindOf(fi.Mode()))}
	}
	return f, fi.Size(), nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

// Read returns the contents of the regular file at path, refusing one over
// limit bytes. what names the kind of file in the error ("host list").
func Read(path string, limit int64, what string) ([]byte, error) {
	f, size, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > limit {
		return nil, tooLarge(path, limit, what)
	}
	b, err := io.ReadAll(LimitReader(f, limit, path, what))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// ReadStore is Read for a store kept in the client's own directory: a link
// is followed only to a file in that same directory, so a store can never
// be made to read (and later set aside or replace) a file elsewhere.
func ReadStore(path string, limit int64, what string) ([]byte, error) {
	if err := checkLink(path); err != nil {
		return nil, err
	}
	return Read(path, limit, what)
}

func checkLink(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil // Open reports a missing file
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if rel, err := filepath.Rel(dir, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrLinkOutside, target)}
	}
	return nil
}

func tooLarge(path string, limit int64, what string) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: a %s may hold at most %s", ErrTooLarge, what, Size(limit))}
}

// Size writes n bytes in the unit a player reads best.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// LimitReader reads from r and fails with ErrTooLarge (naming path, what
// and the limit) once more than limit bytes have come: a file that grows
// while it is read is held to its kind's limit all the same.
func LimitReader(r io.Reader, limit int64, path, what string) io.Reader {
	return &limitReader{r: r, left: limit, limit: limit, path: path, what: what}
}

type limitReader struct {
	r           io.Reader
	left, limit int64
	path, what  string
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, tooLarge(l.path, l.limit, l.what)
	}
	// Ask for one byte past the limit, so a file of exactly limit bytes
	// ends cleanly and one byte more is seen.
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n + int(l.left), tooLarge(l.path, l.limit, l.what)
	}
	return n, err
}
