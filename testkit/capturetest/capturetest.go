// Package capturetest finds the repository's test data (the engine's
// conformance vectors and the recorded host sessions under testdata/ at the
// module root) and loads the recorded sessions for tests.
package capturetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Line is one transcript line; only the fields tests use are typed.
type Line struct {
	Ms      float64         `json:"ms"`
	Conn    string          `json:"conn"`
	Dir     string          `json:"dir"`
	Kind    string          `json:"kind"`
	Port    int             `json:"port"`
	Payload json.RawMessage `json:"payload"`
}

// SharedDir is the directory holding conformance/ and captures/: $VIMP_SHARED
// when set (another copy of the same material), else testdata/ at the module
// root.
func SharedDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("VIMP_SHARED"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found")
		}
		dir = parent
	}
}

// Load reads captures/<name> and returns its JSON text-frame lines.
func Load(t testing.TB, name string) []Line {
	t.Helper()
	path := filepath.Join(SharedDir(t), "captures", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("capture %s: %v", name, err)
	}
	defer f.Close()
	var out []Line
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var l Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("capture %s: %v", name, fmt.Errorf("line %q: %w", sc.Text()[:min(40, len(sc.Text()))], err))
		}
		if l.Kind == "json" {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("capture %s: %v", name, err)
	}
	return out
}

// First returns the payload of the first server message on port for conn
// ("" matches any connection).
func First(t testing.TB, lines []Line, conn string, port int) json.RawMessage {
	t.Helper()
	for _, l := range lines {
		if l.Dir == "s2c" && l.Port == port && (conn == "" || l.Conn == conn) {
			return l.Payload
		}
	}
	t.Fatalf("no server message on port %d for %q", port, conn)
	return nil
}

// Filter returns the lines of conn in direction dir on port.
func Filter(lines []Line, conn, dir string, port int) []Line {
	var out []Line
	for _, l := range lines {
		if l.Dir == dir && l.Port == port && (conn == "" || l.Conn == conn) {
			out = append(out, l)
		}
	}
	return out
}

// RealChatTemplates are the system chat templates a real tanks host sends
// (its recorded CONFIG_DATA's chat module).
func RealChatTemplates(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(SharedDir(t), "captures", "real-tanks-0.13", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Modules struct {
			Chat struct {
				Params struct {
					Messages map[string][]string `json:"messages"`
				} `json:"params"`
			} `json:"chat"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.Modules.Chat.Params.Messages["s"]
}
