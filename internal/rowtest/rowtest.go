// Package rowtest builds and reads snapshot rows by field name in tests, so
// that test fixtures, like the code they test, never place a value by its
// position in a row.
package rowtest

import (
	"testing"

	"vimpclient/clientcore"
)

// Row returns a full-width row of k holding vals by field name, zeros
// elsewhere. A name k does not have fails the test.
func Row(t testing.TB, k *clientcore.KeySchema, vals map[string]float64) []float32 {
	t.Helper()
	row := make([]float32, len(k.Fields))
	b := clientcore.NewBinder(k)
	for name, v := range vals {
		b.Require(name).Set(row, float32(v))
	}
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	return row
}

// Set writes one named field of a row of k.
func Set(t testing.TB, k *clientcore.KeySchema, row []float32, name string, v float64) {
	t.Helper()
	b := clientcore.NewBinder(k)
	f := b.Require(name)
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	f.Set(row, float32(v))
}

// Get reads one named field of a row of k.
func Get(t testing.TB, k *clientcore.KeySchema, row []float32, name string) float32 {
	t.Helper()
	b := clientcore.NewBinder(k)
	f := b.Require(name)
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	return f.Get(row)
}
