package release

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testDate = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// buildDir lays out fake binaries as the Makefile's build step does.
func buildDir(t *testing.T, bins map[Target][]byte) string {
	dir := t.TempDir()
	for tg, b := range bins {
		p := filepath.Join(dir, tg.OS+"_"+tg.Arch, tg.BinaryName())
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fakeBinaries() map[Target][]byte {
	return map[Target][]byte{
		{"linux", "amd64"}: fakeELF(62), {"linux", "arm64"}: fakeELF(183), {"windows", "amd64"}: fakeWindowsExe(),
		{"darwin", "amd64"}: fakeMachO(0x01000007), {"darwin", "arm64"}: fakeMachO(0x0100000c),
	}
}

// testArt stands in for the drawn icon (internal/icon tests the drawing):
// a one-pixel PNG, and the start of an ICNS file.
var testArt = func() *Artwork {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		panic(err)
	}
	return &Artwork{PNG: b.Bytes(), ICNS: []byte("icns\x00\x00\x00\x08")}
}()

var testDocs = Docs{"README.md": []byte("# read me\n"), "LICENSE": []byte("MIT\n"), "NOTICE": []byte("notice\n")}

func TestPackAndCheck(t *testing.T) {
	build := buildDir(t, fakeBinaries())
	out := t.TempDir()
	names, err := Pack(PackOptions{Version: "v1.2.3", Date: testDate, BuildDir: build, OutDir: out, Docs: testDocs, Art: testArt})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"vimpclient_v1.2.3_linux_amd64.tar.gz", "vimpclient_v1.2.3_linux_arm64.tar.gz",
		"vimpclient_v1.2.3_windows_amd64.zip", "vimpclient_v1.2.3_darwin_amd64.zip", "vimpclient_v1.2.3_darwin_arm64.zip"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("archives %q, want %q", names, want)
	}
	listed, err := VerifySums(out)
	if err != nil || len(listed) != 5 {
		t.Fatalf("sums: %v %v", listed, err)
	}
	for _, name := range listed {
		tg, err := TargetOf(name, "v1.2.3")
		if err != nil {
			t.Fatal(err)
		}
		files := readArchiveFile(t, filepath.Join(out, name))
		bin, info, err := CheckArchive(tg, "v1.2.3", files)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(bin, fakeBinaries()[tg]) || info.Arch != tg.Arch {
			t.Errorf("%s: binary %+v not the one packed", name, info)
		}
		for _, f := range files {
			if f.Name == "README.md" || strings.HasSuffix(f.Name, "/README.md") {
				if string(f.Data) != "# read me\n" {
					t.Errorf("%s: README %q", name, f.Data)
				}
			}
		}
	}
	// The macOS bundle is at the top of its zip.
	mac := readArchiveFile(t, filepath.Join(out, want[3]))
	if !hasFile(mac, "vimpclient.app/Contents/Info.plist") || !hasFile(mac, "vimpclient.app/Contents/MacOS/vimpclient") {
		t.Errorf("macOS zip: %v", fileNames(mac))
	}

	// The same inputs make the same bytes.
	again := t.TempDir()
	if _, err := Pack(PackOptions{Version: "v1.2.3", Date: testDate, BuildDir: build, OutDir: again, Docs: testDocs, Art: testArt}); err != nil {
		t.Fatal(err)
	}
	for _, n := range append(want, SumsFile) {
		a, _ := os.ReadFile(filepath.Join(out, n))
		b, _ := os.ReadFile(filepath.Join(again, n))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two packs", n)
		}
	}

	// A changed archive fails the sums.
	f, err := os.OpenFile(filepath.Join(out, want[2]), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0})
	f.Close()
	if _, err := VerifySums(out); err == nil || !strings.Contains(err.Error(), want[2]) {
		t.Errorf("tampered archive: %v", err)
	}
}

func TestCheckArchiveRefuses(t *testing.T) {
	bins := fakeBinaries()
	bins[Target{"linux", "amd64"}] = fakeELF(183)                        // an arm64 binary in the amd64 archive
	bins[Target{"windows", "amd64"}] = fakePE(0x8664, []uint32{14}, nil) // an icon, no manifest or version
	out := t.TempDir()
	if _, err := Pack(PackOptions{Version: "v0.1.0-dev", Date: testDate, BuildDir: buildDir(t, bins), OutDir: out, Docs: testDocs, Art: testArt,
		Targets: []Target{{"linux", "amd64"}, {"windows", "amd64"}}}); err != nil {
		t.Fatal(err)
	}
	for tg, want := range map[Target]string{{"linux", "amd64"}: "ELF linux/arm64", {"windows", "amd64"}: "manifest false"} {
		_, _, err := CheckArchive(tg, "v0.1.0-dev", readArchiveFile(t, filepath.Join(out, tg.ArchiveName("v0.1.0-dev"))))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %q", tg, err, want)
		}
	}
	// A missing file, and an executable that lost its mode.
	files, _ := Layout(Target{"linux", "amd64"}, "v1", fakeELF(62), testDocs, Artwork{})
	if _, _, err := CheckArchive(Target{"linux", "amd64"}, "v1", files[1:]); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing file: %v", err)
	}
	for i := range files {
		if strings.HasSuffix(files[i].Name, "/vimpclient") {
			files[i].Mode = 0o644
		}
	}
	if _, _, err := CheckArchive(Target{"linux", "amd64"}, "v1", files); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("lost mode: %v", err)
	}
}

func TestArchiveEntriesSortedAndDated(t *testing.T) {
	files := []File{{Name: "b/z", Mode: 0o644, Data: []byte("z")}, {Name: "a", Mode: 0o755, Data: []byte("a")}, {Name: "b/c/d", Mode: 0o644}}
	for _, name := range []string{"x.tar.gz", "x.zip"} {
		var buf bytes.Buffer
		var err error
		if strings.HasSuffix(name, ".zip") {
			err = WriteZip(&buf, files, testDate)
		} else {
			err = WriteTarGz(&buf, files, testDate)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadArchive(name, bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Join(fileNames(got), " "); n != "a b/c/d b/z" {
			t.Errorf("%s: order %q", name, n)
		}
		if got[0].Mode != 0o755 || string(got[2].Data) != "z" {
			t.Errorf("%s: %+v", name, got)
		}
	}
	for _, bad := range [][]File{{{Name: "../x"}}, {{Name: "/x"}}, {{Name: "a"}, {Name: "a"}}, {{Name: "a"}, {Name: "a/b"}}, {{Name: "a//b"}}} {
		if err := WriteZip(&bytes.Buffer{}, bad, testDate); err == nil {
			t.Errorf("%v accepted", fileNames(bad))
		}
	}
}

func TestTargetOf(t *testing.T) {
	if tg, err := TargetOf("vimpclient_v1.0.0_darwin_arm64.zip", "v1.0.0"); err != nil || tg != (Target{"darwin", "arm64"}) {
		t.Errorf("%v %v", tg, err)
	}
	for _, n := range []string{"vimpclient_v1.0.0_linux_amd64.zip", "vimpclient_v2_linux_amd64.tar.gz", "SHA256SUMS", "vimpclient_v1.0.0_linux.tar.gz"} {
		if tg, err := TargetOf(n, "v1.0.0"); err == nil {
			t.Errorf("%s: %v", n, tg)
		}
	}
}

func readArchiveFile(t *testing.T, path string) []File {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files, err := ReadArchive(path, bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func hasFile(files []File, name string) bool {
	for _, f := range files {
		if f.Name == name {
			return true
		}
	}
	return false
}

func fileNames(files []File) []string {
	var n []string
	for _, f := range files {
		n = append(n, f.Name)
	}
	return n
}
