package window

import (
	"context"
	"net"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"
)

func TestDisplayAddrs(t *testing.T) {
	local := []dialAddr{{"unix", "@/tmp/.X11-unix/X7"}, {"unix", "/tmp/.X11-unix/X7"}}
	if runtime.GOOS != "linux" {
		local = local[1:]
	}
	for display, want := range map[string][]dialAddr{
		":7":                local,
		":7.1":              local,
		"unix:7":            local,
		"localhost:10.0":    {{"tcp", "localhost:6010"}},
		"tcp/example.org:2": {{"tcp", "example.org:6002"}},
		"":                  nil,
		"wayland-0":         nil,
		":x":                nil,
		":-1":               nil,
		"/private/tmp/com.apple.launchd.x/org.xquartz:0": nil,
	} {
		if got := displayAddrs(display); !reflect.DeepEqual(got, want) {
			t.Errorf("displayAddrs(%q) = %v, want %v", display, got, want)
		}
	}
}

// The watch reports a server that stops taking connections, once, and not
// before; a server it cannot reach at the start is not watched.
func TestDisplayWatchSeesTheServerGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "X0")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan struct{}, 64)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	var d net.Dialer
	w := &displayWatch{addrs: []dialAddr{{"unix", path}}, every: time.Millisecond, dial: d.DialContext}
	lost := make(chan struct{}, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		w.run(ctx, func() { lost <- struct{}{} })
	}()
	for range 3 { // the first try and two more: the server is watched
		<-accepted
	}
	select {
	case <-lost:
		t.Fatal("lost while the server takes connections")
	default:
	}
	l.Close()
	<-lost
	<-ended
	if len(lost) != 0 {
		t.Error("lost reported twice")
	}

	// Nothing listening at the start: run returns at once, never lost.
	w = &displayWatch{addrs: []dialAddr{{"unix", path}}, every: time.Millisecond, dial: d.DialContext}
	w.run(ctx, func() { t.Error("lost a server that was never there") })
}
