//go:build !windows

package desktop

import (
	"errors"
	"fmt"
)

// RegisterScheme registers the vimp scheme in the Windows registry; other
// systems have no registry (see XDG, and the app bundle's Info.plist).
func RegisterScheme(string) error {
	return fmt.Errorf("desktop: the registry is Windows only: %w", errors.ErrUnsupported)
}

// UnregisterScheme is RegisterScheme's undo; Windows only.
func UnregisterScheme() error {
	return fmt.Errorf("desktop: the registry is Windows only: %w", errors.ErrUnsupported)
}
