//go:build window

package main

import (
	"context"
	"io"
)

// launchWindow is not needed in the window build: it plays in-process.
func launchWindow(context.Context, io.Writer, io.Writer) int { return -1 }

// windowBuild reports whether this binary links the window.
const windowBuild = true
