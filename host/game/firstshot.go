package game

import (
	"strconv"

	"vimpclient/host/packer"
	"vimpclient/snapschema"
)

// FirstShot gathers the snapshot of a FIRST_SHOT_DATA: the rows of one
// key by game id, each the numbers of its packed values in schema order.
type FirstShot struct {
	key  *snapschema.Key
	rows map[string][]float64
}

// NewFirstShot starts a first shot of key's rows.
func NewFirstShot(key *snapschema.Key) FirstShot {
	return FirstShot{key: key, rows: map[string][]float64{}}
}

// Add records the row of game id gid from its packed values v (the key's
// full width).
func (s *FirstShot) Add(gid uint8, v []packer.Value) {
	row := make([]float64, len(s.key.Fields))
	for i, f := range s.key.Fields {
		row[i] = v[i].Number(f.Type)
	}
	s.rows[strconv.Itoa(int(gid))] = row
}

// Snapshot is {key: {id: row}}, or {} when no row was added.
func (s *FirstShot) Snapshot() any {
	if len(s.rows) == 0 {
		return map[string]any{}
	}
	return map[string]any{s.key.Name: s.rows}
}
