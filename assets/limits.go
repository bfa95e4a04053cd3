package assets

import (
	"errors"
	"fmt"
	"time"
)

// Kind is what a file is for; it picks the file's size limit and, for
// images, the checks made before pixels are decoded.
type Kind uint8

const (
	Image Kind = iota + 1 // img/ files: PNG, JPEG or GIF
	Sound                 // sounds/ files, decoded by the sound manager
	JSON                  // manifests and maps
)

// String names the kind in errors and logs.
func (k Kind) String() string {
	switch k {
	case Image:
		return "image"
	case Sound:
		return "sound"
	case JSON:
		return "JSON"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Limits bound what one host can make the client download, store or decode.
// A zero field takes DefaultLimits' value.
type Limits struct {
	ImageBytes  int64 // one image file
	ImageSide   int   // width or height of one decoded image, px
	ImagePixels int64 // width×height of one decoded image
	// TextureBytes bounds the bytes every image one downloader decodes
	// takes together as an RGBA texture (4 a pixel): each becomes one, and
	// a host naming many large images must not fill the video memory (or,
	// with a software renderer, the client's own).
	TextureBytes int64
	SoundBytes   int64 // one sound file
	JSONBytes    int64 // one manifest or map
	Files        int   // distinct files one downloader fetches
	Parallel     int   // files fetched (and decoded) at once
	// Timeout bounds one file's download; the connection's client has none
	// of its own, and a stalled host must not hold a slot for ever.
	Timeout time.Duration
}

// TextureBytes is the default bound on the textures of a game's images:
// 24 MiB, a 2048×2048 tile sheet and a 1024×1024 sprite sheet with a few
// MiB to spare (the reference games' images take a few MiB). With a
// software renderer a texture lives in the client's own memory, with its
// upload's copies beside it while it is made, so this bound is most of
// what a host's images can add to the window's memory.
const TextureBytes = 24 << 20

// DefaultLimits are generous for the games' tile sheets, sprites, sound
// effects and maps, and small against the memory of any desktop.
func DefaultLimits() Limits {
	return Limits{
		ImageBytes: 16 << 20, ImageSide: 8192, ImagePixels: 4 << 20, TextureBytes: TextureBytes,
		SoundBytes: 4 << 20, JSONBytes: 4 << 20,
		Files: 1024, Parallel: 4, Timeout: time.Minute,
	}
}

// withDefaults fills the zero (or negative) fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	orDefault(&l.ImageBytes, d.ImageBytes)
	orDefault(&l.ImageSide, d.ImageSide)
	orDefault(&l.ImagePixels, d.ImagePixels)
	orDefault(&l.TextureBytes, d.TextureBytes)
	orDefault(&l.SoundBytes, d.SoundBytes)
	orDefault(&l.JSONBytes, d.JSONBytes)
	orDefault(&l.Files, d.Files)
	orDefault(&l.Parallel, d.Parallel)
	orDefault(&l.Timeout, d.Timeout)
	return l
}

// orDefault sets *v to d when *v is not positive.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// bytes is the size limit of one file of kind k.
func (l Limits) bytes(k Kind) int64 {
	switch k {
	case Image:
		return l.ImageBytes
	case Sound:
		return l.SoundBytes
	default:
		return l.JSONBytes
	}
}

// ErrTooLarge is wrapped by every LimitError.
var ErrTooLarge = errors.New("over the limit")

// ErrNotFound is wrapped by a StatusError for 404 Not Found.
var ErrNotFound = errors.New("not found")

// ErrRefused reports a path outside the assets base, or a file past the
// downloader's file count.
var ErrRefused = errors.New("refused")

// LimitError reports a file over one of its kind's limits.
type LimitError struct {
	File  string // the path under the assets base
	Kind  Kind
	What  string // "bytes", "px a side" or "pixels"
	Got   int64  // what the file has (0: unknown, the body ran past the limit)
	Limit int64
}

func (e *LimitError) Error() string {
	if e.Got == 0 {
		return fmt.Sprintf("%s: more than the %s limit of %d %s", e.File, e.Kind, e.Limit, e.What)
	}
	return fmt.Sprintf("%s: %d %s, over the %s limit of %d", e.File, e.Got, e.What, e.Kind, e.Limit)
}

// Unwrap makes errors.Is(err, ErrTooLarge) hold.
func (e *LimitError) Unwrap() error { return ErrTooLarge }

// StatusError reports a response other than 200 OK.
type StatusError struct {
	File string
	URL  string
	Code int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s: %s answered status %d", e.File, e.URL, e.Code)
}

// Is makes errors.Is(err, ErrNotFound) hold for a 404.
func (e *StatusError) Is(target error) bool { return target == ErrNotFound && e.Code == 404 }
