package desktop

import (
	"context"
	"runtime"
)

// Register registers exe with the player's desktop, or with uninstall
// undoes it: on Linux and other freedesktop.org systems the desktop entry
// and icon (icon at each of IconSizes) under the data home and the vimp:// handler via xdg-mime;
// on Windows the vimp scheme under HKCU. A macOS app bundle declares its
// scheme itself. done says what was done, for the player; warning, when
// not "", says what could not be.
func Register(ctx context.Context, exe string, icon func(size int) ([]byte, error), uninstall bool) (done, warning string, err error) {
	switch runtime.GOOS {
	case "darwin":
		return "vimpclient.app declares vimp:// itself: move it to Applications and open it once.", "", nil
	case "windows":
		if uninstall {
			err = UnregisterScheme()
		} else {
			err = RegisterScheme(exe)
		}
		if err != nil {
			return "", "", err
		}
		return doneText(uninstall, `HKCU\Software\Classes\vimp`), "", nil
	}
	data, config, err := XDGDirs()
	if err != nil {
		return "", "", err
	}
	x := XDG{DataHome: data, ConfigHome: config, Exec: exe, Icon: icon}
	if uninstall {
		if err := x.Uninstall(ctx); err != nil {
			return "", "", err
		}
		return doneText(true, x.EntryPath()), "", nil
	}
	registered, err := x.Install(ctx)
	if err != nil {
		return "", "", err
	}
	if !registered {
		warning = "xdg-mime not found: vimp:// links open the client only where the desktop reads the entry's MimeType"
	}
	return doneText(false, x.EntryPath()), warning, nil
}

func doneText(uninstall bool, where string) string {
	if uninstall {
		return "removed: " + where
	}
	return "installed: " + where + " (vimp:// links open vimpclient)"
}
