package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"vimpclient/protocol"
)

// scriptStep is one line of a -script file: at Offset after reaching
// "playing", send Action for Command.
type scriptStep struct {
	Offset  time.Duration
	Action  protocol.KeyAction
	Command string
}

// maxScriptSteps bounds a script file.
const maxScriptSteps = 100000

// parseScript reads `<offset> <down|up> <command>` lines (offset a Go
// duration such as 1.5s; # starts a comment) and returns the steps sorted by
// offset, stable for equal offsets.
func parseScript(r io.Reader) ([]scriptStep, error) {
	sc := bufio.NewScanner(r)
	var steps []scriptStep
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("script line %d: want `<offset> <down|up> <command>`, got %q", n, line)
		}
		off, err := time.ParseDuration(f[0])
		if err != nil || off < 0 {
			return nil, fmt.Errorf("script line %d: offset %q is not a non-negative duration like 1.5s", n, f[0])
		}
		act := protocol.KeyAction(f[1])
		if act != protocol.KeyDown && act != protocol.KeyUp {
			return nil, fmt.Errorf("script line %d: action %q is neither down nor up", n, f[1])
		}
		if strings.ContainsAny(f[2], ":\"\\") {
			return nil, fmt.Errorf("script line %d: command %q contains a reserved character", n, f[2])
		}
		if len(steps) >= maxScriptSteps {
			return nil, fmt.Errorf("script: more than %d steps", maxScriptSteps)
		}
		steps = append(steps, scriptStep{Offset: off, Action: act, Command: f[2]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	for i := 1; i < len(steps); i++ { // insertion sort keeps equal offsets in file order
		for j := i; j > 0 && steps[j].Offset < steps[j-1].Offset; j-- {
			steps[j], steps[j-1] = steps[j-1], steps[j]
		}
	}
	return steps, nil
}
