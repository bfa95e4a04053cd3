package window

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// Available reports why no window can be opened (nil when one can): on
// Linux and the BSDs a display server must be named in the environment;
// elsewhere the system always has one. The graphics library opens the
// display only when the window is run, so a program that never asks for a
// window runs without one.
func Available() error {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return ErrNoDisplay
		}
	}
	return nil
}

// WritePNG writes the screen to path as a PNG, creating its folder.
func WritePNG(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("screenshot: %w", err)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	return nil
}

// ScreenshotPath names a screenshot taken at t: a timestamped file in the
// user's pictures folder (XDG), else under the user data dir.
func ScreenshotPath(t time.Time) (string, error) {
	name := "vimp-" + t.Format("20060102-150405.000") + ".png"
	if d := os.Getenv("XDG_PICTURES_DIR"); d != "" {
		return filepath.Join(d, name), nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		if st, err := os.Stat(filepath.Join(home, "Pictures")); err == nil && st.IsDir() {
			return filepath.Join(home, "Pictures", name), nil
		}
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "vimpclient", "screenshots", name), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no home directory")
	}
	return filepath.Join(home, ".local", "share", "vimpclient", "screenshots", name), nil
}
