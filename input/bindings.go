package input

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vimpclient/internal/localfile"
)

// Binding maps a host command name to the DOM key codes the user wants for it.
type Binding map[string][]int

// Limits that keep a hostile or broken bindings file from growing without bound.
const (
	maxBindingsFile   = 64 << 10
	maxBindingGames   = 64
	maxBindingsPerSet = 256
	maxKeysPerCommand = 8
	maxBindingErrors  = 8 // lines reported; more bad lines are skipped all the same
)

// ErrBindings wraps every syntax error of a bindings file.
var ErrBindings = errors.New("key bindings")

// BindingsPath is where the user's key bindings live.
func BindingsPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("key bindings: %w", err)
	}
	return filepath.Join(dir, "vimpclient", "keys.conf"), nil
}

// LoadBindings reads the bindings for gameID from the file at path. A missing
// file means no bindings and no error. A file with lines that cannot be
// read gives the bindings of the lines that can, with the error.
func LoadBindings(path, gameID string) (Binding, error) {
	data, err := localfile.ReadStore(path, maxBindingsFile, "key bindings file")
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("key bindings: %w", err)
	}
	all, err := ParseBindings(data)
	if err != nil {
		return all[gameID], fmt.Errorf("%s: %w", path, err)
	}
	return all[gameID], nil
}

// ParseBindings parses a bindings file:
//
//	# comment
//	[tanks]
//	fire = Space J
//	forward = W, Up
//
// A section names a game id; each line binds a host command to one or more
// keys (names from KeyNames, or a DOM key code written as #87). Lines outside
// any section are an error, so a forgotten header never binds the wrong game.
//
// A line that cannot be read is an error, but not the end of the file: the
// bindings of every line that can be read are returned with the error (the
// lines under a bad section header are skipped with it), so a store that
// meets one bad line keeps the others.
func ParseBindings(data []byte) (map[string]Binding, error) {
	if len(data) > maxBindingsFile {
		return nil, fmt.Errorf("%w: file larger than %d bytes", ErrBindings, maxBindingsFile)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: not UTF-8", ErrBindings)
	}
	out := map[string]Binding{}
	var errs []error
	bad := func(ln int, format string, a ...any) {
		if len(errs) < maxBindingErrors {
			errs = append(errs, fmt.Errorf("%w: line %d: %s", ErrBindings, ln, fmt.Sprintf(format, a...)))
		}
	}
	var cur Binding
	skipping := false // under a section header that could not be read
	for n, line := range strings.Split(string(data), "\n") {
		ln := n + 1
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			cur, skipping = nil, true
			if !strings.HasSuffix(line, "]") {
				bad(ln, "unclosed section")
				continue
			}
			game := strings.TrimSpace(line[1 : len(line)-1])
			if game == "" || strings.ContainsAny(game, "[]= \t") {
				bad(ln, "bad game id %q", game)
				continue
			}
			if out[game] == nil {
				if len(out) >= maxBindingGames {
					bad(ln, "more than %d games", maxBindingGames)
					continue
				}
				out[game] = Binding{}
			}
			cur, skipping = out[game], false
			continue
		}
		if cur == nil {
			if !skipping {
				bad(ln, "binding before any [game] section")
			}
			continue
		}
		cmd, keys, ok := strings.Cut(line, "=")
		cmd = strings.TrimSpace(cmd)
		if !ok || cmd == "" || strings.ContainsAny(cmd, " \t:") {
			bad(ln, "want 'command = key ...'")
			continue
		}
		fields := strings.FieldsFunc(keys, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(fields) == 0 {
			bad(ln, "%s has no key", cmd)
			continue
		}
		if len(fields) > maxKeysPerCommand {
			bad(ln, "more than %d keys", maxKeysPerCommand)
			continue
		}
		if _, dup := cur[cmd]; !dup && len(cur) >= maxBindingsPerSet {
			bad(ln, "more than %d commands", maxBindingsPerSet)
			continue
		}
		codes := make([]int, 0, len(fields))
		for _, f := range fields {
			code, err := KeyCodeByName(f)
			if err != nil {
				bad(ln, "%v", err)
				codes = nil
				break
			}
			codes = append(codes, code)
		}
		if codes != nil {
			cur[cmd] = codes
		}
	}
	return out, errors.Join(errs...)
}

// KeyCodeByName resolves a key name ("J", "Space", "Up", "F5", "Numpad4",
// "#87") to its DOM key code.
func KeyCodeByName(name string) (int, error) {
	if strings.HasPrefix(name, "#") {
		n, err := strconv.Atoi(name[1:])
		if err != nil || n <= 0 || n > 255 {
			return 0, fmt.Errorf("bad key code %q", name)
		}
		return n, nil
	}
	if len(name) == 1 {
		c := name[0]
		switch {
		case c >= 'a' && c <= 'z':
			return int(c - 'a' + 'A'), nil
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			return int(c), nil
		}
	}
	for code, n := range keyNames {
		if strings.EqualFold(n, name) {
			return code, nil
		}
	}
	return 0, fmt.Errorf("unknown key %q", name)
}

// KeyName is the name the bindings file and the settings overlay give DOM
// key code code: a letter or digit, a name from KeyNames, else "#code".
func KeyName(code int) string {
	switch {
	case code >= 'A' && code <= 'Z', code >= '0' && code <= '9':
		return string(rune(code))
	}
	if n, ok := keyNames[code]; ok {
		return n
	}
	return "#" + strconv.Itoa(code)
}

// FormatBindings writes bindings in the format ParseBindings reads: games
// and their commands in name order, each command's keys in the order given.
// A game id or command name the format cannot hold (spaces, '=', ':', a
// leading '#', ';' or '['), or a key code out of 1..255, is an error.
func FormatBindings(all map[string]Binding) ([]byte, error) {
	var b strings.Builder
	b.WriteString("# vimpclient key bindings: [game id], then command = keys (names or #code)\n")
	for _, game := range slices.Sorted(maps.Keys(all)) {
		if game == "" || strings.TrimSpace(game) != game || strings.ContainsAny(game, "[]= \t\n") {
			return nil, fmt.Errorf("%w: game id %q cannot be written", ErrBindings, game)
		}
		cmds := all[game]
		if len(cmds) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n[%s]\n", game)
		for _, cmd := range slices.Sorted(maps.Keys(cmds)) {
			if cmd == "" || strings.TrimSpace(cmd) != cmd || strings.ContainsAny(cmd, " \t\n:=") || strings.ContainsAny(cmd[:1], "#;[") {
				return nil, fmt.Errorf("%w: command %q cannot be written", ErrBindings, cmd)
			}
			codes := cmds[cmd]
			if len(codes) == 0 || len(codes) > maxKeysPerCommand {
				return nil, fmt.Errorf("%w: %s has %d keys", ErrBindings, cmd, len(codes))
			}
			b.WriteString(cmd + " =")
			for _, c := range codes {
				if c <= 0 || c > 255 {
					return nil, fmt.Errorf("%w: %s: key code %d", ErrBindings, cmd, c)
				}
				b.WriteString(" " + KeyName(c))
			}
			b.WriteByte('\n')
		}
	}
	return []byte(b.String()), nil
}

// SaveBindings replaces the bindings of gameID in the file at path (the
// other games' sections are kept; comments are not) and writes it
// atomically. An empty b removes the game's section. A file that could not
// be read in full is set aside as keys.conf.bad-TIME first, keeping the
// bindings of every line that could be read; when it cannot be set aside,
// nothing is written.
func SaveBindings(path, gameID string, b Binding) error {
	all := map[string]Binding{}
	damaged := false
	data, err := localfile.ReadStore(path, maxBindingsFile, "key bindings file")
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		damaged = true
	default:
		var perr error
		all, perr = ParseBindings(data)
		damaged = perr != nil
		if all == nil {
			all = map[string]Binding{}
		}
	}
	if len(b) == 0 {
		delete(all, gameID)
	} else {
		all[gameID] = b
	}
	out, err := FormatBindings(all)
	if err != nil {
		return err
	}
	if _, err := localfile.Replace(path, out, 0o600, damaged, time.Now()); err != nil {
		return fmt.Errorf("key bindings: %w", err)
	}
	return nil
}

// KeyNames returns the names of the DOM key codes that are not a single
// letter or digit, as the bindings file spells them.
func KeyNames() map[int]string {
	out := make(map[int]string, len(keyNames))
	for k, v := range keyNames {
		out[k] = v
	}
	return out
}

// keyNames is read-only.
var keyNames = map[int]string{
	MouseLeft: "MouseLeft", MouseRight: "MouseRight", MouseMiddle: "MouseMiddle",
	8: "Backspace", 9: "Tab", 13: "Enter", 16: "Shift", 17: "Ctrl", 18: "Alt",
	27: "Escape", 32: "Space", 33: "PageUp", 34: "PageDown", 35: "End", 36: "Home",
	37: "Left", 38: "Up", 39: "Right", 40: "Down", 45: "Insert", 46: "Delete",
	96: "Numpad0", 97: "Numpad1", 98: "Numpad2", 99: "Numpad3", 100: "Numpad4",
	101: "Numpad5", 102: "Numpad6", 103: "Numpad7", 104: "Numpad8", 105: "Numpad9",
	106: "NumpadMultiply", 107: "NumpadAdd", 109: "NumpadSubtract", 110: "NumpadDecimal",
	111: "NumpadDivide",
	112: "F1", 113: "F2", 114: "F3", 115: "F4", 116: "F5", 117: "F6", 118: "F7",
	119: "F8", 120: "F9", 121: "F10", 122: "F11", 123: "F12",
	186: "Semicolon", 187: "Equal", 188: "Comma", 189: "Minus", 190: "Period",
	191: "Slash", 192: "Backquote", 219: "BracketLeft", 220: "Backslash",
	221: "BracketRight", 222: "Quote",
}
