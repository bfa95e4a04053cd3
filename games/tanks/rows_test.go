package tanks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/testkit/capturetest"
	"vimpclient/testkit/rowtest"
)

// The tanks game's records of its keys agree exactly with the engine's
// tanks schema, and the check fails both ways: a schema field the
// record lacks, a record field the schema lacks.
func TestKeyRecords(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "conformance", "schemas", "tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key  string
		bind func(*clientcore.Binder)
		// newer are the fields of later tanks the 0.13 schema lacks.
		newer []string
	}{
		{"m1", func(b *clientcore.Binder) { BindTankRow(b.Positions()) }, []string{"vz", "pitch", "roll"}},
		{"c1", func(b *clientcore.Binder) { BindCrateRow(b.Positions()) }, nil},
		{"c2", func(b *clientcore.Binder) { BindCrateRow(b.Positions()) }, nil},
		{"w1", func(b *clientcore.Binder) { BindTracerRow(b.Positions()) }, []string{"startLevel", "endLevel"}},
		{"w2", func(b *clientcore.Binder) { BindBombRow(b.Positions()) }, []string{"level"}},
		{"w2e", func(b *clientcore.Binder) { BindExplosionRow(b.Positions()) }, []string{"level"}},
	} {
		t.Run(c.key, func(t *testing.T) { rowtest.CheckKeyRecord(t, raw, c.key, c.bind, c.newer...) })
		// Today's tanks (0.22) has every field the records read, and no
		// other: z and level of m1 by name, the shots' levels, the state.
		t.Run("0.22/"+c.key, func(t *testing.T) { rowtest.CheckKeyRecord(t, snapshot022(t), c.key, c.bind) })
	}
}

// snapshot022 is the snapshot schema of a real tanks 0.22 host.
func snapshot022(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	return top.Snapshot
}
