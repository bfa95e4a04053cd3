package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The types below are the typed forms of every server-to-client JSON port.
// Parsers are deliberately tolerant where hosts differ (scalars of any type in
// stat cells, opaque game JSON in FIRST_SHOT and MAP_DATA, unknown keys
// everywhere) and strict only where a wrong shape would make the payload
// meaningless; a strict failure is returned as an error for the caller to
// count and ignore.

// ErrPayload wraps every payload shape error.
var ErrPayload = errors.New("malformed payload")

func payloadErr(port int, format string, args ...any) error {
	return fmt.Errorf("%w on port %d: %s", ErrPayload, port, fmt.Sprintf(format, args...))
}

// Config is CONFIG_DATA (port 0). Raw keeps the whole object for consumers
// that need keys not typed here; sub-objects that fail to parse are left zero
// and listed in Problems instead of failing the whole message.
type Config struct {
	Raw            json.RawMessage
	Interpolation  Interpolation
	TechInformList []string
	GameInformList []string
	KeySets        []map[string]string // modules.controls.keySetList, keyCode -> command
	Modes          map[string]string   // modules.controls.modes
	Cmds           map[string]string   // modules.controls.cmds
	Pointer        json.RawMessage     // modules.controls.pointer, nil when absent
	VoteTemplates  map[string]VoteTemplate
	// ChatMessages are the game's texts of the chat codes by group; a nil
	// entry (null, or not a string) leaves the code to the client's own
	// text, an empty one silences it.
	ChatMessages map[string][]*string
	// InitIDs is initIdList: the elements revealed once the form is
	// accepted.
	InitIDs []string
	// FixSizes are the fixSize texts of modules.canvasManager's canvases
	// ("W" or "W:H"), the ones that have one.
	FixSizes []string
	// Chat, Panel, Stat and Vote are the overlays' modules, typed once.
	Chat          ChatModule
	Panel         PanelModule
	Stat          StatModule
	Vote          VoteModule
	Snapshot      json.RawMessage // the snapshot schema keys object
	Prediction    json.RawMessage
	Parts         json.RawMessage // the game's parts: renderers, canvases, sounds
	CanvasManager json.RawMessage // modules.canvasManager: canvases and camera
	Problems      []string
}

// ChatModule is modules.chat.params: the lines kept on screen, how long
// each stays (ms), and the history's bounds.
type ChatModule struct {
	ListLimit, LineTime, CacheMin, CacheMax float64
}

// PanelModule is modules.panel: its keys and fields.
type PanelModule struct {
	Keys   map[string]string `json:"keys"`
	Fields []PanelField      `json:"fields"`
}

// PanelField is one modules.panel.fields entry.
type PanelField struct {
	Name   string  `json:"name"`
	Elem   string  `json:"elem"`
	Type   string  `json:"type"` // bar, value, time, weapon
	Max    float64 `json:"max"`
	Blocks int     `json:"blocks"`
}

// StatModule is modules.stat.params: the scoreboard's columns, table heads
// and bodies by team, sort orders, and the leaderboard's mode, period and
// limit (scalars any JSON type may carry).
type StatModule struct {
	Columns  []string                        `json:"columns"`
	Heads    map[string]string               `json:"heads"`
	Bodies   map[string]string               `json:"bodies"`
	SortList map[string][][2]json.RawMessage `json:"sortList"`
	Mode     json.RawMessage                 `json:"mode"`
	Period   json.RawMessage                 `json:"period"`
	Limit    json.RawMessage                 `json:"limit"`
}

// VoteModule is modules.vote.params' menu and vote time (ms); the
// templates are Config.VoteTemplates.
type VoteModule struct {
	Menu []json.RawMessage `json:"menu"`
	Time float64           `json:"time"`
}

// Interpolation is CONFIG_DATA.interpolation in milliseconds.
type Interpolation struct {
	Delay       float64 `json:"delay"`
	MaxFrameAge float64 `json:"maxFrameAge"`
}

// VoteTemplate is one modules.vote.params.templates entry: [title, values?, timeOff?].
// Values is a JSON string ("teams", "maps": ask the host for the list) or an array.
type VoteTemplate struct {
	Title   string
	Values  json.RawMessage
	TimeOff bool
}

// ListRequest returns the request string a vote's values stand for ("teams",
// "maps") when values is a JSON string, else "".
func ListRequest(values json.RawMessage) string {
	var s string
	if len(values) > 0 && values[0] == '"' && json.Unmarshal(values, &s) == nil {
		return s
	}
	return ""
}

// ParseConfig decodes CONFIG_DATA.
func ParseConfig(raw json.RawMessage) (*Config, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return nil, payloadErr(ConfigData, "not an object")
	}
	c := &Config{Raw: raw}
	soft := func(what string, src json.RawMessage, dst any) {
		if len(src) == 0 || IsNull(src) {
			return
		}
		if err := json.Unmarshal(src, dst); err != nil {
			c.Problems = append(c.Problems, what+": "+err.Error())
		}
	}
	soft("interpolation", top["interpolation"], &c.Interpolation)
	soft("techInformList", top["techInformList"], &c.TechInformList)
	var gi struct {
		List []string `json:"list"`
	}
	soft("gameInform", top["gameInform"], &gi)
	c.GameInformList = gi.List
	c.Snapshot = top["snapshot"]
	c.Prediction = top["prediction"]
	c.Parts = top["parts"]
	var modules struct {
		Controls struct {
			KeySetList []map[string]string `json:"keySetList"`
			Modes      map[string]string   `json:"modes"`
			Cmds       map[string]string   `json:"cmds"`
			Pointer    json.RawMessage     `json:"pointer"`
		} `json:"controls"`
		Vote struct {
			Params struct {
				Templates map[string][]json.RawMessage `json:"templates"`
				VoteModule
			} `json:"params"`
		} `json:"vote"`
		Chat struct {
			Params struct {
				Messages map[string][]json.RawMessage `json:"messages"`
				ChatModule
			} `json:"params"`
		} `json:"chat"`
		Stat struct {
			Params StatModule `json:"params"`
		} `json:"stat"`
		CanvasManager struct {
			Canvases map[string]struct {
				FixSize json.RawMessage `json:"fixSize"`
			} `json:"canvases"`
		} `json:"canvasManager"`
	}
	var mods map[string]json.RawMessage
	soft("modules", top["modules"], &mods)
	soft("modules.controls", mods["controls"], &modules.Controls)
	soft("modules.vote", mods["vote"], &modules.Vote)
	soft("modules.chat", mods["chat"], &modules.Chat)
	soft("modules.panel", mods["panel"], &c.Panel)
	soft("modules.stat", mods["stat"], &modules.Stat)
	soft("modules.canvasManager", mods["canvasManager"], &modules.CanvasManager)
	soft("initIdList", top["initIdList"], &c.InitIDs)
	c.CanvasManager = mods["canvasManager"]
	c.Chat, c.Stat, c.Vote = modules.Chat.Params.ChatModule, modules.Stat.Params, modules.Vote.Params.VoteModule
	for _, cv := range modules.CanvasManager.Canvases {
		if t := scalarText(cv.FixSize); t != "" {
			c.FixSizes = append(c.FixSizes, t)
		}
	}
	slices.Sort(c.FixSizes) // the canvases' order in the object is lost to the map: a stable one
	c.KeySets = modules.Controls.KeySetList
	c.Modes = modules.Controls.Modes
	c.Cmds = modules.Controls.Cmds
	if !IsNull(modules.Controls.Pointer) {
		c.Pointer = modules.Controls.Pointer
	}
	c.ChatMessages = chatTexts(modules.Chat.Params.Messages)
	if len(modules.Vote.Params.Templates) > 0 {
		c.VoteTemplates = make(map[string]VoteTemplate, len(modules.Vote.Params.Templates))
		for name, parts := range modules.Vote.Params.Templates {
			var t VoteTemplate
			if len(parts) > 0 {
				t.Title = scalarText(parts[0])
			}
			if len(parts) > 1 && !IsNull(parts[1]) {
				t.Values = parts[1]
			}
			if len(parts) > 2 {
				t.TimeOff = truthy(parts[2])
			}
			c.VoteTemplates[name] = t
		}
	}
	return c, nil
}

// AuthForm is AUTH_DATA (port 1): the login form.
type AuthForm struct {
	Params []AuthParam
	Title  string          // texts.title, "" when absent
	Texts  json.RawMessage // the whole texts object, nil when absent
}

// AuthParam is one form field. Value is the host's default as a string.
type AuthParam struct {
	Name    string
	Value   string
	Options AuthOptions
}

// AuthOptions are the field options the client uses; the rest stay on the host.
type AuthOptions struct {
	Control   string `json:"control"`
	Label     string `json:"label"`
	Storage   string `json:"storage"`
	Validator string `json:"validator"`
	RegExp    string `json:"regExp"`
	Required  bool   `json:"required"`
	Hidden    bool   `json:"hidden"`
	MaxLength int    `json:"maxlength"`
	Unit      string `json:"unit"`
	// Numeric marks a text field holding a number: "numeric": true, or any
	// "unit" (with "s" the value is stored in ms and edited in seconds).
	// Min and Max bound the number as edited, when HasMin and HasMax say
	// they were given.
	Numeric        bool    `json:"-"`
	Min, Max       float64 `json:"-"`
	HasMin, HasMax bool    `json:"-"`
	// Choices are the values of a select's or radio's options, and
	// ChoiceLabels what to show for each (the label of a {value, label}
	// option, else the value itself).
	Choices      []string `json:"-"`
	ChoiceLabels []string `json:"-"`
}

// ParseAuthData decodes AUTH_DATA. A param without a string name is an error:
// the answer must carry every name, so a form with an unnamed field cannot be
// answered correctly.
func ParseAuthData(raw json.RawMessage) (*AuthForm, error) {
	var top struct {
		Params []struct {
			Name    json.RawMessage            `json:"name"`
			Value   json.RawMessage            `json:"value"`
			Options map[string]json.RawMessage `json:"options"`
		} `json:"params"`
		Texts json.RawMessage `json:"texts"`
	}
	if err := json.Unmarshal(raw, &top); err != nil || IsNull(raw) {
		return nil, payloadErr(AuthData, "not an object with a params array")
	}
	a := &AuthForm{}
	if !IsNull(top.Texts) && len(top.Texts) > 0 {
		a.Texts = top.Texts
		var t struct {
			Title json.RawMessage `json:"title"`
		}
		if json.Unmarshal(top.Texts, &t) == nil {
			a.Title = scalarText(t.Title)
		}
	}
	for i, p := range top.Params {
		var name string
		if err := json.Unmarshal(p.Name, &name); err != nil || name == "" {
			return nil, payloadErr(AuthData, "param %d has no string name", i)
		}
		ap := AuthParam{Name: name, Value: scalarText(p.Value)}
		o := &ap.Options
		o.Control = scalarText(p.Options["control"])
		o.Label = scalarText(p.Options["label"])
		o.Storage = scalarText(p.Options["storage"])
		o.Validator = scalarText(p.Options["validator"])
		o.RegExp = scalarText(p.Options["regExp"])
		o.Unit = scalarText(p.Options["unit"])
		o.Required = truthy(p.Options["required"])
		o.Hidden = truthy(p.Options["hidden"])
		if n, err := strconv.Atoi(scalarText(p.Options["maxlength"])); err == nil {
			o.MaxLength = n
		}
		unit, hasUnit := p.Options["unit"]
		o.Numeric = string(bytes.TrimSpace(p.Options["numeric"])) == "true" || hasUnit && !IsNull(unit)
		o.Min, o.HasMin = number(p.Options["min"])
		o.Max, o.HasMax = number(p.Options["max"])
		var choices []json.RawMessage
		if json.Unmarshal(p.Options["options"], &choices) == nil {
			for _, ch := range choices {
				value, label := choiceOf(ch)
				o.Choices = append(o.Choices, value)
				o.ChoiceLabels = append(o.ChoiceLabels, label)
			}
		}
		a.Params = append(a.Params, ap)
	}
	return a, nil
}

// choiceOf reads one select/radio option: an object {value, label} or a
// scalar, whose text is both value and label.
func choiceOf(raw json.RawMessage) (value, label string) {
	var obj struct {
		Value json.RawMessage `json:"value"`
		Label json.RawMessage `json:"label"`
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' && json.Unmarshal(raw, &obj) == nil {
		value = scalarText(obj.Value)
		label = scalarText(obj.Label)
		if label == "" {
			label = value
		}
		return value, label
	}
	value = scalarText(raw)
	return value, value
}

// AuthVerdict is AUTH_RESULT (port 2): OK, or the field errors.
type AuthVerdict struct {
	OK     bool
	Errors []FieldError
}

// FieldError is one rejected auth field.
type FieldError struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

func (e FieldError) String() string { return strings.ToUpper(e.Name) + ": " + e.Error }

// ParseAuthResult decodes AUTH_RESULT: null is success, an array of
// {name, error} a rejection. Entries of another shape are kept with empty text
// so that a rejection is never mistaken for success.
func ParseAuthResult(raw json.RawMessage) (AuthVerdict, error) {
	if IsNull(raw) {
		return AuthVerdict{OK: true}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return AuthVerdict{}, payloadErr(AuthResult, "neither null nor an array")
	}
	res := AuthVerdict{Errors: make([]FieldError, 0, len(items))}
	for _, it := range items {
		var fe struct {
			Name, Error json.RawMessage
		}
		_ = json.Unmarshal(it, &fe)
		res.Errors = append(res.Errors, FieldError{Name: scalarText(fe.Name), Error: scalarText(fe.Error)})
	}
	if len(res.Errors) == 0 {
		res.Errors = append(res.Errors, FieldError{Error: "rejected"})
	}
	return res, nil
}

// MapInfo is MAP_DATA (port 3). The map is game-defined and is read once,
// by the client's map model, from Raw; the protocol layer only checks that
// it is an object.
type MapInfo struct {
	Raw json.RawMessage
}

// ParseMapData checks that MAP_DATA is an object; the envelope it came in
// was already valid JSON.
func ParseMapData(raw json.RawMessage) (*MapInfo, error) {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return nil, payloadErr(MapData, "not an object")
	}
	return &MapInfo{Raw: raw}, nil
}

// FirstShot is FIRST_SHOT_DATA (port 4): [game, camera, serverTime, seq].
// Game is opaque game JSON (object, array, anything).
type FirstShot struct {
	Game       json.RawMessage
	Camera     json.RawMessage
	ServerTime float64
	Seq        float64
}

// ParseFirstShot decodes FIRST_SHOT_DATA. Whatever it returns, the session
// answers the message with exactly one FIRST_SHOT_READY.
func ParseFirstShot(raw json.RawMessage) (*FirstShot, error) {
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil || len(parts) == 0 {
		return nil, payloadErr(FirstShotData, "not a non-empty array")
	}
	fs := &FirstShot{Game: parts[0]}
	if len(parts) > 1 {
		fs.Camera = parts[1]
	}
	if len(parts) > 2 {
		fs.ServerTime, _ = strconv.ParseFloat(scalarText(parts[2]), 64)
	}
	if len(parts) > 3 {
		fs.Seq, _ = strconv.ParseFloat(scalarText(parts[3]), 64)
	}
	return fs, nil
}

// ParseSound decodes SOUND_DATA (port 6): a sound name.
func ParseSound(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || s == "" {
		return "", payloadErr(SoundData, "not a sound name")
	}
	return s, nil
}

// Inform is GAME_INFORM_DATA (port 7) and the array form of TECH_INFORM_DATA
// (port 8): a code with optional parameters rendered as text.
type Inform struct {
	Code   int
	Params []string
}

// TechInform is TECH_INFORM_DATA: Hide (null) or a code to show.
type TechInform struct {
	Hide bool
	Inform
}

// Terminal reports whether the shown code is a disconnect reason (every code
// except 2, loading).
func (t TechInform) Terminal() bool { return !t.Hide && t.Code != 2 }

// ParseGameInform decodes GAME_INFORM_DATA: [code] or [code, [params]].
func ParseGameInform(raw json.RawMessage) (Inform, error) {
	inf, ok := parseInform(raw)
	if !ok {
		return Inform{}, payloadErr(GameInformData, "not [code, params?]")
	}
	return inf, nil
}

// ParseTechInform decodes TECH_INFORM_DATA: null, [code] or [code, [params]].
func ParseTechInform(raw json.RawMessage) (TechInform, error) {
	if IsNull(raw) {
		return TechInform{Hide: true}, nil
	}
	inf, ok := parseInform(raw)
	if !ok {
		return TechInform{}, payloadErr(TechInformData, "neither null nor [code, params?]")
	}
	return TechInform{Inform: inf}, nil
}

func parseInform(raw json.RawMessage) (Inform, bool) {
	parts, ok := elements(raw, 2)
	if !ok || len(parts) == 0 {
		return Inform{}, false
	}
	code, err := strconv.Atoi(string(bytes.TrimSpace(parts[0])))
	if err != nil || code < 0 {
		return Inform{}, false
	}
	inf := Inform{Code: code}
	if len(parts) > 1 {
		if ps, ok := elements(parts[1], MaxParams); ok {
			for _, p := range ps {
				inf.Params = append(inf.Params, text(p))
			}
		}
	}
	return inf, true
}

// MiscEntry is MISC (port 9): {key, value}.
type MiscEntry struct {
	Key   string
	Value json.RawMessage
}

// MiscNameReplace is the MISC key carrying a confirmed new nick.
const MiscNameReplace = "localstorageNameReplace"

// ParseMisc decodes MISC.
func ParseMisc(raw json.RawMessage) (MiscEntry, error) {
	var m struct {
		Key   json.RawMessage `json:"key"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || IsNull(raw) {
		return MiscEntry{}, payloadErr(Misc, "not an object")
	}
	return MiscEntry{Key: scalarText(m.Key), Value: m.Value}, nil
}

// ParsePing validates a PING id: a JSON number, returned as its exact token so
// the PONG carries the same number byte for byte.
func ParsePing(raw json.RawMessage) (json.RawMessage, error) {
	tok := bytes.TrimSpace(raw)
	if len(tok) == 0 || !(tok[0] == '-' || (tok[0] >= '0' && tok[0] <= '9')) || !json.Valid(tok) {
		return nil, payloadErr(Ping, "id is not a number")
	}
	return json.RawMessage(tok), nil
}

// ClearScope is CLEAR (port 11): Full, or the set ids to clear (possibly none).
type ClearScope struct {
	Full bool
	Sets []string
}

// ParseClear decodes CLEAR.
func ParseClear(raw json.RawMessage) (ClearScope, error) {
	if IsNull(raw) {
		return ClearScope{Full: true}, nil
	}
	var ids []json.RawMessage
	if err := json.Unmarshal(raw, &ids); err != nil {
		return ClearScope{}, payloadErr(Clear, "neither null nor an array")
	}
	c := ClearScope{Sets: make([]string, 0, len(ids))}
	for _, id := range ids {
		c.Sets = append(c.Sets, scalarText(id))
	}
	return c, nil
}

// PanelCell is one PANEL_DATA entry: "key:value" sets, a bare "key" hides.
type PanelCell struct {
	Key   string
	Value string
	Set   bool
}

// ParsePanel decodes PANEL_DATA (port 13). Non-string entries are skipped.
func ParsePanel(raw json.RawMessage) ([]PanelCell, error) {
	items, ok := elements(raw, -1)
	if !ok {
		return nil, payloadErr(PanelData, "not an array")
	}
	cells := make([]PanelCell, 0, min(len(items), MaxPanelCells))
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) != nil || s == "" {
			continue
		}
		if len(cells) == MaxPanelCells {
			break
		}
		k, v, found := strings.Cut(s, ":")
		cells = append(cells, PanelCell{Key: clipOwn(k, MaxName), Value: clipOwn(v, MaxText), Set: found && v != ""})
	}
	return cells, nil
}

// ParseKeyset decodes KEYSET_DATA (port 17): a key set index.
func ParseKeyset(raw json.RawMessage) (int, error) {
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	if err != nil || n < 0 || n > 255 {
		return 0, payloadErr(KeysetData, "not a key set index")
	}
	return n, nil
}

// scalarText renders a JSON scalar as display text: strings unquoted, numbers
// and booleans as written, null and non-scalars as "".
func scalarText(raw json.RawMessage) string {
	tok := bytes.TrimSpace(raw)
	if len(tok) == 0 {
		return ""
	}
	switch tok[0] {
	case '"':
		var s string
		if json.Unmarshal(tok, &s) == nil {
			return s
		}
		return ""
	case '{', '[', 'n':
		return ""
	}
	if json.Valid(tok) {
		return string(tok)
	}
	return ""
}

// truthy follows JavaScript truthiness for JSON scalars.
func truthy(raw json.RawMessage) bool {
	tok := string(bytes.TrimSpace(raw))
	switch tok {
	case "", "null", "false", "0", `""`, "-0":
		return false
	}
	return json.Valid([]byte(tok))
}

// ParseScalarText renders a JSON scalar as text ("" for null and non-scalars).
func ParseScalarText(raw json.RawMessage) string { return scalarText(raw) }

// chatTexts reads a game's chat texts entry by entry: a string is the
// code's text ("" silences it), anything else leaves it unset.
func chatTexts(groups map[string][]json.RawMessage) map[string][]*string {
	if groups == nil {
		return nil
	}
	out := make(map[string][]*string, len(groups))
	for g, list := range groups {
		texts := make([]*string, len(list))
		for i, raw := range list {
			var s string
			if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
				texts[i] = &s
			}
		}
		out[g] = texts
	}
	return out
}
