// Package memtrim hands the C heap's free memory back to the system.
//
// A window's textures live in the C heap of the graphics driver when it is
// a software one (Mesa's llvmpipe keeps them in RAM), allocated by the C
// library's malloc from per-thread arenas. When a match ends its textures
// are freed, but glibc keeps the freed pages of its arenas for later
// allocations, and the next match's allocations seldom land in the same
// places: the process's resident set creeps up match after match though
// nothing is held. malloc_trim returns those free pages. The client is
// built without cgo, so the function is called through purego, the
// dlopen layer Ebiten itself loads the graphics libraries with.
package memtrim

// Trimmer trims the C heap. The zero value trims nothing.
type Trimmer struct {
	trim func(uintptr) int32
	opt  func(int32, int32) int32
}

// New finds the platform's trim: glibc's malloc_trim on Linux; none
// elsewhere, or where the C library has none (musl).
func New() *Trimmer {
	trim, opt := lookup()
	return &Trimmer{trim: trim, opt: opt}
}

// LimitArenas bounds the C heap's arenas to n, and reports whether it
// could. glibc gives each thread that allocates an arena of its own (up
// to eight a core): the software GL driver's rendering threads each keep
// one, whose freed pages are scattered among live ones and are neither
// reused by the other threads nor trimmable as a whole. With few arenas
// the threads share them, a match's freed textures are taken again by
// the next match's, and what is free is trimmed. Call it before the
// graphics driver starts its threads: arenas made before stay.
func (t *Trimmer) LimitArenas(n int) bool {
	if t == nil || t.opt == nil || n < 1 {
		return false
	}
	return t.opt(mArenaMax, int32(n)) == 1
}

// Available reports whether Trim does anything here.
func (t *Trimmer) Available() bool { return t != nil && t.trim != nil }

// Trim returns the C heap's free pages to the system, and reports whether
// it could. It takes a few milliseconds: call it once a match has ended,
// not every frame.
func (t *Trimmer) Trim() bool {
	if !t.Available() {
		return false
	}
	t.trim(0)
	return true
}
