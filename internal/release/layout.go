package release

import (
	"fmt"
	"strings"

	"vimpclient/internal/desktop"
	"vimpclient/internal/icon"
)

// Target is one platform of the release.
type Target struct{ OS, Arch string }

// Targets are the platforms every release is built for.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}, {"darwin", "amd64"}, {"darwin", "arm64"},
}

func (t Target) String() string { return t.OS + "/" + t.Arch }

// ParseTarget reads "os/arch".
func ParseTarget(s string) (Target, error) {
	os, arch, ok := strings.Cut(s, "/")
	if !ok || os == "" || arch == "" || strings.Contains(arch, "/") {
		return Target{}, fmt.Errorf("release: target %q: want os/arch", s)
	}
	return Target{os, arch}, nil
}

// BinaryName is the program's file name on the target.
func (t Target) BinaryName() string {
	if t.OS == "windows" {
		return "vimpclient.exe"
	}
	return "vimpclient"
}

// ArchiveName is vimpclient_VERSION_OS_ARCH.tar.gz on Linux, .zip elsewhere.
func (t Target) ArchiveName(version string) string {
	ext := ".zip"
	if t.OS == "linux" {
		ext = ".tar.gz"
	}
	return "vimpclient_" + version + "_" + t.OS + "_" + t.Arch + ext
}

// BinaryPath is where the program is inside the target's archive.
func (t Target) BinaryPath(version string) string {
	if t.OS == "darwin" {
		return "vimpclient.app/Contents/MacOS/vimpclient"
	}
	return t.dir(version) + "/" + t.BinaryName()
}

// dir is the top directory of the Linux and Windows archives.
func (t Target) dir(version string) string {
	return "vimpclient_" + version + "_" + t.OS + "_" + t.Arch
}

// Docs are the text files every archive carries, by their archive name
// (README.md, LICENSE, NOTICE).
type Docs map[string][]byte

// Artwork is the icon in the forms the archives carry.
type Artwork struct {
	PNG  []byte // 256×256, beside the Linux desktop entry
	ICNS []byte // the macOS app bundle's icon
}

// NewArtwork draws the icon in the forms the archives of targets need.
func NewArtwork(targets []Target) (Artwork, error) {
	var art Artwork
	var err error
	for _, t := range targets {
		switch {
		case t.OS == "linux" && art.PNG == nil:
			art.PNG, err = icon.PNG(256)
		case t.OS == "darwin" && art.ICNS == nil:
			art.ICNS, err = icon.ICNS()
		}
		if err != nil {
			return Artwork{}, err
		}
	}
	return art, nil
}

// Layout lists the files of the target's archive around binary:
//
//	linux:   DIR/vimpclient, DIR/vimpclient.desktop, DIR/vimpclient.png and the docs
//	windows: DIR/vimpclient.exe and the docs
//	darwin:  vimpclient.app (Info.plist, MacOS/vimpclient, Resources/vimpclient.icns)
//	         and the docs beside it
func Layout(t Target, version string, binary []byte, docs Docs, art Artwork) ([]File, error) {
	var files []File
	prefix := t.dir(version) + "/"
	switch t.OS {
	case "linux":
		files = append(files,
			File{Name: prefix + desktop.EntryID, Mode: 0o644, Data: []byte(desktop.Entry("vimpclient"))},
			File{Name: prefix + desktop.IconName + ".png", Mode: 0o644, Data: art.PNG})
	case "windows":
	case "darwin":
		prefix = ""
		files = append(files,
			File{Name: "vimpclient.app/Contents/Info.plist", Mode: 0o644, Data: desktop.InfoPlist(version)},
			File{Name: "vimpclient.app/Contents/PkgInfo", Mode: 0o644, Data: []byte("APPL????")},
			File{Name: "vimpclient.app/Contents/Resources/vimpclient.icns", Mode: 0o644, Data: art.ICNS})
	default:
		return nil, fmt.Errorf("release: no archive layout for %s", t)
	}
	files = append(files, File{Name: t.BinaryPath(version), Mode: 0o755, Data: binary})
	for name, b := range docs {
		files = append(files, File{Name: prefix + name, Mode: 0o644, Data: b})
	}
	return files, nil
}
