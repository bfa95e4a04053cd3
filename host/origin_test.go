package host

import "testing"

func TestOriginAllowed(t *testing.T) {
	cases := []struct {
		host, origin string
		ok           bool
	}{
		{"127.0.0.1", "http://127.0.0.1:3002", true},
		{"127.0.0.1", "http://localhost:3002", true},
		{"127.0.0.1", "http://localhost:3003", false},
		{"127.0.0.1", "https://localhost:3002", false},
		{"127.0.0.1", "http://192.168.1.5:3002", false},
		{"192.168.1.5", "http://192.168.1.5:3002", true},
		{"192.168.1.5", "http://192.168.1.6:3002", false},
		{"0.0.0.0", "http://192.168.1.5:3002", true},
		{"0.0.0.0", "http://192.168.1.5:80", false},
		{"0.0.0.0", "https://192.168.1.5:3002", false},
		{"0.0.0.0", "http://:3002", false},
		{"", "http://host.lan:3002", true},
		{"0.0.0.0", "", false},
		{"0.0.0.0", "http", false},
	}
	for _, c := range cases {
		s := &Server{host: c.host, port: 3002}
		if got := s.originAllowed(c.origin); got != c.ok {
			t.Errorf("host %q origin %q: %v, want %v", c.host, c.origin, got, c.ok)
		}
	}
}
