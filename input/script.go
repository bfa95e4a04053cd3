package input

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"vimpclient/protocol"
)

// ScriptStep is one line of a key script: at Offset after the session
// reached play, send Action for Command.
type ScriptStep struct {
	Offset  time.Duration
	Action  protocol.KeyAction
	Command string
	Line    int // line number in the script file, for messages
}

// maxScriptSteps bounds a script file.
const maxScriptSteps = 100000

// ParseScript reads `<offset> <down|up> <command>` lines (offset a Go
// duration such as 1.5s; # starts a comment) and returns the steps sorted by
// offset, stable for equal offsets.
func ParseScript(r io.Reader) ([]ScriptStep, error) {
	sc := bufio.NewScanner(r)
	var steps []ScriptStep
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
		steps = append(steps, ScriptStep{Offset: off, Action: act, Command: f[2], Line: n})
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

// CheckScript refuses steps whose command the game's player key set (set 1,
// the one a player plays with) does not offer, naming the first such line;
// a game with a single key set is checked against it.
func CheckScript(steps []ScriptStep, cfg Config) error {
	if len(cfg.KeySets) == 0 {
		return fmt.Errorf("script: the game declares no key sets")
	}
	set := cfg.KeySets[len(cfg.KeySets)-1]
	if len(cfg.KeySets) > 1 {
		set = cfg.KeySets[1]
	}
	for _, st := range steps {
		if !hasCommand(set, st.Command) {
			return fmt.Errorf("script line %d: the game offers no command %q (it offers %s)", st.Line, st.Command, commandList(set))
		}
	}
	return nil
}

func commandList(set map[int]string) string {
	seen := map[string]bool{}
	var names []string
	for _, n := range set {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
