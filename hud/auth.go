package hud

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"vimpclient/hud/plaintext"
	"vimpclient/protocol"
)

// Store keeps remembered form values per host and game id, under each
// param's storage name (session.AuthStore satisfies it).
type Store interface {
	Load(host, gameID string) map[string]string
	Save(host, gameID string, values map[string]string) error
}

// Bounds for a hostile AUTH_DATA.
const (
	maxAuthFields  = 32
	maxAuthChoices = 64
	maxAuthInput   = 256
)

// AuthField is one form control.
type AuthField struct {
	Name    string
	Control string // text, select, checkbox, radio; "" when the form shows nothing
	Label   string
	Value   string // text, select and radio
	Checked bool   // checkbox
	Choices []string
	// ChoiceLabels is what each choice shows (a {value, label} option's
	// label, else the value).
	ChoiceLabels []string
	Hidden       bool
	Error        string // AUTH_RESULT or validation error shown on the field
	// Numeric is a text field holding a number (Value is the number as the
	// player edits it, in seconds when Unit is "s"), within Min and Max
	// when HasMin and HasMax.
	Numeric        bool
	Unit           string
	Min, Max       float64
	HasMin, HasMax bool
	def            float64 // the host's value, in the unit edited
	hostValue      string
	opts           protocol.AuthOptions
	pattern        *regexp.Regexp
}

// ValueLabel is what a select or radio shows for its value: the chosen
// option's label (the value itself for a text field or an unknown value).
func (fd *AuthField) ValueLabel() string {
	if i := indexOf(fd.Choices, fd.Value); i >= 0 && i < len(fd.ChoiceLabels) {
		return fd.ChoiceLabels[i]
	}
	return fd.Value
}

// Visible reports whether the field has a row in the form.
func (f *AuthField) Visible() bool { return f.Control != "" && !f.Hidden }

// AuthLine is one help line of a section: keys in bold, then the text.
type AuthLine struct {
	Keys, Text string
	Separator  bool
	Last       bool
}

// AuthSection is one help block under the Start button.
type AuthSection struct {
	Heading string
	Lines   []AuthLine
}

// AuthForm is the per-room login form the host asks for on AUTH_DATA.
type AuthForm struct {
	Title    string
	Sections []AuthSection
	Fields   []AuthField
	Errors   []string // the error area, one line per item
	Focus    int      // index into Focusables(); len(Focusables()) is Start
	Done     bool     // accepted by the host
	sent     bool
	host     string
	game     string
	store    Store
	values   map[string]string // last submitted
	// errorLines is the error area as last wrapped to the card's width
	// (WrapErrors), from the Errors copied in wrappedFrom.
	errorLines  []string
	wrappedFrom []string
}

// ErrorWrapper splits an error line into lines no wider than maxW logical
// px, in the font the error area is drawn in.
type ErrorWrapper interface {
	WrapAuthError(line string, maxW float64) []string
}

// WrapErrors wraps the error area to the card's width in a w-wide window,
// so a long line (a rejection with the host's rule) is read whole; the
// layout then gives each wrapped line a row. Results of wrap are not kept
// past the next call and must stay unmodified.
func (f *AuthForm) WrapErrors(wrap ErrorWrapper, w float64) {
	inner := authCardW(w) - 2*AuthPad
	f.errorLines = f.errorLines[:0]
	for _, e := range f.Errors {
		f.errorLines = append(f.errorLines, wrap.WrapAuthError(e, inner)...)
	}
	f.wrappedFrom = append(f.wrappedFrom[:0], f.Errors...)
}

// ErrorLines are the error area's lines: as last wrapped, or one per error
// when the errors changed since (or were never wrapped).
func (f *AuthForm) ErrorLines() []string {
	if len(f.wrappedFrom) != len(f.Errors) {
		return f.Errors
	}
	for i, e := range f.Errors {
		if f.wrappedFrom[i] != e {
			return f.Errors
		}
	}
	return f.errorLines
}

// NewAuthForm builds the form from AUTH_DATA, filling remembered values for
// host and game from store (nil: nothing remembered).
func NewAuthForm(a *protocol.AuthForm, host, game string, store Store) *AuthForm {
	f := &AuthForm{Title: cleanText(a.Title), host: host, game: game, store: store}
	var remembered map[string]string
	if store != nil {
		remembered = store.Load(host, game)
	}
	for i, p := range a.Params {
		if i >= maxAuthFields {
			break
		}
		fd := AuthField{Name: p.Name, Value: p.Value, Hidden: p.Options.Hidden, opts: p.Options, hostValue: p.Value}
		if s := p.Options.Storage; s != "" && remembered[s] != "" {
			fd.Value = remembered[s]
		}
		switch p.Options.Control {
		case "text", "select", "checkbox", "radio":
			fd.Control = p.Options.Control
		}
		fd.Label = cleanText(p.Options.Label)
		if fd.Label == "" {
			fd.Label = p.Name
		}
		if fd.Control == "text" && p.Options.Numeric {
			fd.setupNumeric()
		} else if p.Options.Unit == "s" {
			fd.Label += " (s)"
		}
		for j, c := range p.Options.Choices {
			if j >= maxAuthChoices {
				break
			}
			label := c
			if j < len(p.Options.ChoiceLabels) {
				label = p.Options.ChoiceLabels[j]
			}
			fd.Choices = append(fd.Choices, cleanText(c))
			fd.ChoiceLabels = append(fd.ChoiceLabels, cleanText(label))
		}
		if fd.Control == "select" && !contains(fd.Choices, fd.Value) {
			fd.Value = ""
		}
		if fd.Control == "checkbox" {
			fd.Checked = fd.Value == "true"
		}
		if p.Options.RegExp != "" {
			// HTML pattern semantics: the whole value must match. A pattern
			// Go cannot compile is ignored, as a browser ignores an invalid one.
			fd.pattern, _ = regexp.Compile("^(?:" + p.Options.RegExp + ")$")
		}
		f.Fields = append(f.Fields, fd)
	}
	f.Sections = parseSections(a.Texts)
	f.Focus = 0
	if len(f.Focusables()) == 0 {
		f.Focus = 0 // Start
	}
	return f
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func parseSections(texts json.RawMessage) []AuthSection {
	var t struct {
		Sections []struct {
			Heading json.RawMessage `json:"heading"`
			Lines   []struct {
				Keys      json.RawMessage `json:"keys"`
				Text      json.RawMessage `json:"text"`
				Separator bool            `json:"separator"`
				Last      bool            `json:"last"`
			} `json:"lines"`
		} `json:"sections"`
	}
	if len(texts) == 0 || json.Unmarshal(texts, &t) != nil {
		return nil
	}
	var out []AuthSection
	for i, s := range t.Sections {
		if i >= 16 {
			break
		}
		sec := AuthSection{Heading: cleanText(protocol.ParseScalarText(s.Heading))}
		for j, l := range s.Lines {
			if j >= 64 {
				break
			}
			sec.Lines = append(sec.Lines, AuthLine{
				Keys: cleanText(protocol.ParseScalarText(l.Keys)), Text: cleanText(protocol.ParseScalarText(l.Text)),
				Separator: l.Separator, Last: l.Last,
			})
		}
		out = append(out, sec)
	}
	return out
}

// Focusables are the indices of the visible fields, in order.
func (f *AuthForm) Focusables() []int {
	var out []int
	for i := range f.Fields {
		if f.Fields[i].Visible() {
			out = append(out, i)
		}
	}
	return out
}

// FocusedField is the focused field, nil when Start is focused.
func (f *AuthForm) FocusedField() *AuthField {
	fs := f.Focusables()
	if f.Focus >= 0 && f.Focus < len(fs) {
		return &f.Fields[fs[f.Focus]]
	}
	return nil
}

// StartFocused reports whether the Start button has the focus.
func (f *AuthForm) StartFocused() bool { return f.FocusedField() == nil }

// Next moves the focus forward (Tab, Down); Prev backward.
func (f *AuthForm) Next() { f.Focus = (f.Focus + 1) % (len(f.Focusables()) + 1) }

// Prev moves the focus backward.
func (f *AuthForm) Prev() {
	n := len(f.Focusables()) + 1
	f.Focus = (f.Focus - 1 + n) % n
}

// changed clears the error area, as any change of a field does.
func (f *AuthForm) changed() { f.Errors = nil }

// Type enters characters into the focused text field.
func (f *AuthForm) Type(rs []rune) {
	fd := f.FocusedField()
	if fd == nil || fd.Control != "text" || f.sent {
		return
	}
	cur := []rune(fd.Value)
	limit := maxAuthInput
	if fd.opts.MaxLength > 0 && fd.opts.MaxLength < limit {
		limit = fd.opts.MaxLength
	}
	for _, r := range rs {
		if len(cur) >= limit {
			break
		}
		if plaintext.IsControl(r) || fd.Numeric && !strings.ContainsRune(numericChars, r) {
			continue
		}
		cur = append(cur, r)
	}
	if string(cur) != fd.Value {
		fd.Value = string(cur)
		f.changed()
	}
}

// Backspace deletes the last character of the focused text field.
func (f *AuthForm) Backspace() {
	fd := f.FocusedField()
	if fd == nil || fd.Control != "text" || fd.Value == "" {
		return
	}
	r := []rune(fd.Value)
	fd.Value = string(r[:len(r)-1])
	f.changed()
}

// DeleteWord deletes the last word of the focused text field
// (Ctrl+Backspace).
func (f *AuthForm) DeleteWord() {
	fd := f.FocusedField()
	if fd == nil || fd.Control != "text" || fd.Value == "" || f.sent {
		return
	}
	fd.Value = plaintext.WithoutLastWord(fd.Value)
	f.changed()
}

// Clear empties the focused text field (Ctrl+A: the field is taken as a
// whole, to be typed again).
func (f *AuthForm) Clear() {
	fd := f.FocusedField()
	if fd == nil || fd.Control != "text" || fd.Value == "" || f.sent {
		return
	}
	fd.Value = ""
	f.changed()
}

// Step changes the focused select or radio choice by delta, steps a
// numeric field's number by delta, or toggles a checkbox (Left/Right,
// PageUp/PageDown, Space).
func (f *AuthForm) Step(delta int) {
	fd := f.FocusedField()
	if fd == nil || f.sent {
		return
	}
	switch fd.Control {
	case "text":
		if fd.Numeric && delta != 0 {
			fd.stepNumber(float64(delta))
			f.changed()
		}
	case "checkbox":
		fd.Checked = !fd.Checked
		f.changed()
	case "select", "radio":
		if len(fd.Choices) == 0 {
			return
		}
		i := indexOf(fd.Choices, fd.Value)
		if i < 0 {
			i = 0
			if delta < 0 {
				i = len(fd.Choices) - 1
			}
		} else {
			i = (i + delta%len(fd.Choices) + len(fd.Choices)) % len(fd.Choices)
		}
		fd.Value = fd.Choices[i]
		f.changed()
	}
}

// Choose sets the focused field's choice i (a click on a radio option).
func (f *AuthForm) Choose(field, choice int) {
	if field < 0 || field >= len(f.Fields) {
		return
	}
	fd := &f.Fields[field]
	if choice >= 0 && choice < len(fd.Choices) {
		fd.Value = fd.Choices[choice]
		f.changed()
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// FocusField focuses field index i (a click on its row).
func (f *AuthForm) FocusField(i int) {
	for k, idx := range f.Focusables() {
		if idx == i {
			f.Focus = k
		}
	}
}

var validName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_\s#]{0,13}[A-Za-z0-9_]$`)

// Submit checks the form and returns the AUTH_RESPONSE to send; nil when a
// check failed (the errors are shown) or an answer is already outstanding.
func (f *AuthForm) Submit() []byte {
	if f.sent || f.Done {
		return nil
	}
	for i := range f.Fields {
		f.Fields[i].Error = ""
	}
	// 1. Constraints of the visible controls, first failure only, in the
	// engine's words.
	for i := range f.Fields {
		fd := &f.Fields[i]
		if !fd.Visible() || fd.Control == "checkbox" {
			continue
		}
		if fd.Numeric {
			if msg := fd.checkNumber(); msg != "" {
				f.fail(fd, msg)
				return nil
			}
		} else if fd.opts.Required && fd.Value == "" {
			f.fail(fd, "required")
			return nil
		}
		if fd.Value != "" && fd.pattern != nil && !fd.pattern.MatchString(strings.TrimSpace(fd.Value)) {
			f.fail(fd, "invalid format")
			return nil
		}
	}
	// 2. Client validation over every param.
	values := make(map[string]string, len(f.Fields))
	var errs []string
	for i := range f.Fields {
		fd := &f.Fields[i]
		if fd.Control == "checkbox" {
			fd.Error = "Property must be a string"
			errs = append(errs, fd.rejection(fd.Error))
			continue
		}
		if fd.opts.Validator == "isValidName" && !validName.MatchString(fd.Value) {
			fd.Error = "not valid"
			errs = append(errs, fd.rejection(fd.Error))
		}
		values[fd.Name] = fd.Value
		if fd.Numeric {
			values[fd.Name] = fd.stored()
		}
	}
	if len(errs) > 0 {
		f.Errors = errs
		return nil
	}
	msg, err := protocol.AuthResponseMsg(values)
	if err != nil {
		f.Errors = []string{err.Error()}
		return nil
	}
	f.sent = true
	f.values = values
	return msg
}

func (f *AuthForm) fail(fd *AuthField, text string) {
	fd.Error = text
	f.Errors = []string{fd.Label + ": " + text}
}

// Result applies AUTH_RESULT. On success the stored values are saved and the
// form is done; on a rejection each error is shown on its field and the
// form can be submitted again.
func (f *AuthForm) Result(v protocol.AuthVerdict) error {
	f.sent = false
	if v.OK {
		f.Done = true
		if f.store == nil {
			return nil
		}
		save := map[string]string{}
		for _, fd := range f.Fields {
			if s := fd.opts.Storage; s != "" {
				save[s] = f.values[fd.Name]
			}
		}
		if len(save) == 0 {
			return nil
		}
		if err := f.store.Save(f.host, f.game, save); err != nil {
			return fmt.Errorf("remember auth values: %w", err)
		}
		return nil
	}
	f.Errors = nil
	for _, e := range v.Errors {
		why := cleanText(e.Error)
		if why == "" {
			why = "not correct"
		}
		text := strings.ToUpper(cleanText(e.Name)) + ": " + why
		for i := range f.Fields {
			if fd := &f.Fields[i]; fd.Name == e.Name {
				fd.Error = why
				text = fd.rejection(why)
			}
		}
		f.Errors = append(f.Errors, text)
	}
	return nil
}

// rejection is the form's line for a rejected field: its label, why, and
// the rule its descriptor gives (the engine's name rule, the length limit),
// so the player learns what the host accepts.
func (fd *AuthField) rejection(why string) string {
	label := fd.Label
	if label == "" {
		label = fd.Name
	}
	line := label + ": " + why
	if rule := fd.rule(); rule != "" {
		line += " — " + rule
	}
	return line
}

// rule says in words what the field's descriptor asks of a value.
func (fd *AuthField) rule() string {
	var parts []string
	if fd.opts.Validator == "isValidName" {
		parts = append(parts, "2–15 letters, digits, _, # or spaces; a letter first, no space or # last")
	} else if fd.opts.MaxLength > 0 {
		parts = append(parts, fmt.Sprintf("at most %d characters", fd.opts.MaxLength))
	}
	if fd.pattern != nil && fd.opts.Validator == "" {
		parts = append(parts, "in the host's format")
	}
	return strings.Join(parts, "; ")
}

// fill puts the values an answer sent into the text, select and radio
// fields they name (a select keeps its value when the sent one is not a
// choice, a number field its own), so a rejected answer is shown as it was
// sent.
func (f *AuthForm) fill(sent map[string]string) {
	for i := range f.Fields {
		fd := &f.Fields[i]
		v, ok := sent[fd.Name]
		if !ok {
			continue
		}
		switch fd.Control {
		case "text":
			if !fd.Numeric { // a number is sent in the host's unit, not the one edited
				fd.Value = v
			}
		case "radio":
			fd.Value = v
		case "select":
			if contains(fd.Choices, v) {
				fd.Value = v
			}
		}
	}
}

// Submitted is a copy of the values of the last Submit.
func (f *AuthForm) Submitted() map[string]string {
	out := make(map[string]string, len(f.values))
	for k, v := range f.values {
		out[k] = v
	}
	return out
}

// Sent reports whether an answer is outstanding.
func (f *AuthForm) Sent() bool { return f.sent }

// Key handles a navigation key on the form, by DOM key code: Tab (Shift+Tab
// backward), Up/Down move the focus, Left/Right change a select or radio
// choice or step a number (PageUp/PageDown by ten), Space toggles a
// checkbox, Backspace edits, Enter submits (the result is true when the
// caller should call Submit).
func (f *AuthForm) Key(code int, shift bool) (submit bool) {
	switch code {
	case 9:
		if shift {
			f.Prev()
		} else {
			f.Next()
		}
	case 40:
		f.Next()
	case 38:
		f.Prev()
	case 37:
		f.Step(-1)
	case 39:
		f.Step(1)
	case 33, 34:
		if fd := f.FocusedField(); fd != nil && fd.Numeric {
			step := 10
			if code == 34 {
				step = -10
			}
			f.Step(step)
		}
	case 32:
		if fd := f.FocusedField(); fd != nil && fd.Control == "checkbox" {
			f.Step(0)
		}
	case 8:
		f.Backspace()
	case 13:
		return true
	}
	return false
}
