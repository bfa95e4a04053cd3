package input

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"vimpclient/testkit/localfiletest"
)

func TestParseBindings(t *testing.T) {
	all, err := ParseBindings([]byte("# mine\n[tanks]\nfire = Space, j\nforward = Up #87\n\n[snakes]\nboost=F5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := all["tanks"]["fire"]; len(got) != 2 || got[0] != 32 || got[1] != 74 {
		t.Fatalf("fire %v", got)
	}
	if got := all["tanks"]["forward"]; len(got) != 2 || got[0] != 38 || got[1] != 87 {
		t.Fatalf("forward %v", got)
	}
	if got := all["snakes"]["boost"]; len(got) != 1 || got[0] != 116 {
		t.Fatalf("boost %v", got)
	}
	for _, bad := range []string{
		"fire = J\n",              // before a section
		"[tanks\nfire = J\n",      // unclosed
		"[tanks]\nfire =\n",       // no key
		"[tanks]\nfire J\n",       // no '='
		"[tanks]\nfire = Hyper\n", // unknown key
		"[tanks]\nfire = #0\n",
		"[]\n",
	} {
		if _, err := ParseBindings([]byte(bad)); !errors.Is(err, ErrBindings) {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

func TestBindingsMoveCommandKeepNames(t *testing.T) {
	c, _, _ := newTestController(t)
	cfg, problems := c.cfg.WithBindings(Binding{"fire": {32, kC}, "forward": {38}})
	if len(problems) != 1 { // C is the chat key
		t.Fatalf("problems %v", problems)
	}
	if _, ok := cfg.KeySets[1][kJ]; ok {
		t.Fatal("J still fires")
	}
	if _, ok := c.cfg.KeySets[1][32]; ok {
		t.Fatal("original config changed")
	}
	ui := newFakeUI()
	b := NewController(cfg, ui, nil, nil)
	b.SetEnabled(true, 0)
	b.SetKeySet(1, 0)
	b.KeyDown(32, 1)
	b.KeyDown(38, 2)
	b.KeyDown(kJ, 3)
	b.KeyDown(kS, 4) // unchanged binding
	eq(t, b.Drain(), `[5,"1:down:fire"]`, `[5,"2:down:forward"]`, `[5,"3:down:back"]`)
	b.SetKeySet(0, 5) // spectator set has no fire: nothing moves there
	if cfg.KeySets[0][kN] != "nextPlayer" {
		t.Fatal("spectator set changed")
	}
}

func TestLoadBindings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.conf")
	if b, err := LoadBindings(path, "tanks"); err != nil || b != nil {
		t.Fatalf("missing file: %v %v", b, err)
	}
	if err := os.WriteFile(path, []byte("[tanks]\nfire = Space\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBindings(path, "tanks")
	if err != nil || b["fire"][0] != 32 {
		t.Fatalf("%v %v", b, err)
	}
	if err := os.WriteFile(path, []byte("fire = Space\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBindings(path, "tanks"); !errors.Is(err, ErrBindings) {
		t.Fatalf("err %v", err)
	}
}

func FuzzParseBindings(f *testing.F) {
	f.Add([]byte("[tanks]\nfire = Space, J\nforward = Up #87\n"))
	f.Add([]byte("# c\n[a]\nx=#255\n[b]\ny = Numpad4 F12 Quote\n"))
	f.Add([]byte("[\n"))
	f.Add([]byte("[a]\n=\n"))
	f.Add([]byte("[a]\nx = Hyper\ny = J\n[b c]\nz = K\n[d]\nw = L\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// What was read, even beside lines that could not be, holds to the
		// bounds and survives a round trip whole.
		all, _ := ParseBindings(data)
		if all == nil {
			return
		}
		if len(all) > maxBindingGames {
			t.Fatalf("%d games", len(all))
		}
		for _, b := range all {
			for cmd, codes := range b {
				if cmd == "" || len(codes) == 0 || len(codes) > maxKeysPerCommand {
					t.Fatalf("binding %q %v", cmd, codes)
				}
				for _, c := range codes {
					if c <= 0 || c > 255 {
						t.Fatalf("code %d", c)
					}
				}
			}
		}
		// What was read is written back and read again the same.
		out, err := FormatBindings(all)
		if err != nil {
			t.Fatalf("parsed bindings not written: %v", err)
		}
		again, err := ParseBindings(out)
		if err != nil {
			t.Fatalf("written bindings not read: %v\n%s", err, out)
		}
		for g, b := range all {
			if len(b) == 0 {
				delete(all, g) // an empty section is not written
			}
		}
		if !reflect.DeepEqual(all, again) {
			t.Fatalf("round trip %v -> %v", all, again)
		}
	})
}

// The overlay's bindings are saved into the file the client reads at start:
// the game's section replaced, the other games' kept, names spelled as the
// parser reads them.
func TestSaveBindingsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "keys.conf")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("# mine\n[snakes]\nboost = Space\n[tanks]\nfire = J\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveBindings(path, "tanks", Binding{"fire": {32, 75}, "forward": {38}, "bomb": {250}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "fire = Space K\n") || !strings.Contains(string(b), "bomb = #250\n") {
		t.Fatalf("file:\n%s", b)
	}
	tanks, err := LoadBindings(path, "tanks")
	if err != nil || !reflect.DeepEqual(tanks, Binding{"fire": {32, 75}, "forward": {38}, "bomb": {250}}) {
		t.Fatalf("tanks %v %v", tanks, err)
	}
	if snakes, err := LoadBindings(path, "snakes"); err != nil || !reflect.DeepEqual(snakes, Binding{"boost": {32}}) {
		t.Fatalf("snakes %v %v", snakes, err)
	}
	// An empty binding removes the section.
	if err := SaveBindings(path, "tanks", nil); err != nil {
		t.Fatal(err)
	}
	if tanks, _ := LoadBindings(path, "tanks"); tanks != nil {
		t.Fatalf("tanks after removal %v", tanks)
	}
	for _, bad := range []map[string]Binding{{"a b": {"x": {65}}}, {"g": {"#x": {65}}}, {"g": {"x=y": {65}}}, {"g": {"x": {0}}}, {"g": {"x": nil}}} {
		if _, err := FormatBindings(bad); !errors.Is(err, ErrBindings) {
			t.Errorf("%v: err %v", bad, err)
		}
	}
	for code, want := range map[int]string{65: "A", 48: "0", 32: "Space", 112: "F1", 250: "#250"} {
		if got := KeyName(code); got != want {
			t.Errorf("KeyName(%d) = %q", code, got)
		}
		if back, err := KeyCodeByName(KeyName(code)); err != nil || back != code {
			t.Errorf("%q reads back as %d %v", KeyName(code), back, err)
		}
	}
}

// A bindings file with lines that cannot be read keeps the others: they are
// used, and a save sets the file aside instead of refusing or dropping them.
func TestDamagedBindingsKeepTheRest(t *testing.T) {
	held := []byte("[tanks]\nfire = Hyper\nforward = W\n[bad section]\nx = J\n[snakes]\nboost = Space\n")
	all, err := ParseBindings(held)
	if !errors.Is(err, ErrBindings) || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("err %v", err)
	}
	if !reflect.DeepEqual(all, map[string]Binding{"tanks": {"forward": {87}}, "snakes": {"boost": {32}}}) {
		t.Fatalf("read %v", all)
	}
	path := filepath.Join(t.TempDir(), "keys.conf")
	if err := os.WriteFile(path, held, 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := LoadBindings(path, "snakes"); err == nil || b["boost"][0] != 32 {
		t.Fatalf("load: %v %v", b, err)
	}
	if err := SaveBindings(path, "tanks", Binding{"fire": {32}}); err != nil {
		t.Fatal(err)
	}
	localfiletest.SetAside(t, path, held)
	if b, err := LoadBindings(path, "snakes"); err != nil || b["boost"][0] != 32 {
		t.Fatalf("the snakes bindings were lost: %v %v", b, err)
	}
	valid := []byte("[tanks]\nfire = Space\nforward = W\n[snakes]\nboost = Space\n")
	for _, d := range localfiletest.Damages() {
		t.Run(d.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keys.conf")
			held := d.Write(t, path, valid)
			if d.Name == "truncated" || d.Name == "trailing comma" {
				// A line-based file cut short or with a stray comma at the
				// end still reads what it can.
				if b, _ := LoadBindings(path, "tanks"); b["fire"] == nil {
					t.Fatalf("the readable line was lost")
				}
			}
			if err := SaveBindings(path, "tanks", Binding{"fire": {74}}); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, held)
			if b, err := LoadBindings(path, "tanks"); err != nil || b["fire"][0] != 74 {
				t.Fatalf("saved: %v %v", b, err)
			}
		})
	}
}
