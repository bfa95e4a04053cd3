package release

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"time"

	"vimpclient/internal/desktop"
)

// DocNames are the documents every archive carries.
var DocNames = []string{"README.md", "LICENSE", "NOTICE"}

// PackOptions say what Pack packs.
type PackOptions struct {
	Version  string
	Date     time.Time // every archive entry's time (the commit's, for reproducible archives)
	BuildDir string    // holds OS_ARCH/vimpclient[.exe] for every target
	OutDir   string    // receives the archives and SHA256SUMS
	Docs     Docs
	Targets  []Target // nil: Targets
	Art      *Artwork // nil: NewArtwork draws it
}

// Pack writes one archive per target from its built binary, then the
// SHA256SUMS of them all, and returns the archives' names.
func Pack(o PackOptions) ([]string, error) {
	if o.Targets == nil {
		o.Targets = Targets
	}
	if err := validVersion(o.Version); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("release: %w", err)
	}
	if o.Art == nil {
		art, err := NewArtwork(o.Targets)
		if err != nil {
			return nil, err
		}
		o.Art = &art
	}
	var names []string
	for _, t := range o.Targets {
		bin, err := os.ReadFile(filepath.Join(o.BuildDir, t.OS+"_"+t.Arch, t.BinaryName()))
		if err != nil {
			return nil, fmt.Errorf("release: %s binary: %w", t, err)
		}
		files, err := Layout(t, o.Version, bin, o.Docs, *o.Art)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if t.OS == "linux" {
			err = WriteTarGz(&b, files, o.Date)
		} else {
			err = WriteZip(&b, files, o.Date)
		}
		if err != nil {
			return nil, fmt.Errorf("release: %s: %w", t, err)
		}
		name := t.ArchiveName(o.Version)
		if err := os.WriteFile(filepath.Join(o.OutDir, name), b.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("release: %w", err)
		}
		names = append(names, name)
	}
	return names, WriteSums(o.OutDir, names)
}

// validVersion keeps a version usable in file names and plists.
func validVersion(v string) error {
	if v == "" || strings.ContainsAny(v, "/\\ _<>&\"'") || strings.HasPrefix(v, ".") {
		return fmt.Errorf("release: version %q: want something like v1.2.3", v)
	}
	return nil
}

// TargetOf reads the target from an archive name of version.
func TargetOf(name, version string) (Target, error) {
	rest, ok := strings.CutPrefix(name, "vimpclient_"+version+"_")
	if ok {
		for _, ext := range []string{".tar.gz", ".zip"} {
			if r, ok := strings.CutSuffix(rest, ext); ok {
				if os, arch, ok := strings.Cut(r, "_"); ok {
					t := Target{os, arch}
					if t.ArchiveName(version) == name {
						return t, nil
					}
				}
			}
		}
	}
	return Target{}, fmt.Errorf("release: %q is not an archive name of version %s", name, version)
}

// CheckArchive checks an unpacked archive of t: every file of its layout
// is there, the binary is executable and built for t, and the desktop
// files name the vimp scheme (Windows: the icon, manifest and version
// resources). It returns the binary and what it is.
func CheckArchive(t Target, version string, files []File) ([]byte, Binary, error) {
	byName := map[string]File{}
	for _, f := range files {
		byName[f.Name] = f
	}
	docs := Docs{}
	for _, n := range DocNames {
		docs[n] = nil
	}
	want, err := Layout(t, version, nil, docs, Artwork{})
	if err != nil {
		return nil, Binary{}, err
	}
	for _, w := range want {
		f, ok := byName[w.Name]
		if !ok {
			return nil, Binary{}, fmt.Errorf("release: %s: %s missing", t, w.Name)
		}
		if f.Mode.Perm() != w.Mode {
			return nil, Binary{}, fmt.Errorf("release: %s: %s has mode %v, want %v", t, w.Name, f.Mode.Perm(), w.Mode)
		}
	}
	if len(files) != len(want) {
		return nil, Binary{}, fmt.Errorf("release: %s: %d files, want %d", t, len(files), len(want))
	}
	bin := byName[t.BinaryPath(version)].Data
	info, err := InspectBinary(bin)
	if err != nil {
		return nil, Binary{}, fmt.Errorf("release: %s: %w", t, err)
	}
	if info.OS != t.OS || info.Arch != t.Arch {
		return nil, info, fmt.Errorf("release: %s: the binary is %s %s/%s", t, info.Format, info.OS, info.Arch)
	}
	switch t.OS {
	case "linux":
		entry := byName[t.dir(version)+"/"+desktop.EntryID].Data
		if !bytes.Contains(entry, []byte("\nMimeType="+desktop.MimeType+";\n")) {
			return nil, info, fmt.Errorf("release: %s: the desktop entry does not register %s", t, desktop.MimeType)
		}
		if _, err := png.Decode(bytes.NewReader(byName[t.dir(version)+"/"+desktop.IconName+".png"].Data)); err != nil {
			return nil, info, fmt.Errorf("release: %s: icon: %w", t, err)
		}
	case "windows":
		if !info.Icon || !info.Manifest || !info.VersionInfo || !info.DPIAware {
			return nil, info, fmt.Errorf("release: %s: resources: icon %v, manifest %v (DPI aware %v), version info %v",
				t, info.Icon, info.Manifest, info.DPIAware, info.VersionInfo)
		}
	case "darwin":
		plist := byName["vimpclient.app/Contents/Info.plist"].Data
		for _, s := range []string{"<key>CFBundleURLSchemes</key>", "<string>" + desktop.Scheme + "</string>",
			"<string>" + desktop.BundleID + "</string>", "<string>" + version + "</string>"} {
			if !bytes.Contains(plist, []byte(s)) {
				return nil, info, fmt.Errorf("release: %s: Info.plist lacks %s", t, s)
			}
		}
		if !bytes.HasPrefix(byName["vimpclient.app/Contents/Resources/vimpclient.icns"].Data, []byte("icns")) {
			return nil, info, fmt.Errorf("release: %s: vimpclient.icns is not an ICNS file", t)
		}
	}
	return bin, info, nil
}
