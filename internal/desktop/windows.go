//go:build windows

package desktop

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows/registry"
)

// schemeKey is the per-user class of the vimp scheme (no administrator
// rights needed).
const schemeKey = `Software\Classes\` + Scheme

// RegisterScheme makes exe the handler of vimp:// links for the current
// user: HKCU\Software\Classes\vimp with "URL Protocol", its icon and its
// open command `"exe" open "%1"`.
func RegisterScheme(exe string) error {
	set := func(path, name, value string) error {
		k, _, err := registry.CreateKey(registry.CURRENT_USER, path, registry.SET_VALUE)
		if err != nil {
			return fmt.Errorf("desktop: registry HKCU\\%s: %w", path, err)
		}
		defer k.Close()
		if err := k.SetStringValue(name, value); err != nil {
			return fmt.Errorf("desktop: registry HKCU\\%s %q: %w", path, name, err)
		}
		return nil
	}
	for _, v := range [][3]string{
		{schemeKey, "", "URL:vimp join link"},
		{schemeKey, "URL Protocol", ""},
		{schemeKey + `\DefaultIcon`, "", `"` + exe + `",0`},
		{schemeKey + `\shell\open\command`, "", `"` + exe + `" open "%1"`},
	} {
		if err := set(v[0], v[1], v[2]); err != nil {
			return err
		}
	}
	return nil
}

// UnregisterScheme removes the scheme's class, deepest keys first (the
// registry deletes only keys without subkeys). A missing key is no error.
func UnregisterScheme() error {
	for _, p := range []string{schemeKey + `\shell\open\command`, schemeKey + `\shell\open`, schemeKey + `\shell`,
		schemeKey + `\DefaultIcon`, schemeKey} {
		if err := registry.DeleteKey(registry.CURRENT_USER, p); err != nil && !errors.Is(err, registry.ErrNotExist) {
			return fmt.Errorf("desktop: registry HKCU\\%s: %w", p, err)
		}
	}
	return nil
}
