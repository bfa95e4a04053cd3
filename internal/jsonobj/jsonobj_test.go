package jsonobj

import (
	"errors"
	"testing"
)

func TestMembers(t *testing.T) {
	m, err := Members([]byte(` {"b":1,"a":{"x":[1,2]},"b":3} `), 0)
	if err != nil || len(m) != 2 || m[0].Name != "b" || string(m[0].Value) != "3" || m[1].Name != "a" {
		t.Fatalf("%+v %v", m, err)
	}
	if m, err := Members(nil, 0); m != nil || err != nil {
		t.Errorf("absent: %v %v", m, err)
	}
	if _, err := Members([]byte(`[1]`), 0); !errors.Is(err, ErrNotObject) {
		t.Errorf("array: %v", err)
	}
	if _, err := Members([]byte(`{"a":1,"b":2,"c":3}`), 2); err == nil {
		t.Errorf("limit not enforced")
	}
	if _, err := Unique([]byte(`{"a":1,"a":2}`), 0); err == nil {
		t.Errorf("Unique accepted a repeated name")
	}
	if _, err := Members([]byte(`{"a":1`), 0); err == nil {
		t.Errorf("truncated object accepted")
	}
}

func FuzzMembers(f *testing.F) {
	f.Add([]byte(`{"m1":{"id":1},"w1":{"id":2}}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Members(b, 64)
		if err == nil && len(m) > 64 {
			t.Fatalf("%d members over the limit", len(m))
		}
	})
}
