package startscreen

import (
	"slices"
	"testing"
)

// DOM codes the tests press.
const (
	kUp, kDown, kEnter, kEsc, kBack = 38, 40, 13, 27, 8
)

func testMenu() (*Menu, *[]Kind) {
	var asked []Kind
	m := New(func(k Kind) []Entry {
		asked = append(asked, k)
		switch k {
		case Join:
			return []Entry{{Label: "http://a:3002", Detail: "favourite", Value: "http://a:3002"}, {Label: "http://b:3002", Value: "http://b:3002"}}
		case Demos:
			return []Entry{{Label: "new.jsonl", Value: "/r/new.jsonl"}, {Label: "old.jsonl", Value: "/r/old.jsonl"}}
		}
		return nil
	})
	return m, &asked
}

func TestMenuEnterPlaysOffline(t *testing.T) {
	m, _ := testMenu()
	if m.Focus != Offline {
		t.Fatalf("focus at start = %v, want Play offline", m.Focus.Label())
	}
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Offline}}) {
		t.Fatalf("Enter chose %+v, want offline", got)
	}
	if got := m.Choices(); len(got) != 0 {
		t.Fatalf("choices not drained: %+v", got)
	}
}

func TestMenuArrowsWrap(t *testing.T) {
	m, _ := testMenu()
	m.Key(kUp, false, false)
	if m.Focus != Quit {
		t.Fatalf("↑ from the top focused %q, want Quit", m.Focus.Label())
	}
	m.Key(kDown, false, false)
	m.Key(kDown, false, false)
	if m.Focus != Join {
		t.Fatalf("focus %q, want Join a server", m.Focus.Label())
	}
	m.Key(kDown, false, false)
	m.Key(kDown, false, false)
	m.Key(kDown, false, false)
	m.Key(kEnter, false, false)
	m.Key(kDown, false, false)
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Settings}, {Kind: Quit}}) {
		t.Fatalf("chose %+v, want settings then quit", got)
	}
}

func TestMenuJoinTypedAndListed(t *testing.T) {
	m, asked := testMenu()
	m.Key(kDown, false, false)
	m.Key(kEnter, false, false)
	if !m.Open || len(m.Entries) != 2 || m.Sel != -1 {
		t.Fatalf("Join page: open %v, %d entries, sel %d; want open, 2, the field", m.Open, len(m.Entries), m.Sel)
	}
	if !slices.Equal(*asked, []Kind{Join}) {
		t.Fatalf("entries asked for %v", *asked)
	}
	m.Key(kEnter, false, false) // an empty field chooses nothing
	if got := m.Choices(); len(got) != 0 {
		t.Fatalf("empty field chose %+v", got)
	}
	m.Type([]rune("http://c:1x\x07"))
	m.Key(kBack, false, false)
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Join, Value: "http://c:1"}}) {
		t.Fatalf("typed address chose %+v", got)
	}
	m.Key(kDown, false, false)
	m.Key(kDown, false, false)
	m.Key(kDown, false, false) // stays on the last line
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Join, Value: "http://b:3002"}}) {
		t.Fatalf("second line chose %+v", got)
	}
	m.Type([]rune("z")) // typing goes back to the field
	if m.Sel != -1 || m.Field != "http://c:1z" {
		t.Fatalf("after typing: sel %d, field %q", m.Sel, m.Field)
	}
	m.Key(kEsc, false, false)
	if m.Open || m.Focus != Join {
		t.Fatalf("Esc: open %v, focus %q; want the entries, Join focused", m.Open, m.Focus.Label())
	}
	m.Type([]rune("q")) // no field open: nothing typed
	m.Key(kEnter, false, false)
	if m.Field != "" || !m.Open {
		t.Fatalf("reopened page: field %q, open %v", m.Field, m.Open)
	}
}

func TestMenuDemosSelectsNewest(t *testing.T) {
	m, _ := testMenu()
	m.Focus = Demos
	m.Key(kEnter, false, false)
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Demos, Value: "/r/new.jsonl"}}) {
		t.Fatalf("Enter on Demos twice chose %+v, want the newest recording", got)
	}
}

func TestMenuClicks(t *testing.T) {
	m, _ := testMenu()
	const w, h = 1280, 720
	g := m.Layout(w, h)
	for k := range g.Items {
		for j := range g.Items {
			if k != j && g.Items[k].Intersects(g.Items[j]) {
				t.Fatalf("entries %d and %d overlap", k, j)
			}
		}
		if g.Items[k].Intersects(g.Page) {
			t.Fatalf("entry %d overlaps the description", k)
		}
	}
	join := g.Items[Join]
	m.Click(w, h, join.X+5, join.Y+5, 0)
	if !m.Open || m.Focus != Join {
		t.Fatalf("click on Join: open %v, focus %q", m.Open, m.Focus.Label())
	}
	g = m.Layout(w, h)
	if len(g.Rows) != 2 {
		t.Fatalf("%d rows laid out, want 2", len(g.Rows))
	}
	r := g.Rows[0]
	m.Click(w, h, r.X+r.W/2, r.Y+r.H/2, 0)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Join, Value: "http://a:3002"}}) {
		t.Fatalf("click on the first line chose %+v", got)
	}
	m.Click(w, h, g.Field.X+2, g.Field.Y+2, 0)
	if m.Sel != -1 {
		t.Fatalf("click on the field: sel %d", m.Sel)
	}
	off := g.Items[Offline]
	m.Click(w, h, off.X+2, off.Y+2, 0)
	if got := m.Choices(); m.Open || !slices.Equal(got, []Choice{{Kind: Offline}}) {
		t.Fatalf("click on Play offline: open %v, chose %+v", m.Open, got)
	}
}

func TestMenuLongListScrolls(t *testing.T) {
	m := New(func(Kind) []Entry {
		out := make([]Entry, 30)
		for i := range out {
			out[i] = Entry{Label: "x", Value: string(rune('a' + i))}
		}
		return out
	})
	m.Focus = Browse
	m.Key(kEnter, false, false)
	for range 20 {
		m.Key(kDown, false, false)
	}
	if m.Sel != 19 || m.Top > 19 || m.Top+startMaxRows <= 19 {
		t.Fatalf("sel %d top %d: the selection is out of view", m.Sel, m.Top)
	}
	if n := len(m.Visible()); n != startMaxRows {
		t.Fatalf("%d lines visible, want %d", n, startMaxRows)
	}
	m.Scroll(100)
	if m.Top != 30-startMaxRows {
		t.Fatalf("scrolled to %d, want the last page at %d", m.Top, 30-startMaxRows)
	}
}

func TestMenuFieldBounded(t *testing.T) {
	m, _ := testMenu()
	m.Focus = Join
	m.Key(kEnter, false, false)
	long := make([]rune, 3*maxStartText)
	for i := range long {
		long[i] = 'a'
	}
	m.Type(long)
	if n := len([]rune(m.Field)); n != maxStartText {
		t.Fatalf("field holds %d runes, want at most %d", n, maxStartText)
	}
}

// After a demo ends, "open another" opens the Demos page with the newest
// recording ready for Enter.
func TestMenuOpenPageDemos(t *testing.T) {
	m, asked := testMenu()
	m.OpenPage(Demos)
	if m.Focus != Demos || !m.Open || m.Sel != 0 || len(*asked) != 1 {
		t.Fatalf("focus %v open %v sel %d asked %v", m.Focus.Label(), m.Open, m.Sel, *asked)
	}
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Demos, Value: "/r/new.jsonl"}}) {
		t.Fatalf("Enter chose %+v", got)
	}
	m.OpenPage(Settings)
	if m.Open || m.Focus != Settings {
		t.Fatalf("an entry with no page opened one: %+v", m)
	}
}

// With the games listed, Play offline opens their page with the first one
// ready: Enter plays it, ↓ Enter the next, and Esc goes back.
func TestMenuOfflineGames(t *testing.T) {
	m := New(func(k Kind) []Entry {
		if k == Offline {
			return []Entry{{Label: "Tanks", Value: "tanks"}, {Label: "Snakes", Value: "snakes"}}
		}
		return nil
	})
	m.Key(kEnter, false, false)
	if !m.Open || m.Sel != 0 || len(m.Choices()) != 0 {
		t.Fatalf("Enter on Play offline: open %v sel %d", m.Open, m.Sel)
	}
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Offline, Value: "tanks"}}) {
		t.Fatalf("Enter chose %+v", got)
	}
	m.Key(kDown, false, false)
	m.Key(kEnter, false, false)
	if got := m.Choices(); !slices.Equal(got, []Choice{{Kind: Offline, Value: "snakes"}}) {
		t.Fatalf("↓ Enter chose %+v", got)
	}
	if m.FieldHint() == "" || m.EmptyText() == "" {
		t.Fatal("the offline page has no field hint or empty text")
	}
	m.Key(27, false, false)
	if m.Open {
		t.Fatal("Esc did not close the page")
	}
}

// Ctrl+Backspace deletes the last word and Ctrl+A the whole text in a
// page's field.
func TestFieldCtrlEdits(t *testing.T) {
	const ctrlA, backspace = 65, 8
	m := New(func(Kind) []Entry { return nil })
	m.Focus = Browse
	m.Key(kEnter, false, false)
	m.Type([]rune("host one:8090"))
	m.Key(backspace, false, true)
	if m.Field != "host " {
		t.Fatalf("after Ctrl+Backspace %q", m.Field)
	}
	m.Key(ctrlA, false, true)
	if m.Field != "" || !m.Open {
		t.Fatalf("after Ctrl+A %q open %v", m.Field, m.Open)
	}
	m.Type([]rune("a"))
	m.Key(ctrlA, false, false) // A without Ctrl is typed, not a command
	if m.Field != "a" {
		t.Fatalf("A without Ctrl: %q", m.Field)
	}
}
