//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// `replay FIFO`, a FIFO as replay's key script, and `frames` given a FIFO
// are refused at once instead of waiting for a writer.
func TestReplayRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "demo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	good := filepath.Join(dir, "good.jsonl")
	if err := os.WriteFile(good, []byte(`{"conn":"A","dir":"s2c","kind":"json","port":10,"payload":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"replay", "-headless", fifo}, 1},
		{[]string{"replay", "-headless", "-script", fifo, good}, 2},
		{[]string{"frames", "-schema", fifo, fifo}, 1},
	} {
		args := tc.args
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
			if r.code != tc.code || !strings.Contains(r.err, "not a regular file (a FIFO)") {
				t.Errorf("%v: exit %d, %q", args, r.code, r.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v still waits on the FIFO after 10 s", args)
		}
	}
}
