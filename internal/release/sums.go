package release

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SumsFile is the checksum list's name, in the form sha256sum -c reads.
const SumsFile = "SHA256SUMS"

// FileSHA256 is the hex SHA-256 of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("release: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("release: %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// WriteSums writes dir/SHA256SUMS for the named files of dir, sorted by
// name: "HASH  NAME" lines.
func WriteSums(dir string, names []string) error {
	names = slices.Clone(names)
	slices.Sort(names)
	var b bytes.Buffer
	for _, n := range names {
		sum, err := FileSHA256(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, n)
	}
	if err := os.WriteFile(filepath.Join(dir, SumsFile), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("release: %w", err)
	}
	return nil
}

// VerifySums checks every file dir/SHA256SUMS lists against its hash and
// returns their names; a missing, changed or malformed entry is an error.
func VerifySums(dir string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, SumsFile))
	if err != nil {
		return nil, fmt.Errorf("release: %w", err)
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		want, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(want) != sha256.Size*2 || name == "" || strings.ContainsAny(name, `/\`) {
			return nil, fmt.Errorf("release: %s line %d: want \"HASH  NAME\"", SumsFile, n)
		}
		got, err := FileSHA256(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		if got != want {
			return nil, fmt.Errorf("release: %s: SHA-256 %s, %s says %s", name, got, SumsFile, want)
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("release: %s lists nothing", SumsFile)
	}
	return names, nil
}
