package protocol

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// keptPerMessage parses n messages made by msg, keeps every result, and
// returns the heap the results hold, per message, once the messages
// themselves are garbage.
func keptPerMessage(n int, msg func(i int) string, parse func(raw json.RawMessage) (any, error)) (int64, error) {
	keep := make([]any, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keep {
		v, err := parse(json.RawMessage(msg(i)))
		if err != nil {
			return 0, err
		}
		keep[i] = v
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	return (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / int64(n), nil
}

// long is a JSON string of size bytes, different for every i.
func long(i, size int) string {
	head := fmt.Sprintf("%d-", i)
	return `"` + head + strings.Repeat("w", size-len(head)) + `"`
}

// What a parsed message keeps is bounded by the limits, however long the
// texts a host sends: a kept text cut from a longer one must not keep the
// longer one's memory.
func TestParsedMessagesKeepOnlyTheirLimits(t *testing.T) {
	const big = 64 << 10
	cases := []struct {
		name  string
		msg   func(i int) string
		parse func(raw json.RawMessage) (any, error)
		bound int64 // bytes a message may keep
	}{
		{"chat player", func(i int) string { return fmt.Sprintf("[%s,%s,1]", long(i, big), long(i, big)) },
			func(r json.RawMessage) (any, error) { return ParseChat(r) }, 8 << 10},
		{"chat system", func(i int) string { return fmt.Sprintf("[%s]", long(i, big)) },
			func(r json.RawMessage) (any, error) { return ParseChat(r) }, 8 << 10},
		{"chat template", func(i int) string {
			return fmt.Sprintf(`"g:0:%d%s,%s"`, i, strings.Repeat("p", big), strings.Repeat("q", big))
		}, func(r json.RawMessage) (any, error) { return ParseChat(r) }, 8 << 10},
		{"panel", func(i int) string {
			cells := make([]string, MaxPanelCells)
			for k := range cells {
				cells[k] = fmt.Sprintf(`"k%d:%d%s"`, k, i, strings.Repeat("v", 8<<10))
			}
			return "[" + strings.Join(cells, ",") + "]"
		}, func(r json.RawMessage) (any, error) { return ParsePanel(r) }, 64 << 10},
		{"stat", func(i int) string {
			rows := make([]string, 8)
			for r := range rows {
				cells := make([]string, MaxStatCells)
				for c := range cells {
					cells[c] = long(i, 4<<10)
				}
				rows[r] = fmt.Sprintf("[%s,1,[%s]]", long(i, 4<<10), strings.Join(cells, ","))
			}
			return fmt.Sprintf("[[%s],[[1,[%s]]]]", strings.Join(rows, ","), long(i, big))
		}, func(r json.RawMessage) (any, error) { return ParseStat(r) }, 256 << 10},
		{"vote list", func(i int) string {
			items := make([]string, MaxVoteItems)
			for k := range items {
				items[k] = long(i, 4<<10)
			}
			return "[" + strings.Join(items, ",") + "]"
		}, func(r json.RawMessage) (any, error) { return ParseVote(r) }, 256 << 10},
		{"vote params", func(i int) string {
			return fmt.Sprintf(`{"name":"v","params":[%s,%s,%s]}`, long(i, big), long(i, big), long(i, big))
		}, func(r json.RawMessage) (any, error) { return ParseVote(r) }, 8 << 10},
		{"game inform", func(i int) string {
			ps := make([]string, 64)
			for k := range ps {
				ps[k] = long(i, 4<<10)
			}
			return fmt.Sprintf("[1,[%s]]", strings.Join(ps, ","))
		}, func(r json.RawMessage) (any, error) { return ParseGameInform(r) }, 16 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kept, err := keptPerMessage(8, c.msg, c.parse)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d bytes kept a message", kept)
			if kept > c.bound {
				t.Errorf("a message keeps %d bytes, want at most %d", kept, c.bound)
			}
		})
	}
}

// elements splits an array as json.Unmarshal into []json.RawMessage does,
// and refuses what it refuses.
func FuzzElements(f *testing.F) {
	for _, s := range []string{`[]`, `null`, ` [ 1 , "a,]" , [2,[3]] , {"k":[4,5]} ] `, `[1,]`, `{"a":1}`, `"s"`, `[`, `["\"",1]`, `[true,false,null]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want []json.RawMessage
		wantErr := json.Unmarshal(raw, &want)
		got, ok := elements(raw, -1)
		if ok != (wantErr == nil) {
			t.Fatalf("%q: ok %v, json.Unmarshal says %v", raw, ok, wantErr)
		}
		if !ok {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d elements, want %d", raw, len(got), len(want))
		}
		for i := range got {
			if string(got[i]) != string(want[i]) {
				t.Fatalf("%q: element %d is %q, want %q", raw, i, got[i], want[i])
			}
		}
		if lim, _ := elements(raw, 1); len(want) > 0 && (len(lim) != 1 || string(lim[0]) != string(want[0])) {
			t.Fatalf("%q: the first of at most 1 is %q", raw, lim)
		}
	})
}

// A long text decoded only as far as its kept bytes need is what decoding
// it whole and cutting it gives.
func FuzzTextOfALongString(f *testing.F) {
	for _, s := range []string{`a`, `\u00e9`, `\ud83d\ude00`, `x\n\"`, `\ud83d`, "é", `\u0000\\`} {
		f.Add(s, uint16(700))
	}
	f.Fuzz(func(t *testing.T, body string, reps uint16) {
		if len(body) == 0 {
			return
		}
		raw := []byte(`"` + strings.Repeat(body, 1+int(reps)%2000) + `"`)
		if !json.Valid(raw) {
			return
		}
		if got, want := text(raw), clip(scalarText(raw), MaxText); got != want {
			t.Fatalf("%d bytes of %q: %q, want %q", len(raw), body, got, want)
		}
	})
}
