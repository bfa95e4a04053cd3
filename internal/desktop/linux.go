package desktop

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"vimpclient/internal/localfile"
)

// XDG is the freedesktop.org integration of one user: the desktop entry
// and icons under DataHome, the scheme's default handler through xdg-mime.
type XDG struct {
	DataHome   string // $XDG_DATA_HOME, or ~/.local/share
	ConfigHome string // $XDG_CONFIG_HOME, or ~/.config (mimeapps.list)
	Exec       string // the absolute path of the program the entry starts
	// Icon returns the icon as PNG at size×size.
	Icon func(size int) ([]byte, error)
	// Run runs a desktop tool (xdg-mime, update-desktop-database); nil
	// runs it with os/exec. It reports exec.ErrNotFound for a tool that is
	// not installed.
	Run func(ctx context.Context, name string, args ...string) error
}

// XDGDirs are the data and config homes of the freedesktop.org base
// directory spec: $XDG_DATA_HOME and $XDG_CONFIG_HOME when absolute, else
// ~/.local/share and ~/.config.
func XDGDirs() (data, config string, err error) {
	home, herr := os.UserHomeDir()
	pick := func(env, rel string) (string, error) {
		if v := os.Getenv(env); filepath.IsAbs(v) {
			return v, nil
		}
		if herr != nil {
			return "", fmt.Errorf("desktop: no %s and no home directory: %w", env, herr)
		}
		return filepath.Join(home, rel), nil
	}
	if data, err = pick("XDG_DATA_HOME", filepath.Join(".local", "share")); err != nil {
		return "", "", err
	}
	if config, err = pick("XDG_CONFIG_HOME", ".config"); err != nil {
		return "", "", err
	}
	return data, config, nil
}

// EntryPath is where the desktop entry goes.
func (x XDG) EntryPath() string { return filepath.Join(x.DataHome, "applications", EntryID) }

// IconPath is where the icon of size goes in the hicolor theme.
func (x XDG) IconPath(size int) string {
	dim := strconv.Itoa(size)
	return filepath.Join(x.DataHome, "icons", "hicolor", dim+"x"+dim, "apps", IconName+".png")
}

// Install writes the entry and the icons and makes the entry the default
// handler of vimp:// links. registered is false when xdg-mime is not
// installed (the entry still declares the scheme; desktops that read
// MimeType= pick it up).
func (x XDG) Install(ctx context.Context) (registered bool, err error) {
	if !filepath.IsAbs(x.Exec) {
		return false, fmt.Errorf("desktop: program path %q is not absolute", x.Exec)
	}
	files := map[string][]byte{x.EntryPath(): []byte(Entry(x.Exec))}
	for _, s := range IconSizes {
		b, err := x.Icon(s)
		if err != nil {
			return false, fmt.Errorf("desktop: icon: %w", err)
		}
		files[x.IconPath(s)] = b
	}
	for path, b := range files {
		if err := writeFile(path, b); err != nil {
			return false, err
		}
	}
	// The desktop database is a cache; without the tool the entry is still read.
	_ = x.run(ctx, "update-desktop-database", filepath.Dir(x.EntryPath()))
	err = x.run(ctx, "xdg-mime", "default", EntryID, MimeType)
	if errors.Is(err, exec.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("desktop: xdg-mime default %s %s: %w", EntryID, MimeType, err)
	}
	return true, nil
}

// Uninstall removes what Install wrote and the scheme's association with
// the entry in mimeapps.list (xdg-mime has no command to undo a default).
// Files already gone are no error.
func (x XDG) Uninstall(ctx context.Context) error {
	paths := []string{x.EntryPath()}
	for _, s := range IconSizes {
		paths = append(paths, x.IconPath(s))
	}
	var errs []error
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("desktop: %w", err))
		}
	}
	if x.ConfigHome != "" {
		if err := forgetDefault(filepath.Join(x.ConfigHome, "mimeapps.list")); err != nil {
			errs = append(errs, err)
		}
	}
	_ = x.run(ctx, "update-desktop-database", filepath.Dir(x.EntryPath()))
	return errors.Join(errs...)
}

func (x XDG) run(ctx context.Context, name string, args ...string) error {
	if x.Run != nil {
		return x.Run(ctx, name, args...)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return err
	}
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(out))
	}
	return nil
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("desktop: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("desktop: %w", err)
	}
	return nil
}

// forgetDefault drops the entry from the scheme's line of a mimeapps.list
// ("x-scheme-handler/vimp=a.desktop;vimpclient.desktop;"), the line itself
// when nothing else is left; other lines are kept as they are.
func forgetDefault(path string) error {
	b, err := localfile.Read(path, localfile.StoreLimit, "mimeapps.list")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("desktop: %w", err)
	}
	var out bytes.Buffer
	changed := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		key, val, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(key) == MimeType {
			var keep []string
			for _, id := range strings.Split(val, ";") {
				if id = strings.TrimSpace(id); id != "" && id != EntryID {
					keep = append(keep, id)
				}
			}
			changed = true
			if len(keep) == 0 {
				continue
			}
			line = MimeType + "=" + strings.Join(keep, ";") + ";"
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("desktop: %s: %w", path, err)
	}
	if !changed {
		return nil
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		return fmt.Errorf("desktop: %w", err)
	}
	return nil
}
