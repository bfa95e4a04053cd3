//go:build unix

package localfiletest

import "syscall"

// Mkfifo makes a FIFO at path.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
