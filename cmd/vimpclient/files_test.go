package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vimpclient/internal/localfile"
	"vimpclient/window"
)

// A recording whose numbers no recording holds is refused with the line
// and the field, in the window as headless, before anything is played.
func TestReplayRefusesBadRecordings(t *testing.T) {
	dir := t.TempDir()
	modes := [][]string{{"-headless"}}
	if window.Available() == nil {
		modes = append(modes, []string{"-screenshot", filepath.Join(dir, "shot.png")})
	}
	for _, tc := range []struct{ line, want string }{
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":-1}`, `recording line 1: "bytes" is -1`},
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":99999999999,"b64Omitted":true}`, `recording line 1: "bytes" is 99999999999`},
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":1.5}`, `recording line 1: "bytes" must be a whole number; the line has number 1.5`},
		{`{"t":1e300,"conn":"A","dir":"s2c","kind":"json","port":10}`, `recording line 1: "t" is 1e+300`},
	} {
		path := filepath.Join(dir, "bad.jsonl")
		if err := os.WriteFile(path, []byte(tc.line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, mode := range modes {
			var out, errb bytes.Buffer
			code := run(append(append([]string{"replay"}, mode...), path), &out, &errb)
			if code != 1 || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("replay %v of %s: exit %d, %q; want exit 1 and %q", mode, tc.line, code, errb.String(), tc.want)
			}
		}
	}
}

// `frames` reads a schema and frames up to the limits of their kinds: a
// frame file over it is refused and named, and the other files still run.
func TestFramesRefusesOversizedFiles(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join(conformanceDir(t), "schemas", "tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join(dir, "schema.json")
	if err := os.WriteFile(schema, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(localfile.FrameLimit + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var out, errb bytes.Buffer
	code := run([]string{"frames", "-schema", schema, big}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), big) || !strings.Contains(errb.String(), "a frame may hold at most 16 MiB") {
		t.Errorf("a frame over its limit: exit %d, %q", code, errb.String())
	}
	if err := os.Truncate(schema, localfile.SchemaLimit+1); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	code = run([]string{"frames", "-schema", schema, big}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "a snapshot schema may hold at most 1 MiB") {
		t.Errorf("a schema over its limit: exit %d, %q", code, errb.String())
	}
}
