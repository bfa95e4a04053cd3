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
