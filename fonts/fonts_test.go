package fonts

import (
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"vimpclient/testkit/capturetest"
)

// symbolaPath is where Debian's fonts-symbola puts the monochrome emoji
// font the system chat lines fall back to (`make deps` installs it).
const symbolaPath = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"

// indexedFonts is a font chain with the system fonts behind the bundled
// ones, returned once they are indexed and in use.
func indexedFonts(t testing.TB) *Fonts {
	t.Helper()
	f, err := NewWith(Options{System: true})
	if err != nil {
		t.Fatal(err)
	}
	<-f.SystemReady()
	f.Poll()
	return f
}

// Every glyph of the real system chat templates (their emoji: crossed
// swords, high voltage, waving hand) resolves to a font that has it, so
// none is drawn as a box.
func TestRealChatTemplatesEmojiHaveAFont(t *testing.T) {
	if _, err := os.Stat(symbolaPath); err != nil {
		t.Skipf("the emoji font is not installed (%v): `make deps` installs fonts-symbola", err)
	}
	f := indexedFonts(t)
	emoji := 0
	for _, tpl := range capturetest.RealChatTemplates(t) {
		s := f.Printable(tpl)
		f.Line(s)
		for _, r := range s {
			if r < 0x80 {
				continue
			}
			emoji++
			if !f.bundled(r) && f.fallbackFor(r) < 0 {
				t.Errorf("U+%04X of %q has no font: it would be drawn as a box", r, tpl)
			}
		}
	}
	if emoji < 3 {
		t.Fatalf("%d emoji in the real templates, want the 3 they start with", emoji)
	}
}

// A mixed Hebrew/Latin line: the Latin run stays on the left, the Hebrew
// run is laid right to left (its first word to the right of its second,
// each word's first letter rightmost).
func TestHebrewLatinLineOrdered(t *testing.T) {
	f := indexedFonts(t)
	l := f.Line("Hello שלום עולם")
	if len(l.pieces) != 2 || l.pieces[0].text != "Hello " || l.pieces[1].text != "שלום עולם" {
		t.Fatalf("pieces %+v", l.pieces)
	}
	if f.fallbackFor('ש') < 0 || l.pieces[1].primary < 0 {
		t.Fatal("no system font with Hebrew")
	}
	face := f.chain(false, 20, l.pieces[1].primary)
	x := map[int]float64{}
	for _, g := range text.AppendGlyphs(nil, l.pieces[1].text, face, &text.LayoutOptions{}) {
		x[g.StartIndexInBytes] = g.X
	}
	// ש (0) and ם (6) of the first word, ע (9) and ם (15) of the second.
	if !(x[0] > x[6] && x[6] > x[9] && x[9] > x[15]) {
		t.Errorf("not right to left: %v", x)
	}
	// The same text in a right-to-left paragraph puts the Latin after.
	r := f.Line("שלום world")
	if len(r.pieces) != 3 || r.pieces[0].text != "world" || r.pieces[2].text != "שלום" {
		t.Errorf("rtl paragraph pieces %+v", r.pieces)
	}
}

// Control and invisible formatting characters are dropped; every other
// rune stays, to be drawn by some font or as a box.
func TestPrintableDropsControlAndInvisible(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"a\x00b\x1fc\x7fd":     "abcd",
		"⚡ Bob joined":         "⚡ Bob joined",
		"⚔\ufe0f  Bob":         "⚔  Bob",
		"Zoë Ünicode Жук 日本":   "Zoë Ünicode Жук 日本",
		"\u200e\u0085x\u200dy": "xy",
		// Escape sequences go whole, not just their ESC.
		"\x1b[2J\x1b[HRoom":           "Room",
		"a\x1b]0;title\x07b":          "ab",
		"c\u009b31md\x1b(Be":          "cde",
		"osc \x1b]8;;http://x\x1b\\l": "osc l",
	} {
		if got := f.Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// With Background, a rune only a system font has does not load that font
// while the line is prepared: the line is drawn with a box for it until
// the font is in the chain, and is prepared again then.
func TestBackgroundLoadPutsTheFontInLater(t *testing.T) {
	f, err := NewWith(Options{System: true, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	<-f.SystemReady()
	f.Poll()
	const s = "Hi שלום"
	early := f.Line(s)
	if f.fallbackFor('ש') >= 0 {
		t.Fatal("the font was loaded while the line was prepared")
	}
	if f.Line(s) != early {
		t.Fatal("the line was prepared again before its font is in")
	}
	f.AwaitFonts()
	if f.fallbackFor('ש') < 0 {
		t.Fatal("no system font with Hebrew once the load is done")
	}
	late := f.Line(s)
	if late == early || len(late.pieces) != 2 || late.pieces[1].primary < 0 {
		t.Fatalf("after the load: the same line %v, pieces %+v; want it prepared again with the Hebrew font", late == early, late.pieces)
	}
	if f.pollLoad(false) {
		t.Fatal("a load went on after every rune had its font")
	}
}

// Runes that wait for a background load while another is going on are
// loaded in turn, each once, and one a loaded font covers is not loaded
// for again.
func TestBackgroundLoadsQueue(t *testing.T) {
	f, err := NewWith(Options{System: true, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	<-f.SystemReady()
	f.Poll()
	f.Line("ש")
	f.Line("ם") // the same font's: queued, then found covered
	f.Line("ש") // cached line: nothing asked again
	if n := len(f.sys.queue); n != 1 {
		t.Fatalf("%d runes queued, want 1", n)
	}
	loads := 0
	for f.pollLoad(true) {
		loads++
	}
	if loads != 1 || len(f.fallbacks) != 1 || f.fallbackFor('ם') != 0 {
		t.Fatalf("%d loads, %d fallbacks; want the one Hebrew font", loads, len(f.fallbacks))
	}
}

// The system fonts are indexed only once a rune needs them: lines the
// bundled fonts draw whole (every Latin line of the start screen and of a
// match) leave the index unread and its directory uncreated; the first
// rune the bundled fonts lack starts the scan, and once it is in use that
// rune gets its font.
func TestSystemFontsIndexedOnlyWhenARuneNeedsThem(t *testing.T) {
	dir := t.TempDir() + "/index"
	f, err := NewWith(Options{System: true, Background: true, CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Play offline", "Servers", "Settings · F10", "Ünïcödé Latin-1 ½ © — “quoted”"} {
		f.Line(s)
		f.Poll()
	}
	if f.sys.scanning {
		t.Fatal("the system fonts were indexed for lines the bundled fonts draw")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the index directory exists before any rune needed it (stat: %v)", err)
	}
	const hebrew = 'ש'
	if f.bundled(hebrew) {
		t.Fatalf("the bundled fonts have U+%04X; the test needs a rune they lack", hebrew)
	}
	f.Line("שלום")
	if !f.sys.scanning {
		t.Fatal("a rune the bundled fonts lack did not start the index")
	}
	<-f.SystemReady()
	f.Poll()
	f.Line("שלום")
	f.AwaitFonts()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the index was not kept: %v", err)
	}
	if !f.Has(hebrew) {
		t.Skip("no system font has Hebrew here")
	}
}
