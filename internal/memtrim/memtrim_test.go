package memtrim

import (
	"runtime"
	"testing"
)

// On Linux (glibc) the trim is found and runs; twice is as good as once;
// the zero Trimmer trims nothing.
func TestTrim(t *testing.T) {
	tr := New()
	got := tr.Trim()
	if runtime.GOOS == "linux" && !got {
		t.Fatal("malloc_trim not found on Linux")
	}
	if tr.Trim() != got {
		t.Fatal("a second trim answered otherwise")
	}
	var zero Trimmer
	if zero.Trim() || zero.Available() {
		t.Fatal("the zero Trimmer trimmed")
	}
}

// On Linux (glibc) the arena limit is taken; a limit below one and the
// zero Trimmer take nothing.
func TestLimitArenas(t *testing.T) {
	tr := New()
	if runtime.GOOS == "linux" && !tr.LimitArenas(8) {
		t.Fatal("mallopt(M_ARENA_MAX) not found or refused on Linux")
	}
	if tr.LimitArenas(0) {
		t.Fatal("a limit of no arena was taken")
	}
	var zero Trimmer
	if zero.LimitArenas(2) {
		t.Fatal("the zero Trimmer set a limit")
	}
}
