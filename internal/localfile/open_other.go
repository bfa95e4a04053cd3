//go:build !unix

package localfile

import (
	"fmt"
	"io/fs"
	"os"
)

// openNoBlock refuses what is not a regular file before opening it: these
// systems have no non-blocking open, and their pipes and devices are not
// regular files.
func openNoBlock(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kindOf(fi.Mode()))}
	}
	return os.Open(path)
}
