package snakes

import (
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/internal/rowtest"
)

// The snakes game's record of s1 agrees exactly with the engine's snakes
// schema, and the check fails both ways: a schema field the record lacks,
// a record field the schema lacks.
func TestKeyRecords(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(sharedDir(t), "conformance", "schemas", "snakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	rowtest.CheckKeyRecord(t, raw, "s1", func(b *clientcore.Binder) { BindSnakeRow(b.Positions()) })
}
