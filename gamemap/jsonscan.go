package gamemap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The parser walks the MAP_DATA text in place instead of unmarshalling it:
// encoding/json would materialise every array before a single length could
// be checked (a grid of ten thousand rows costs ten thousand slices before
// anything can say no), and its token stream allocates per number. The
// walker below runs only over text json.Valid has accepted, counts every
// array and object against its limit before anything is allocated for it,
// and decodes the cells of a grid straight into one preallocated slice.

// skipSpace returns the index of the first non-blank byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i] ('"').
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

func isNull(v []byte) bool { return len(v) == 0 || string(v) == "null" }

// members calls fn for each member of the object v, in order, after
// counting it against max; what names the members in a limit error.
func members(v []byte, field, what string, max int, fn func(key string, val []byte) error) error {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '{' {
		return fmt.Errorf("map data: %s: not an object", field)
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == '}' {
		return nil
	}
	for n := 1; ; n++ {
		if err := countOver(field, what, n, max); err != nil {
			return err
		}
		if i >= len(v) || v[i] != '"' {
			return fmt.Errorf("map data: %s: malformed object", field)
		}
		kEnd := skipString(v, i)
		key, err := decodeKey(v[i:kEnd])
		if err != nil {
			return fmt.Errorf("map data: %s: %w", field, err)
		}
		i = skipSpace(v, kEnd)
		if i >= len(v) || v[i] != ':' {
			return fmt.Errorf("map data: %s: malformed object", field)
		}
		i = skipSpace(v, i+1)
		vEnd := skipValue(v, i)
		if err := fn(key, v[i:vEnd]); err != nil {
			return err
		}
		i = skipSpace(v, vEnd)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
			continue
		}
		if i < len(v) && v[i] == '}' {
			return nil
		}
		return fmt.Errorf("map data: %s: malformed object", field)
	}
}

// decodeKey reads an object key; only a key with escapes is unmarshalled.
func decodeKey(q []byte) (string, error) {
	if len(q) < 2 {
		return "", fmt.Errorf("malformed key")
	}
	if bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1]), nil
	}
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", err
	}
	return s, nil
}

// elements calls fn for each element of the array v, in order, after
// counting it against max; what names the elements in a limit error.
func elements(v []byte, field, what string, max int, fn func(i int, val []byte) error) error {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '[' {
		return fmt.Errorf("map data: %s: not an array", field)
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == ']' {
		return nil
	}
	for n := 0; ; n++ {
		if err := countOver(field, what, n+1, max); err != nil {
			return err
		}
		end := skipValue(v, i)
		if err := fn(n, v[i:end]); err != nil {
			return err
		}
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
			continue
		}
		if i < len(v) && v[i] == ']' {
			return nil
		}
		return fmt.Errorf("map data: %s: malformed array", field)
	}
}

// intArray reads an array of integers: it counts them (stopping past max)
// and, when dst is long enough, stores them there. It allocates nothing.
func intArray(v []byte, field, what string, max int, dst []int32) (int, error) {
	n, _, err := intArrayAt(v, 0, field, what, max, dst)
	return n, err
}

// intArrayAt is intArray on the array starting at v[i]; it also returns
// the index just past the array.
func intArrayAt(v []byte, i int, field, what string, max int, dst []int32) (n, end int, err error) {
	i = skipSpace(v, i)
	if i >= len(v) || v[i] != '[' {
		return 0, i, fmt.Errorf("map data: %s: not an array", field)
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == ']' {
		return 0, i + 1, nil
	}
	for {
		if n >= max {
			return n, i, countOver(field, what, n+1, max)
		}
		val, e, ok := scanInt(v, i)
		if !ok {
			return n, i, fmt.Errorf("map data: %s: element %d is not an integer tile value", field, n)
		}
		if n < len(dst) {
			dst[n] = val
		}
		n++
		i = skipSpace(v, e)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
			continue
		}
		if i < len(v) && v[i] == ']' {
			return n, i + 1, nil
		}
		return n, i, fmt.Errorf("map data: %s: malformed array", field)
	}
}

// gridRows walks a grid, an array of integer arrays, without skipping any
// row twice: fn reads the row starting at v[start] (with intArrayAt) and
// returns the index past it. It returns the number of rows.
func gridRows(v []byte, field string, max int, fn func(y, start int) (int, error)) (int, error) {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '[' {
		return 0, fmt.Errorf("map data: %s: not an array", field)
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == ']' {
		return 0, nil
	}
	for y := 0; ; y++ {
		if y >= max {
			return y, countOver(field, "rows", y+1, max)
		}
		end, err := fn(y, i)
		if err != nil {
			return y, err
		}
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
			continue
		}
		if i < len(v) && v[i] == ']' {
			return y + 1, nil
		}
		return y, fmt.Errorf("map data: %s: malformed grid", field)
	}
}

// scanInt reads a JSON integer in the int32 range at b[i].
func scanInt(b []byte, i int) (int32, int, bool) {
	neg := false
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	start := i
	var v int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		v = v*10 + int64(b[i]-'0')
		if v > math.MaxInt32+1 {
			return 0, i, false
		}
		i++
	}
	if i == start || (i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
		return 0, i, false
	}
	if neg {
		v = -v
	}
	if v > math.MaxInt32 || v < math.MinInt32 {
		return 0, i, false
	}
	return int32(v), i, true
}

// intList reads a tile list of at most max entries.
func intList(v []byte, field string, max int) ([]int, error) {
	if isNull(v) {
		return nil, nil
	}
	n, err := intArray(v, field, "tiles", max, nil)
	if err != nil {
		return nil, err
	}
	buf := make([]int32, n)
	if _, err := intArray(v, field, "tiles", max, buf); err != nil {
		return nil, err
	}
	out := make([]int, n)
	for i, t := range buf {
		out[i] = int(t)
	}
	return out, nil
}

// integer reads one integer value.
func integer(v []byte, field string) (int, error) {
	i := skipSpace(v, 0)
	n, end, ok := scanInt(v, i)
	if !ok || skipSpace(v, end) != len(v) {
		return 0, fmt.Errorf("map data: %s: not an integer", field)
	}
	return int(n), nil
}

// number reads one finite number.
func number(v []byte, field string) (float64, error) {
	if len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return 0, fmt.Errorf("map data: %s: not a number", field)
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("map data: %s: not a finite number", field)
	}
	return f, nil
}

// text reads one string of at most max bytes; the bound is checked on the
// quoted text before anything is decoded.
func text(v []byte, field string, max int) (string, error) {
	if len(v) < 2 || v[0] != '"' {
		return "", fmt.Errorf("map data: %s: not a string", field)
	}
	if len(v)-2 > 6*max {
		return "", &LimitError{Field: field, What: "bytes", Got: fmt.Sprintf("%d or more", max+1), Limit: fmt.Sprint(max)}
	}
	s, err := decodeKey(v)
	if err != nil {
		return "", fmt.Errorf("map data: %s: %w", field, err)
	}
	if len(s) > max {
		return "", overLimit(field, "bytes", len(s), max)
	}
	return s, nil
}

// numbers reads an array of at most len(dst) finite numbers into dst and
// returns how many there were.
func numbers(v []byte, field string, dst []float64) (int, error) {
	n := 0
	err := elements(v, field, "numbers", len(dst)+1, func(i int, e []byte) error {
		if i >= len(dst) {
			return fmt.Errorf("map data: %s: more than %d numbers", field, len(dst))
		}
		f, err := number(e, field)
		dst[i] = f
		n++
		return err
	})
	return n, err
}
