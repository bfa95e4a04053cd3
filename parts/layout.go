package parts

import (
	"fmt"
	"slices"
	"strings"

	"vimpclient/clientcore"
)

// Field is the position of a named field in a key's rows, bound once when
// CONFIG_DATA arrives; parts never index rows by literal positions.
type Field int

// Of reads the field from a row; a missing trailing field reads as 0 (the
// first shot carries short tank rows).
func (f Field) Of(row []float64) float64 {
	if f >= 0 && int(f) < len(row) {
		return row[f]
	}
	return 0
}

// Binder binds a part's fields against one schema key and records which
// fields it reads, to check the part accounts for every field.
type Binder struct {
	key  *clientcore.KeySchema
	seen []bool
	errs []string
}

// NewBinder starts binding against key.
func NewBinder(key *clientcore.KeySchema) *Binder {
	return &Binder{key: key, seen: make([]bool, len(key.Fields))}
}

// Read binds a field the part reads; a missing field is an error.
func (b *Binder) Read(name string) Field {
	i := b.index(name)
	if i < 0 {
		b.errs = append(b.errs, "missing field "+name)
		return -1
	}
	b.seen[i] = true
	return Field(i)
}

// Ignore declares fields the part knowingly does not draw.
func (b *Binder) Ignore(names ...string) {
	for _, n := range names {
		if i := b.index(n); i >= 0 {
			b.seen[i] = true
		}
	}
}

func (b *Binder) index(name string) int {
	return slices.IndexFunc(b.key.Fields, func(f clientcore.Field) bool { return f.Name == name })
}

// Done reports an error when a field was missing or a schema field was
// neither read nor ignored (a newer game version the part does not know).
func (b *Binder) Done(part string) error {
	for i, ok := range b.seen {
		if !ok {
			b.errs = append(b.errs, "unaccounted field "+b.key.Fields[i].Name)
		}
	}
	if len(b.errs) > 0 {
		return fmt.Errorf("part %s on key %s: %s", part, b.key.Name, strings.Join(b.errs, ", "))
	}
	return nil
}
