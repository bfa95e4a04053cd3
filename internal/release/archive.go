// Package release lays out and packs vimpclient's release archives (a
// tar.gz for Linux, zips for Windows and macOS), writes and verifies their
// SHA256SUMS, and checks what the archives hold: each binary's format and
// architecture, and the desktop files that register the vimp:// scheme.
//
// Archives are reproducible: entries sorted, every time the one given (the
// commit's), owner and group zero, no host names or paths.
package release

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// File is one regular file of an archive.
type File struct {
	Name string      // slash-separated, relative; parent directories are implied
	Mode fs.FileMode // permission bits (0644, 0755)
	Data []byte
}

// sorted returns files ordered by name with their parent directories
// added, each once, or an error for a name that is not a clean relative
// path or comes twice.
func sorted(files []File) (dirs []string, out []File, err error) {
	seen := map[string]bool{}
	dirSet := map[string]bool{}
	for _, f := range files {
		if f.Name == "" || path.Clean(f.Name) != f.Name || path.IsAbs(f.Name) || f.Name == "." || strings.HasPrefix(f.Name, "../") {
			return nil, nil, fmt.Errorf("release: bad archive name %q", f.Name)
		}
		if seen[f.Name] {
			return nil, nil, fmt.Errorf("release: %q twice", f.Name)
		}
		seen[f.Name] = true
		for d := path.Dir(f.Name); d != "."; d = path.Dir(d) {
			dirSet[d] = true
		}
	}
	for d := range dirSet {
		if seen[d] {
			return nil, nil, fmt.Errorf("release: %q is both a file and a directory", d)
		}
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	out = slices.Clone(files)
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return dirs, out, nil
}

// WriteTarGz writes files as a gzip-compressed tar (USTAR/PAX), every
// entry dated mtime.
func WriteTarGz(w io.Writer, files []File, mtime time.Time) error {
	dirs, files, err := sorted(files)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return fmt.Errorf("release: %w", err)
	}
	zw.ModTime = mtime.UTC()
	tw := tar.NewWriter(zw)
	mtime = mtime.UTC().Truncate(time.Second)
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX}); err != nil {
			return fmt.Errorf("release: tar %s: %w", d, err)
		}
	}
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: f.Name, Mode: int64(f.Mode.Perm()), Size: int64(len(f.Data)),
			ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return fmt.Errorf("release: tar %s: %w", f.Name, err)
		}
		if _, err := tw.Write(f.Data); err != nil {
			return fmt.Errorf("release: tar %s: %w", f.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("release: tar: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("release: gzip: %w", err)
	}
	return nil
}

// WriteZip writes files as a deflated zip, every entry dated mtime, with
// Unix permissions (the executable bit survives unpacking on macOS and
// Linux).
func WriteZip(w io.Writer, files []File, mtime time.Time) error {
	dirs, files, err := sorted(files)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestCompression)
	})
	mtime = mtime.UTC().Truncate(time.Second)
	for _, d := range dirs {
		h := &zip.FileHeader{Name: d + "/", Method: zip.Store, Modified: mtime}
		h.SetMode(fs.ModeDir | 0o755)
		if _, err := zw.CreateHeader(h); err != nil {
			return fmt.Errorf("release: zip %s: %w", d, err)
		}
	}
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(f.Mode.Perm())
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("release: zip %s: %w", f.Name, err)
		}
		if _, err := fw.Write(f.Data); err != nil {
			return fmt.Errorf("release: zip %s: %w", f.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("release: zip: %w", err)
	}
	return nil
}

// maxEntry bounds one unpacked file (a binary is about 35 MB).
const maxEntry = 256 << 20

// ReadArchive unpacks a tar.gz or zip (by name) into its regular files,
// in archive order, with their permission bits.
func ReadArchive(name string, r io.ReaderAt, size int64) ([]File, error) {
	switch {
	case strings.HasSuffix(name, ".tar.gz"):
		return readTarGz(io.NewSectionReader(r, 0, size))
	case strings.HasSuffix(name, ".zip"):
		return readZip(r, size)
	}
	return nil, fmt.Errorf("release: %s: not a .tar.gz or .zip", name)
}

func readTarGz(r io.Reader) ([]File, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("release: gzip: %w", err)
	}
	tr := tar.NewReader(zr)
	var files []File
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("release: tar: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := readBounded(tr, h.Name)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: h.Name, Mode: fs.FileMode(h.Mode).Perm(), Data: b})
	}
}

func readZip(r io.ReaderAt, size int64) ([]File, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("release: zip: %w", err)
	}
	var files []File
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("release: zip %s: %w", f.Name, err)
		}
		b, err := readBounded(rc, f.Name)
		rc.Close()
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: f.Name, Mode: f.Mode().Perm(), Data: b})
	}
	return files, nil
}

func readBounded(r io.Reader, name string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxEntry+1))
	if err != nil {
		return nil, fmt.Errorf("release: %s: %w", name, err)
	}
	if len(b) > maxEntry {
		return nil, fmt.Errorf("release: %s: over %d bytes", name, maxEntry)
	}
	return b, nil
}
