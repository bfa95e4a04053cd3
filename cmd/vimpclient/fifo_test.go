//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/hostlist"
)

// A FIFO where the recent hosts file belongs neither blocks the match nor
// holds up -for: the reader refuses it without waiting for a writer, and
// the recent hosts are written off the session's goroutine. The FIFO is
// set aside, not lost, and the join is kept in a new file. The host is
// joined by its address: an offline match is not kept among the recent
// hosts.
func TestHostListFIFODoesNotHoldTheRun(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	path, err := hostlist.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 0, Seed: 1, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	var out, errOut bytes.Buffer
	go func() {
		done <- run([]string{"-headless", "-for", "2s", "-nick", "Fifo", srv.URL()}, &out, &errOut)
	}()
	// A run held by the FIFO never returns; the bound only ends the test.
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("-for 2s did not end the run: something waits on the FIFO")
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("hosts.json after the run: %v %v", fi, err)
	}
	if m, _ := filepath.Glob(path + ".bad-*"); len(m) != 1 {
		t.Fatalf("the FIFO was not set aside: %v", m)
	}
	if l, _ := hostlist.Load(path); len(l.Recent()) != 1 {
		t.Fatalf("recent hosts %+v", l)
	}
}
