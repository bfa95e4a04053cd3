package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"vimpclient/internal/localfile"
)

const goodLine = `{"t":1700000000000,"ms":0,"conn":"A","dir":"s2c","kind":"json","port":10,"payload":1}`

// Every number of a recording line is checked as it is read: a line whose
// numbers no recording holds is an error naming its line and its field,
// never a panic later.
func TestReadRecordingRefusesBadNumbers(t *testing.T) {
	for _, tc := range []struct{ line, field string }{
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":-1}`, `"bytes"`},
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":1073741824,"b64Omitted":true}`, `"bytes"`},
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":4194305}`, `"bytes"`},
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":1.5}`, `"bytes" must be a whole number`},
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":1e30}`, `"bytes" must be a whole number`},
		{`{"conn":"A","dir":"s2c","kind":"binary","bytes":"3"}`, `"bytes" must be a whole number`},
		{`{"t":-1,"conn":"A","dir":"s2c","kind":"json","port":10}`, `"t"`},
		{`{"t":1e308,"conn":"A","dir":"s2c","kind":"json","port":10}`, `"t"`},
		{`{"t":1e400,"conn":"A","dir":"s2c","kind":"json","port":10}`, `"t" must be a number`},
		{`{"ms":-0.5,"conn":"A","dir":"s2c","kind":"json","port":10}`, `"ms"`},
		{`{"ms":1e300,"conn":"A","dir":"s2c","kind":"json","port":10}`, `"ms"`},
		{`{"conn":"A","dir":"s2c","kind":"json","port":1000000000}`, `"port"`},
		{`{"conn":"A","dir":"c2s","kind":"json","port":-70000}`, `"port"`},
		{`{"conn":"A","dir":"s2c","kind":"json","port":-1}`, `"port"`},
		{`{"conn":"A","dir":"s2c","kind":"json","port":2.5}`, `"port" must be a whole number`},
		{`{"conn":"A","dir":"event","kind":"close","code":70000}`, `"code"`},
		{`{"conn":"A","dir":"event","kind":"close","code":-1}`, `"code"`},
		{`{"conn":"A","dir":"event","kind":"close","code":999}`, `"code"`},
		{`{"conn":"A","dir":"event","kind":"close","code":1000.5}`, `"code" must be a whole number`},
		// A line no replay keeps is checked all the same.
		{`{"dir":"event","kind":"open","bytes":-7}`, `"bytes"`},
	} {
		rec, err := ReadRecording(strings.NewReader(goodLine+"\n"+tc.line+"\n"), DefaultRecordingLimits())
		if err == nil {
			t.Errorf("%s: read %d lines, want an error", tc.line, len(rec.Lines))
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "recording line 2: ") || !strings.Contains(msg, tc.field) {
			t.Errorf("%s: error %q does not name line 2 and %s", tc.line, msg, tc.field)
		}
	}
}

// The numbers the error probes and real recordings hold are read: a client
// message on port -1, a server event on a TCP port, close codes, sizes.
func TestReadRecordingKeepsGoodNumbers(t *testing.T) {
	in := strings.Join([]string{
		goodLine,
		`{"t":1700000000001,"ms":0.25,"conn":"A","dir":"c2s","kind":"json","port":-1,"payload":null}`,
		`{"t":1700000000002,"ms":2,"dir":"event","kind":"server","port":8096}`,
		`{"t":1700000000003,"ms":3,"conn":"A","dir":"s2c","kind":"binary","port":5,"bytes":4194304,"b64Omitted":true}`,
		`{"t":1700000000004,"ms":4,"conn":"A","dir":"event","kind":"close","code":4999,"reason":"bye"}`,
	}, "\n")
	rec, err := ReadRecording(strings.NewReader(in), DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Lines) != 4 || rec.Read != 5 || rec.Skipped != 1 {
		t.Fatalf("kept %d of %d lines, skipped %d", len(rec.Lines), rec.Read, rec.Skipped)
	}
	if m, ok, err := rec.Lines[2].Wire(); !ok || err != nil || len(m.Data) != MaxIncomingMessage {
		t.Errorf("a binary message logged by size: %d bytes, %v %v", len(m.Data), ok, err)
	}
}

// Wire never panics whatever a line built in code holds: a size or a
// base64 text no message has is an error.
func TestWireRefusesImpossibleSizes(t *testing.T) {
	for _, l := range []RecordedLine{
		{Kind: "binary", Bytes: -1},
		{Kind: "binary", Bytes: MaxIncomingMessage + 1, B64Omitted: true},
		{Kind: "binary", Bytes: -1 << 62},
		{Kind: "binary", B64: strings.Repeat("A", maxRecordedB64+4)},
	} {
		if m, ok, err := l.Wire(); err == nil || ok {
			t.Errorf("bytes %d, %d base64: %d bytes, %v %v", l.Bytes, len(l.B64), len(m.Data), ok, err)
		}
	}
}

// A recording of lines no replay uses keeps nothing: 12 MB of {} is
// read, counted and let go, not held as four million lines.
func TestReadRecordingKeepsNoIdleLines(t *testing.T) {
	const n = 4 << 20
	in := bytes.Repeat([]byte("{}\n"), n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec, err := ReadRecording(bytes.NewReader(in), DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(rec.Lines) != 0 || rec.Kept != 0 || rec.Read != n || rec.Skipped != n {
		t.Fatalf("kept %d lines (%d bytes) of %d read, %d skipped", len(rec.Lines), rec.Kept, rec.Read, rec.Skipped)
	}
	// The heap holds what was kept, not the lines read: 64 MiB is room for
	// anything else the process does meanwhile, and a fraction of the
	// near 1 GiB four million lines take.
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
		t.Errorf("the heap grew by %s reading 12 MB of {}", localfile.Size(grew))
	}
	runtime.KeepAlive(rec)
}

// What is kept is bounded in bytes as well as lines, each line counted
// with its own size: past either limit the read stops with an error that
// names it, whatever the file's size.
func TestReadRecordingBudget(t *testing.T) {
	line := []byte(`{"dir":"s2c","kind":"json"}` + "\n")
	in := bytes.Repeat(line, 12<<20/len(line))
	_, err := ReadRecording(bytes.NewReader(in), RecordingLimits{Lines: MaxRecordingLines, Bytes: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "more than 1 MiB to keep") {
		t.Fatalf("12 MB of small kept lines under a 1 MiB budget: %v", err)
	}
	_, err = ReadRecording(bytes.NewReader(in), RecordingLimits{Lines: 1000, Bytes: MaxRecordingKept})
	if err == nil || !strings.Contains(err.Error(), "recording line 1001: more than 1000 lines") {
		t.Fatalf("past the line limit: %v", err)
	}
	rec, err := ReadRecording(bytes.NewReader(in), DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Lines) != len(in)/len(line) || rec.Kept < int64(len(rec.Lines))*lineSize || rec.Kept+int64(len(rec.Lines))*lineSize > MaxRecordingKept {
		t.Fatalf("%d lines kept as %d bytes", len(rec.Lines), rec.Kept)
	}
	if cap(rec.Lines) != len(rec.Lines) {
		t.Errorf("kept %d lines in room for %d", len(rec.Lines), cap(rec.Lines))
	}
}

// Lines skipped count too: at most four times the lines kept are read,
// so a file of nothing a replay uses is not read on for minutes.
func TestReadRecordingReadLimit(t *testing.T) {
	lim := RecordingLimits{Lines: 10, Bytes: MaxRecordingKept}
	if _, err := ReadRecording(strings.NewReader(strings.Repeat("{}\n", 40)), lim); err != nil {
		t.Fatalf("40 lines read for 10 kept: %v", err)
	}
	_, err := ReadRecording(strings.NewReader(strings.Repeat("{}\n", 41)), lim)
	if err == nil || !strings.Contains(err.Error(), "recording line 41: more than 40 lines") {
		t.Fatalf("41 lines read for 10 kept: %v", err)
	}
}

// A binary message logged by size only counts the bytes it becomes.
func TestReadRecordingCountsSizeOnlyMessages(t *testing.T) {
	line := `{"conn":"A","dir":"s2c","kind":"binary","bytes":4194304,"b64Omitted":true}` + "\n"
	_, err := ReadRecording(strings.NewReader(strings.Repeat(line, 8)), RecordingLimits{Lines: 100, Bytes: 16 << 20})
	if err == nil || !strings.Contains(err.Error(), "recording line 4: more than 16 MiB") {
		t.Fatalf("eight 4 MiB messages under a 16 MiB budget: %v", err)
	}
}

// A line longer than a recording holds is an error naming it.
func TestReadRecordingLongLine(t *testing.T) {
	long := `{"payload":"` + strings.Repeat("x", maxRecordedLine) + `"}`
	_, err := ReadRecording(strings.NewReader(goodLine+"\n"+long+"\n"), DefaultRecordingLimits())
	if err == nil || !strings.Contains(err.Error(), "recording line 2: longer than 8 MiB") {
		t.Fatalf("a line over 8 MiB: %v", err)
	}
}

// LoadRecording reads a file through the limit of its kind and names the
// file in its errors.
func TestLoadRecording(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if err := os.WriteFile(good, []byte(goodLine+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec, err := LoadRecording(good)
	if err != nil || len(rec.Lines) != 1 || json.Valid(rec.Lines[0].Payload) == false {
		t.Fatalf("%+v %v", rec, err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"conn":"A","dir":"s2c","kind":"binary","bytes":-1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRecording(bad); err == nil || !strings.Contains(err.Error(), bad+": recording line 1: \"bytes\" is -1") {
		t.Fatalf("a negative size: %v", err)
	}
	if _, err := LoadRecording(dir); !errors.Is(err, localfile.ErrNotRegular) {
		t.Fatalf("a directory: %v", err)
	}
}
