package localfile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// WriteAtomic replaces the file at path with data: written to a temporary
// file in the same directory (mode perm; the directory is made 0700 when
// missing), synced, then renamed over path, so a crash or a full disk
// never leaves half a file where the old one was.
func WriteAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(perm); err != nil && !isUnsupported(err) {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	ok = true
	return nil
}

// isUnsupported reports a Chmod that the system cannot do (Windows keeps
// only the read-only bit): the file's default access stands.
func isUnsupported(err error) bool {
	return strings.Contains(err.Error(), "not supported")
}

// WriteJSON replaces the file at path with v as indented JSON, readable by
// its owner only (it may hold sign-in tokens), as WriteAtomic does.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(path, append(b, '\n'), 0o600)
}

// asideLayout is the time in a set-aside file's name: sortable, and free of
// characters any file system refuses.
const asideLayout = "20060102-150405"

const asideMark = ".bad-"

// SetAside renames the file at path to NAME.bad-TIME beside it (with a
// number added when that name is taken) and returns the new path. A store
// calls it before writing over a file it could not read in full, so what
// the file held stays on disk. A missing file is no error ("" returned).
func SetAside(path string, now time.Time) (string, error) {
	if _, err := os.Lstat(path); os.IsNotExist(err) {
		return "", nil
	}
	base := path + asideMark + now.UTC().Format(asideLayout)
	dst := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(dst); os.IsNotExist(err) {
			break
		}
		if i > 100 {
			return "", fmt.Errorf("set aside %s: %d files already set aside at %s", path, i, now.UTC().Format(asideLayout))
		}
		dst = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(path, dst); err != nil {
		return "", fmt.Errorf("set aside %s: %w", path, err)
	}
	return dst, nil
}

// Aside is a file set aside by SetAside.
type Aside struct {
	Path string    // the set-aside file
	Of   string    // the name of the store it was ("tokens.json")
	At   time.Time // when it was set aside
}

// SetAsideIn lists the files set aside in dir since since, newest first:
// what the start screen tells the player about.
func SetAsideIn(dir string, since time.Time) []Aside {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Aside
	for _, e := range ents {
		name := e.Name()
		i := strings.LastIndex(name, asideMark)
		if i <= 0 {
			continue
		}
		stamp := name[i+len(asideMark):]
		if len(stamp) > len(asideLayout) {
			stamp = stamp[:len(asideLayout)]
		}
		at, err := time.Parse(asideLayout, stamp)
		if err != nil || at.Before(since.UTC().Truncate(time.Second)) {
			continue
		}
		out = append(out, Aside{Path: filepath.Join(dir, name), Of: name[:i], At: at})
	}
	slices.SortFunc(out, func(a, b Aside) int { return b.At.Compare(a.At) })
	return out
}

// Replace writes data over the store at path. damaged says the store's
// last read of the file was not whole (unreadable, too large, not JSON, an
// entry dropped): the file is then set aside first, and when that fails
// nothing is written, so no byte the player had is lost. aside is the
// set-aside file ("" when none).
func Replace(path string, data []byte, perm os.FileMode, damaged bool, now time.Time) (aside string, err error) {
	if damaged {
		if aside, err = SetAside(path, now); err != nil {
			return "", fmt.Errorf("not saved over %s, which could not be read in full: %w", path, err)
		}
	}
	if err := WriteAtomic(path, data, perm); err != nil {
		return aside, err
	}
	return aside, nil
}
