package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/capturetest"
)

func conformanceDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(capturetest.SharedDir(t), "conformance")
	if _, err := os.Stat(filepath.Join(d, "manifest.json")); err != nil {
		t.Fatalf("conformance vectors not found: %v", err)
	}
	return d
}

type frameReport struct {
	File    string          `json:"file"`
	Unpack  string          `json:"unpack"`
	Reason  string          `json:"reason"`
	Decoded json.RawMessage `json:"decoded"`
}

// TestFramesCommand runs `vimpclient frames` over every frame and invalid
// case of the conformance set and compares each line with the expected
// verdict and decoder JSON text.
func TestFramesCommand(t *testing.T) {
	conf := conformanceDir(t)
	tmp := t.TempDir()
	total := 0
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		type expect struct {
			Bin      string
			BytesHex string `json:"bytesHex"`
			Verdict  struct{ Unpack, Reason string }
			Text     *string `json:"decodedJsonText"`
		}
		var frames, invalid struct{ Cases []expect }
		for path, v := range map[string]any{"frames/" + name + ".json": &frames, "invalid/" + name + ".json": &invalid} {
			b, err := os.ReadFile(filepath.Join(conf, path))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, v); err != nil {
				t.Fatal(err)
			}
		}
		args := []string{"frames", "-schema", filepath.Join(conf, "schemas", name+".json")}
		var want []expect
		for _, c := range frames.Cases {
			args = append(args, filepath.Join(conf, c.Bin))
			want = append(want, c)
		}
		for i, c := range invalid.Cases {
			b, err := hex.DecodeString(c.BytesHex)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(tmp, name+"-invalid-"+string(rune('a'+i%26))+hex.EncodeToString([]byte{byte(i), byte(i >> 8)})+".bin")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, p)
			want = append(want, c)
		}
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut.String())
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<24)
		i := 0
		for ; sc.Scan(); i++ {
			if i >= len(want) {
				t.Fatalf("%s: more lines than files", name)
			}
			var r frameReport
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s line %d is not JSON: %v", name, i, err)
			}
			w := want[i]
			if r.File != args[3+i] || r.Unpack != w.Verdict.Unpack || r.Reason != w.Verdict.Reason {
				t.Errorf("%s %s: %s/%s, want %s/%s", name, r.File, r.Unpack, r.Reason, w.Verdict.Unpack, w.Verdict.Reason)
			}
			wantText := "null"
			if w.Verdict.Unpack == "ok" && w.Text != nil {
				wantText = *w.Text
			}
			if string(r.Decoded) != wantText {
				t.Errorf("%s %s: decoded\n%s\nwant\n%s", name, r.File, r.Decoded, wantText)
			}
		}
		if i != len(want) {
			t.Errorf("%s: %d lines for %d files", name, i, len(want))
		}
		total += i
	}
	t.Logf("frames command: %d files checked", total)
}
