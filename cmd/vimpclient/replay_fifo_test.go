//go:build unix

package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// `replay FIFO` and `frames` given a FIFO are refused at once instead of
// waiting for a writer.
func TestReplayRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "demo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	for _, args := range [][]string{
		{"replay", "-headless", fifo},
		{"frames", "-schema", fifo, fifo},
	} {
		type result struct {
			code int
			err  string
		}
		done := make(chan result, 1)
		go func() {
			var out, errb bytes.Buffer
			code := run(args, &out, &errb)
			done <- result{code, errb.String()}
		}()
		select {
		case r := <-done:
			if r.code != 1 || !strings.Contains(r.err, "not a regular file (a FIFO)") {
				t.Errorf("%v: exit %d, %q", args, r.code, r.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v still waits on the FIFO after 10 s", args)
		}
	}
}
