package desktop

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestEntry(t *testing.T) {
	e := Entry("/opt/vimp client/vimpclient")
	for _, want := range []string{
		"[Desktop Entry]\n", "Type=Application\n", "MimeType=x-scheme-handler/vimp;\n", "Icon=vimpclient\n",
		`Exec="/opt/vimp client/vimpclient" open %u` + "\n",
	} {
		if !strings.Contains(e, want) {
			t.Errorf("entry lacks %q:\n%s", want, e)
		}
	}
	if got := Entry("vimpclient"); !strings.Contains(got, "Exec=vimpclient open %u\n") {
		t.Errorf("plain name quoted:\n%s", got)
	}
}

func TestQuoteExecArg(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/vimpclient": "/usr/bin/vimpclient",
		"/a b/c":              `"/a b/c"`,
		`/a"b$c`:              `"/a\"b\$c"`,
		"/100%/x":             `"/100%%/x"`,
		"":                    `""`,
	} {
		if got := quoteExecArg(in); got != want {
			t.Errorf("quoteExecArg(%q) = %q, want %q", in, got, want)
		}
	}
	// Backslashes are escaped once for the Exec quoting, again for the value.
	if got := escapeValue(quoteExecArg(`/a\b c`)); got != `"/a\\\\b c"` {
		t.Errorf("backslash: %s", got)
	}
}

// plist is the subset of a property list the test reads: the top dict's
// keys and values in order.
type plist struct {
	Dict struct {
		Inner []byte `xml:",innerxml"`
	} `xml:"dict"`
}

func TestInfoPlist(t *testing.T) {
	b := InfoPlist("v1.4.2-rc.1+<x>")
	var p plist
	if err := xml.Unmarshal(b, &p); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b)
	}
	// Walk the dict's elements: every <key> is followed by its value.
	d := xml.NewDecoder(bytes.NewReader(p.Dict.Inner))
	values := map[string]string{}
	var key, schemes string
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			depth++
			var s string
			if tk.Name.Local == "key" || tk.Name.Local == "string" {
				if err := d.DecodeElement(&s, &tk); err != nil {
					t.Fatal(err)
				}
				depth--
				switch {
				case tk.Name.Local == "key" && depth == 0:
					key = s
				case tk.Name.Local == "string" && depth == 0:
					values[key] = s
				case tk.Name.Local == "string" && key == "CFBundleURLTypes":
					schemes += s + ","
				}
			}
		case xml.EndElement:
			depth--
		}
	}
	want := map[string]string{
		"CFBundleIdentifier": BundleID, "CFBundleExecutable": "vimpclient", "CFBundleIconFile": "vimpclient.icns",
		"CFBundleShortVersionString": "1.4.2", "CFBundleVersion": "v1.4.2-rc.1+<x>", "CFBundlePackageType": "APPL",
	}
	for k, v := range want {
		if values[k] != v {
			t.Errorf("%s = %q, want %q", k, values[k], v)
		}
	}
	if schemes != BundleID+".join,vimp," {
		t.Errorf("URL types strings %q, want the name and the vimp scheme", schemes)
	}
}

func TestNumericVersion(t *testing.T) {
	for in, want := range map[string]string{"v1.2.3": "1.2.3", "1.2": "1.2", "v0.1.0-dev": "0.1.0", "dev": "0.0.0", "v2.": "2"} {
		if got := NumericVersion(in); got != want {
			t.Errorf("NumericVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func fakeIcon(size int) ([]byte, error) { return []byte{byte(size)}, nil }

func TestXDGInstallUninstall(t *testing.T) {
	dir := t.TempDir()
	var calls []string
	x := XDG{DataHome: filepath.Join(dir, "data"), ConfigHome: filepath.Join(dir, "config"), Exec: "/opt/vimpclient",
		Icon: fakeIcon, Run: func(_ context.Context, name string, args ...string) error {
			calls = append(calls, name+" "+strings.Join(args, " "))
			return nil
		}}
	registered, err := x.Install(context.Background())
	if err != nil || !registered {
		t.Fatalf("install: %v %v", registered, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "data", "applications", "vimpclient.desktop"))
	if err != nil || !strings.Contains(string(b), "Exec=/opt/vimpclient open %u") {
		t.Fatalf("entry: %v\n%s", err, b)
	}
	for _, s := range IconSizes {
		b, err := os.ReadFile(filepath.Join(dir, "data", "icons", "hicolor", strconv.Itoa(s)+"x"+strconv.Itoa(s), "apps", "vimpclient.png"))
		if err != nil || !bytes.Equal(b, []byte{byte(s)}) {
			t.Errorf("icon %d: %v %v", s, err, b)
		}
	}
	wantCalls := []string{"update-desktop-database " + filepath.Join(dir, "data", "applications"),
		"xdg-mime default vimpclient.desktop x-scheme-handler/vimp"}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("calls %q, want %q", calls, wantCalls)
	}

	list := filepath.Join(dir, "config", "mimeapps.list")
	if err := os.MkdirAll(filepath.Dir(list), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := "[Default Applications]\ntext/html=firefox.desktop\nx-scheme-handler/vimp=vimpclient.desktop;\n[Added Associations]\nx-scheme-handler/vimp=other.desktop;vimpclient.desktop;\n"
	if err := os.WriteFile(list, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := x.Uninstall(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(x.EntryPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("entry left: %v", err)
	}
	if _, err := os.Stat(x.IconPath(256)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("icon left: %v", err)
	}
	b, _ = os.ReadFile(list)
	if want := "[Default Applications]\ntext/html=firefox.desktop\n[Added Associations]\nx-scheme-handler/vimp=other.desktop;\n"; string(b) != want {
		t.Errorf("mimeapps.list:\n%s\nwant:\n%s", b, want)
	}
	if err := x.Uninstall(context.Background()); err != nil {
		t.Errorf("second uninstall: %v", err)
	}
}

func TestXDGInstallWithoutXDGMime(t *testing.T) {
	x := XDG{DataHome: t.TempDir(), Exec: "/opt/vimpclient", Icon: fakeIcon,
		Run: func(context.Context, string, ...string) error { return exec.ErrNotFound }}
	registered, err := x.Install(context.Background())
	if err != nil || registered {
		t.Fatalf("install without xdg-mime: registered %v, %v", registered, err)
	}
	if _, err := os.Stat(x.EntryPath()); err != nil {
		t.Errorf("entry not written: %v", err)
	}
	if _, err := (XDG{DataHome: t.TempDir(), Exec: "vimpclient", Icon: fakeIcon}).Install(context.Background()); err == nil {
		t.Error("a relative program path was accepted")
	}
}

// With the real xdg-mime (when installed), the scheme's default handler is
// the entry after Install.
func TestXDGMimeRegisters(t *testing.T) {
	if _, err := exec.LookPath("xdg-mime"); err != nil {
		t.Skip("xdg-mime not installed")
	}
	dir := t.TempDir()
	data, config := filepath.Join(dir, "data"), filepath.Join(dir, "config")
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("XDG_DATA_DIRS", filepath.Join(dir, "none"))
	t.Setenv("XDG_CONFIG_DIRS", filepath.Join(dir, "none"))
	t.Setenv("HOME", dir)
	for _, k := range []string{"XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION", "GNOME_DESKTOP_SESSION_ID"} {
		t.Setenv(k, "")
	}
	x := XDG{DataHome: data, ConfigHome: config, Exec: "/opt/vimpclient", Icon: fakeIcon}
	if registered, err := x.Install(context.Background()); err != nil || !registered {
		t.Fatalf("install: %v %v", registered, err)
	}
	out, err := exec.Command("xdg-mime", "query", "default", MimeType).Output()
	if err != nil || strings.TrimSpace(string(out)) != EntryID {
		t.Fatalf("xdg-mime query default = %q, %v; want %s", out, err, EntryID)
	}
	if err := x.Uninstall(context.Background()); err != nil {
		t.Fatal(err)
	}
	out, _ = exec.Command("xdg-mime", "query", "default", MimeType).Output()
	if strings.TrimSpace(string(out)) != "" {
		t.Errorf("after uninstall xdg-mime names %q", out)
	}
}
