//go:build !unix

package localfiletest

import "errors"

// Mkfifo makes a FIFO at path: not on this system.
func Mkfifo(path string) error { return errors.New("no FIFOs on this system") }
