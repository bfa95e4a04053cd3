package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// OpenURL shows url in the system browser.
func OpenURL(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	case "darwin":
		cmd = exec.Command("open", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no display")
		}
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// ReadClipboard reads the system clipboard's text. Ebiten has no
// clipboard, and the cgo-free libraries shell out the same way: the
// platform's own tool (pbpaste, PowerShell's Get-Clipboard, or on X11 and
// Wayland the first of wl-paste, xclip and xsel installed).
func ReadClipboard(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var tools [][]string
	switch runtime.GOOS {
	case "darwin":
		tools = [][]string{{"pbpaste"}}
	case "windows":
		tools = [][]string{{"powershell", "-NoProfile", "-Command", "Get-Clipboard"}}
	default:
		if os.Getenv("WAYLAND_DISPLAY") != "" {
			tools = append(tools, []string{"wl-paste", "-n"})
		}
		tools = append(tools, []string{"xclip", "-selection", "clipboard", "-o"}, []string{"xsel", "-b", "-o"})
	}
	var last error = errors.New("no clipboard tool found")
	for _, t := range tools {
		if _, err := exec.LookPath(t[0]); err != nil {
			continue
		}
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, t[0], t[1:]...)
		cmd.Stdout = &limitWriter{w: &out, n: 16 << 10}
		if err := cmd.Run(); err != nil {
			last = fmt.Errorf("%s: %w", t[0], err)
			continue
		}
		return strings.TrimSpace(out.String()), nil
	}
	return "", last
}

// limitWriter keeps at most n bytes and drops the rest.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	keep := min(len(p), l.n)
	l.n -= keep
	if keep > 0 {
		if _, err := l.w.Write(p[:keep]); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
