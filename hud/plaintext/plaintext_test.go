package plaintext

import "testing"

func TestWithoutLastWord(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"word":                 "",
		"two words":            "two ",
		"two words  ":          "two ",
		"http://h:8090 x y":    "http://h:8090 x ",
		"   ":                  "",
		"é ü":                  "é ",
		"http://example.com:1": "",
	} {
		if got := WithoutLastWord(in); got != want {
			t.Errorf("WithoutLastWord(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain":              "plain",
		"red \x1b[31mtext":   "red text",
		"bell\a and\x7f del": "bell and del",
		"c1 \u0085 next":     "c1  next",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
	if got := CleanMax("abcdef", 3); got != "abc" {
		t.Errorf("CleanMax bounded to 3: %q", got)
	}
}
