package localfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The file is created with its directory, owner-only, holds the value, and
// a second write replaces it whole with nothing left beside it.
func TestWriteJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "store.json")
	if err := WriteJSON(path, map[string]string{"a": "1", "b": "2"}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(path, map[string]string{"c": "3"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(b, &got); err != nil || len(got) != 1 || got["c"] != "3" {
		t.Fatalf("file holds %s (%v)", b, err)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v (%v), want 0600", fi.Mode(), err)
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Fatalf("files left beside the store: %v", ents)
	}
	if err := WriteJSON(path, func() {}); err == nil {
		t.Fatal("a value JSON cannot hold was written")
	}
}
