package input

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
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
	f.Fuzz(func(t *testing.T, data []byte) {
		all, err := ParseBindings(data)
		if err != nil {
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
	})
}
