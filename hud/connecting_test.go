package hud

import "testing"

func TestConnectingFollowsAttempts(t *testing.T) {
	c := NewConnecting("http://127.0.0.1:1")
	if got := c.Status(0); got != "Attempt 1…" || c.Detail() != "" {
		t.Fatalf("before a failure: %q, %q", got, c.Detail())
	}
	var r Reconnect
	c.Follow(&r) // not shown: nothing taken
	if c.Attempt != 1 {
		t.Fatalf("attempt %d after a hidden screen", c.Attempt)
	}
	r = Reconnect{Shown: true, Attempt: 1, At: 3000, Reason: "the host is not accepting connections", Failed: "the host is not accepting connections"}
	c.Follow(&r)
	if got := c.Status(500); got != "Attempt 2 in 3 s" {
		t.Fatalf("status %q, want the second attempt's countdown", got)
	}
	if got := c.Detail(); got != "Last error: the host is not accepting connections" {
		t.Fatalf("detail %q", got)
	}
	if c.Title() != "Connecting to http://127.0.0.1:1" {
		t.Fatalf("title %q", c.Title())
	}
	c.End("http://127.0.0.1:1: http://127.0.0.1:1: not a vimp host or lobby master (GET /config: 404 text/html)")
	if c.Title() != "Could not connect to http://127.0.0.1:1" || c.Status(0) != "Stopped after attempt 2" {
		t.Fatalf("ended: %q, %q", c.Title(), c.Status(0))
	}
	if got := c.Detail(); got != "Last error: not a vimp host or lobby master (GET /config: 404 text/html)" {
		t.Fatalf("ended detail %q: the address is said once, in the title", got)
	}
}
