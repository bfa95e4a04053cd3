package clientcore

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"vimpclient/snapschema"
)

// The decoder's JSON form is the engine's debug and test view of a frame:
// object keys in byte-wise sorted order, f32 values as two-decimal numbers,
// integral floats with ".0", non-finite numbers as null. It is produced for
// tools and tests, not on the per-frame path.

// AppendJSON appends the frame's JSON form:
// {"camera","player","port","seq","serverTime","snapshot"}.
func (f *Frame) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"camera":`...)
	dst = appendCameraJSON(dst, f.HasCamera, &f.Camera)
	dst = append(dst, `,"player":`...)
	if f.HasPlayer {
		p := &f.Player
		dst = append(dst, `{"centering":`...)
		dst = strconv.AppendBool(dst, p.Centering)
		dst = append(dst, `,"gameId":`...)
		dst = strconv.AppendUint(dst, uint64(p.GameID), 10)
		dst = append(dst, `,"inputSeq":`...)
		dst = strconv.AppendUint(dst, uint64(p.LastInputSeq), 10)
		dst = append(dst, `,"state":[`...)
		for i, v := range p.State {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONFloat(dst, float64(v))
		}
		dst = append(dst, "]}"...)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"port":`...)
	dst = strconv.AppendUint(dst, uint64(f.Port), 10)
	dst = append(dst, `,"seq":`...)
	dst = strconv.AppendUint(dst, uint64(f.Seq), 10)
	dst = append(dst, `,"serverTime":`...)
	dst = appendJSONFloat(dst, f.ServerTime)
	dst = append(dst, `,"snapshot":`...)
	dst = appendSnapshotJSON(dst, f.Blocks)
	return append(dst, '}')
}

// AppendJSON appends the event frame in the form take_frames gives one
// element: {"camera": ..., "game": {...}}.
func (e *EventFrame) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"camera":`...)
	dst = appendCameraJSON(dst, e.HasCamera, &e.Camera)
	dst = append(dst, `,"game":`...)
	dst = appendSnapshotJSON(dst, e.Blocks)
	return append(dst, '}')
}

func appendCameraJSON(dst []byte, has bool, c *FrameCamera) []byte {
	if !has {
		return append(dst, '0')
	}
	dst = append(dst, '[')
	dst = appendTwoDecimals(dst, float64(c.X))
	dst = append(dst, ',')
	dst = appendTwoDecimals(dst, float64(c.Y))
	switch {
	case c.ForceReset && c.HasShake:
		dst = append(dst, ",true,"...)
		dst = appendJSONString(dst, c.ShakeText())
	case c.ForceReset:
		dst = append(dst, ",true"...)
	case c.HasShake:
		dst = append(dst, ",null,"...)
		dst = appendJSONString(dst, c.ShakeText())
	}
	return append(dst, ']')
}

// appendSnapshotJSON writes {key: data} with keys sorted; a key that occurs
// twice keeps its last block.
func appendSnapshotJSON(dst []byte, blocks []Block) []byte {
	last := make(map[string]int, len(blocks))
	names := make([]string, 0, len(blocks))
	for i := range blocks {
		name := blocks[i].Schema.Name
		if _, ok := last[name]; !ok {
			names = append(names, name)
		}
		last[name] = i
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, name)
		dst = append(dst, ':')
		dst = appendBlockJSON(dst, &blocks[last[name]])
	}
	return append(dst, '}')
}

func appendBlockJSON(dst []byte, b *Block) []byte {
	k := b.Schema
	if k.Kind == snapschema.KindList16 {
		dst = append(dst, '[')
		for i := range b.Rows {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendRowJSON(dst, k, &b.Rows[i])
		}
		return append(dst, ']')
	}
	type entry struct {
		id  string
		row *Row
	}
	entries := make([]entry, len(b.Rows))
	for i := range b.Rows {
		entries[i] = entry{b.Rows[i].Name(k.Kind), &b.Rows[i]}
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.id, b.id) })
	dst = append(dst, '{')
	for i, e := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, e.id)
		dst = append(dst, ':')
		dst = appendRowJSON(dst, k, e.row)
	}
	return append(dst, '}')
}

func appendRowJSON(dst []byte, k *KeySchema, r *Row) []byte {
	if r.Null {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, v := range r.Fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		if k.Fields[i].Type == snapschema.TypeF32 {
			dst = appendTwoDecimals(dst, float64(v))
		} else {
			dst = strconv.AppendUint(dst, uint64(r.exact(k, i)), 10)
		}
	}
	return append(dst, ']')
}

// Name is the row's entity name as the renderer keys it: "L<n>" for a local
// spawn, else RowIDString of its id.
func (r *Row) Name(kind snapschema.Kind) string {
	if r.Local != 0 {
		return "L" + strconv.FormatUint(uint64(r.Local), 10)
	}
	return RowIDString(kind, r.ID)
}

// RowIDString renders an entity id the way the engine names it: decimal for
// indexed8, lowercase base 36 for indexed32, "d" + index for indexedNoNull8.
// list16 rows have no id; their position is rendered in decimal.
func RowIDString(kind snapschema.Kind, id uint32) string {
	switch kind {
	case snapschema.KindIndexed32:
		return strconv.FormatUint(uint64(id), 36)
	case snapschema.KindIndexedNoNull8:
		return "d" + strconv.FormatUint(uint64(id), 10)
	}
	return strconv.FormatUint(uint64(id), 10)
}

// appendTwoDecimals prints an already rounded f32 value as the shortest
// two-decimal number (10.57, not 10.569999694824219).
func appendTwoDecimals(dst []byte, v float64) []byte {
	return appendJSONFloat(dst, math.Round(v*100)/100)
}

// appendJSONFloat prints v as the engine's JSON serializer does: shortest
// round-trip digits, ".0" on integral values, exponent form outside the
// range where plain digits are at most 16 long or the number is below 1e-5,
// null for NaN and infinities.
func appendJSONFloat(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, "null"...)
	}
	if v == 0 {
		if math.Signbit(v) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], v, 'e', -1, 64) // -d.ddde±xx
	neg := e[0] == '-'
	if neg {
		e = e[1:]
		dst = append(dst, '-')
	}
	mant, exp, _ := strings.Cut(string(e), "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	length := len(digits)
	kk := x + 1      // position of the decimal point relative to the digits
	k := kk - length // exponent of the last digit
	switch {
	case k >= 0 && kk <= 16:
		dst = append(dst, digits...)
		for i := 0; i < k; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, ".0"...)
	case kk > 0 && kk <= 16:
		dst = append(dst, digits[:kk]...)
		dst = append(dst, '.')
		dst = append(dst, digits[kk:]...)
	case kk > -5 && kk <= 0:
		dst = append(dst, "0."...)
		for i := 0; i < -kk; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	case length == 1:
		dst = append(dst, digits...)
		dst = append(dst, 'e')
		dst = strconv.AppendInt(dst, int64(kk-1), 10)
	default:
		dst = append(dst, digits[0], '.')
		dst = append(dst, digits[1:]...)
		dst = append(dst, 'e')
		dst = strconv.AppendInt(dst, int64(kk-1), 10)
	}
	return dst
}

// appendJSONString escapes like the engine's serializer: quote, backslash
// and control characters below 0x20; everything else raw.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			dst = append(dst, '\\', '"')
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// lossyUTF8 decodes b as UTF-8, replacing each maximal invalid subsequence
// (the longest prefix of a well-formed sequence that cannot be completed)
// with one U+FFFD.
func lossyUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
			need = 2
		case c == 0xED:
			need, hi = 2, 0x9F
		case c == 0xF0:
			need, lo = 3, 0x90
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		case c == 0xF4:
			need, hi = 3, 0x8F
		default:
			sb.WriteRune(utf8.RuneError)
			i++
			continue
		}
		j := i + 1
		ok := true
		for n := 0; n < need; n++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				ok = false
				break
			}
			j++
			lo, hi = 0x80, 0xBF
		}
		if ok {
			sb.Write(b[i:j])
		} else {
			sb.WriteRune(utf8.RuneError)
		}
		i = j
	}
	return sb.String()
}
