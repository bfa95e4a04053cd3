package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseAccoladesFullPayload(t *testing.T) {
	raw := `{"places":{"3":{"daily":1,"monthly":null},"7":{"daily":null,"monthly":null}},
		"boards":{"day":[{"place":1,"nick":"Alice","score":90},{"place":2,"nick":"Bob","score":75.5}],"month":[]},
		"self":{"3":{"day":{"place":1,"score":90},"month":{"place":null,"score":0}}}}`
	v, err := DecodePayload(AccoladesData, json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	a, ok := v.(*Accolades)
	if !ok {
		t.Fatalf("decoded as %T", v)
	}
	if a.Places["3"]["daily"] != 1 || len(a.Places["3"]) != 1 || len(a.Places["7"]) != 0 {
		t.Fatalf("places %+v", a.Places)
	}
	day := a.Boards["day"]
	if len(day) != 2 || day[0] != (LeaderRow{1, "Alice", 90}) || day[1] != (LeaderRow{2, "Bob", 75.5}) {
		t.Fatalf("day board %+v", day)
	}
	if b, ok := a.Boards["month"]; !ok || len(b) != 0 {
		t.Fatalf("month board %+v", a.Boards)
	}
	if a.Self["3"]["day"] != (SelfPlace{1, 90}) || a.Self["3"]["month"] != (SelfPlace{0, 0}) {
		t.Fatalf("self %+v", a.Self)
	}
	if a.Dropped != 0 {
		t.Fatalf("dropped %d", a.Dropped)
	}
}

// Missing parts are empty; parts of the wrong shape are dropped and
// counted, the rest of the message stays.
func TestParseAccoladesTolerant(t *testing.T) {
	for _, c := range []struct {
		raw     string
		rows    int
		dropped int
	}{
		{`{}`, 0, 0},
		{`null`, 0, 0},
		{`{"boards":{"day":[{"nick":"A"}]}}`, 1, 0},                                    // no place, no score
		{`{"boards":{"day":[{"place":"2","nick":"A","score":"7"}]}}`, 1, 0},            // stringified numbers
		{`{"boards":{"day":[{"place":1},{"nick":"B"},3,null]}}`, 1, 3},                 // nickless, number, null rows
		{`{"boards":{"day":{"place":1}},"places":[1],"self":"x"}`, 0, 3},               // wrong shapes
		{`{"places":{"1":{"daily":-2,"monthly":1.5,"weekly":"x"}},"boards":{}}`, 0, 3}, // bad places
	} {
		a, err := ParseAccolades(json.RawMessage(c.raw))
		if err != nil {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if n := len(a.Boards["day"]); n != c.rows || a.Dropped != c.dropped {
			t.Errorf("%s: %d rows, %d dropped; want %d, %d", c.raw, n, a.Dropped, c.rows, c.dropped)
		}
	}
	a, _ := ParseAccolades(json.RawMessage(`{"boards":{"day":[{"place":"2","nick":"A","score":"7"}]}}`))
	if a.Boards["day"][0] != (LeaderRow{2, "A", 7}) {
		t.Fatalf("stringified row %+v", a.Boards["day"][0])
	}
	for _, bad := range []string{`[]`, `3`, `"x"`, `{`} {
		if _, err := ParseAccolades(json.RawMessage(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseAccoladesBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"boards":{"day":[`)
	for i := 0; i < MaxLeaderRows+20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"place":1,"nick":"` + strings.Repeat("é", MaxLeaderNickLen+5) + `"}`)
	}
	b.WriteString(`]},"places":{`)
	for i := 0; i < MaxAccoladeIDs+10; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + strings.Repeat("1", 1+i%30) + string(rune('a'+i%26)) + itoa(i) + `":{}`)
	}
	b.WriteString(`}}`)
	a, err := ParseAccolades(json.RawMessage(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Boards["day"]) != MaxLeaderRows || len([]rune(a.Boards["day"][0].Nick)) != MaxLeaderNickLen {
		t.Fatalf("board of %d rows, nick of %d runes", len(a.Boards["day"]), len([]rune(a.Boards["day"][0].Nick)))
	}
	if len(a.Places) > MaxAccoladeIDs || a.Dropped < 20 {
		t.Fatalf("%d places, %d dropped", len(a.Places), a.Dropped)
	}
}

func itoa(i int) string { return jsonInt(i) }

func jsonInt(i int) string { b, _ := json.Marshal(i); return string(b) }

func FuzzParseAccolades(f *testing.F) {
	seedPayloads(f, `{"places":{"3":{"daily":1,"monthly":null}},"boards":{"day":[{"place":1,"nick":"Alice","score":90}]},"self":{"3":{"day":{"place":1,"score":90}}}}`,
		`{"boards":{"day":[{"place":"2","nick":7}]}}`, `{"places":[],"boards":null}`)
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ParseAccolades(b)
		if err != nil {
			return
		}
		if len(a.Places) > MaxAccoladeIDs || len(a.Self) > MaxAccoladeIDs || len(a.Boards) > MaxAccoladeKeys {
			t.Fatalf("bounds exceeded: %d places, %d self, %d boards", len(a.Places), len(a.Self), len(a.Boards))
		}
		for _, rows := range a.Boards {
			if len(rows) > MaxLeaderRows {
				t.Fatalf("%d rows", len(rows))
			}
			for _, r := range rows {
				if r.Nick == "" || r.Place < 0 {
					t.Fatalf("bad row %+v", r)
				}
			}
		}
	})
}
