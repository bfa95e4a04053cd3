package audio

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"vimpclient/audio/spatial"
)

// Limits on a catalog received from a host: the catalog arrives over the network, so its size and
// the names in it are bounded before anything is fetched.
const (
	MaxSounds    = 256
	MaxCodecs    = 16
	maxNameBytes = 64
)

// defaultCodecs is the codec list assumed when the catalog names none.
func defaultCodecs() []string { return []string{"webm", "mp3"} }

// SoundOptions are one catalog entry's options, with defaults applied.
type SoundOptions struct {
	Name     string
	File     string // base file name, no extension
	Loop     bool
	Volume   float64
	Priority float64
}

// Catalog is a validated `parts.sounds` block from CONFIG_DATA.
type Catalog struct {
	Codecs  []string
	Spatial spatial.Config
	Sounds  []SoundOptions // sorted by name
}

// Lookup returns the options of a named sound.
func (c *Catalog) Lookup(name string) (SoundOptions, bool) {
	i, ok := slices.BinarySearchFunc(c.Sounds, name, func(s SoundOptions, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return SoundOptions{}, false
	}
	return c.Sounds[i], true
}

// Codec walks the codec list in order and returns the first one in supported.
func (c *Catalog) Codec(supported ...string) (string, bool) {
	for _, codec := range c.Codecs {
		if slices.Contains(supported, codec) {
			return codec, true
		}
	}
	return "", false
}

// CatalogFromConfig extracts and parses `parts.sounds` from a whole CONFIG_DATA payload. A
// config without the block gives an empty catalog with the defaults.
func CatalogFromConfig(config []byte) (*Catalog, []string, error) {
	var cfg struct {
		Parts struct {
			Sounds json.RawMessage `json:"sounds"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(config, &cfg); err != nil {
		return nil, nil, fmt.Errorf("audio: read CONFIG_DATA parts.sounds: %w", err)
	}
	return ParseCatalog(cfg.Parts.Sounds)
}

// ParseCatalog validates a `parts.sounds` block. Each key is checked on its own: a bad value is
// replaced by its default and reported in the returned warnings; a sound whose options are not an
// object, or whose name or file cannot be used in a URL, is left out with a warning. Only a block
// that is not a JSON object is an error.
func ParseCatalog(raw []byte) (*Catalog, []string, error) {
	c := &Catalog{Codecs: defaultCodecs(), Spatial: spatial.Default()}
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil, nil
	}
	var block struct {
		CodecList json.RawMessage            `json:"codecList"`
		Spatial   json.RawMessage            `json:"spatial"`
		Sounds    map[string]json.RawMessage `json:"sounds"`
	}
	if err := json.Unmarshal(raw, &block); err != nil {
		return nil, nil, fmt.Errorf("audio: parts.sounds is not a sound catalog: %w", err)
	}
	var warns []string
	warn := func(format string, args ...any) { warns = append(warns, fmt.Sprintf(format, args...)) }

	if len(block.CodecList) > 0 && string(block.CodecList) != "null" {
		var list []string
		if err := json.Unmarshal(block.CodecList, &list); err != nil || len(list) == 0 || len(list) > MaxCodecs {
			warn("codecList: not a list of 1 to %d names, using %v", MaxCodecs, defaultCodecs())
		} else {
			c.Codecs = c.Codecs[:0]
			for _, codec := range list {
				if safeName(codec) {
					c.Codecs = append(c.Codecs, strings.ToLower(codec))
				} else {
					warn("codecList: ignoring codec %q", clipName(codec))
				}
			}
		}
	}

	sp, spWarns, err := spatial.ParseConfig(block.Spatial)
	warns = append(warns, spWarns...)
	if err != nil {
		warn("spatial: %v; using the defaults", err)
	}
	c.Spatial = sp

	names := make([]string, 0, len(block.Sounds))
	for name := range block.Sounds {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) > MaxSounds {
		warn("sounds: %d entries, keeping the first %d by name", len(names), MaxSounds)
		names = names[:MaxSounds]
	}
	for _, name := range names {
		if !validName(name) {
			warn("sounds: skipping unusable name %q", clipName(name))
			continue
		}
		opts, ok := parseSound(name, block.Sounds[name], warn)
		if ok {
			c.Sounds = append(c.Sounds, opts)
		}
	}
	return c, warns, nil
}

func parseSound(name string, raw json.RawMessage, warn func(string, ...any)) (SoundOptions, bool) {
	o := SoundOptions{Name: name, Volume: 0.5, Priority: 50}
	if safeName(name) {
		o.File = name // the contract checker's fallback when "file" is missing
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		warn("sounds.%s: options are not an object, skipping the sound", name)
		return o, false
	}
	for k, v := range fields {
		if string(v) == "null" {
			delete(fields, k) // a null option means "not given"
		}
	}
	if v, ok := fields["file"]; ok {
		var f string
		if json.Unmarshal(v, &f) != nil || !safeName(f) {
			warn("sounds.%s.file: invalid value %s, using the name", name, clip(v))
		} else {
			o.File = f
		}
	}
	if o.File == "" {
		warn("sounds.%s: no usable file name, skipping the sound", name)
		return o, false
	}
	if v, ok := fields["loop"]; ok {
		if json.Unmarshal(v, &o.Loop) != nil {
			warn("sounds.%s.loop: invalid value %s, using false", name, clip(v))
			o.Loop = false
		}
	}
	if v, ok := fields["volume"]; ok {
		var f float64
		if json.Unmarshal(v, &f) != nil || !(f >= 0 && f <= 1) {
			warn("sounds.%s.volume: invalid value %s (want 0…1), using 0.5", name, clip(v))
		} else {
			o.Volume = f
		}
	}
	if v, ok := fields["priority"]; ok {
		var f float64
		if json.Unmarshal(v, &f) != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			warn("sounds.%s.priority: invalid value %s, using 50", name, clip(v))
		} else {
			o.Priority = f
		}
	}
	return o, true
}

// validName accepts a sound name of 1 to 64 bytes of valid UTF-8 without control characters.
func validName(s string) bool {
	if s == "" || len(s) > maxNameBytes || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// safeName accepts names that can stand as one URL path segment: letters, digits and . _ -
// (not starting with a dot), at most 64 bytes.
func safeName(s string) bool {
	if s == "" || len(s) > maxNameBytes || s[0] == '.' {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}

func clipName(s string) string {
	if len(s) > maxNameBytes {
		return s[:maxNameBytes] + "…"
	}
	return s
}

func clip(v json.RawMessage) string {
	if len(v) > 40 {
		return string(v[:40]) + "…"
	}
	return string(v)
}
