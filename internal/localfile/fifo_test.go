//go:build unix

package localfile

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// With no writer, a blocking open of a FIFO would never return: the test
// would hang to its deadline instead of failing.
func TestReadRefusesAFIFOWithoutWaiting(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if _, err := Read(fifo, 10, "store"); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("a FIFO: %v", err)
	}
	if _, err := ReadStore(fifo, 10, "store"); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a FIFO store: %v", err)
	}
}
