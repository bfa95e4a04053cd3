//go:build unix

package session

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"vimpclient/internal/localfile"
)

// A FIFO named as a recording is refused at once: nothing waits for a
// writer that may never come.
func TestLoadRecordingRefusesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := LoadRecording(path)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, localfile.ErrNotRegular) {
			t.Fatalf("a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO recording still waits after 10 s")
	}
}
