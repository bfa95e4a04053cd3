package docs

import (
	"go/ast"
	"go/parser"
	"sort"
	"testing"
)

// maxStructFields is the most fields a struct of the product may have: a
// type with more holds several jobs, which want types of their own.
const maxStructFields = 30

// No struct declared in the product's code (tests and generated files
// aside) has more than maxStructFields fields; an embedded type counts as
// one. With -v the largest ones are listed.
func TestNoStructOverThirtyFields(t *testing.T) {
	rootDir := root(t)
	type sized struct {
		name   string
		fields int
	}
	var all []sized
	walkGo(t, rootDir, parser.ParseComments, func(rel string, f *ast.File, test bool) {
		if test || ast.IsGenerated(f) {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			c := 0
			for _, fl := range st.Fields.List {
				c += max(1, len(fl.Names))
			}
			all = append(all, sized{rel + "." + ts.Name.Name, c})
			return true
		})
	})
	sort.Slice(all, func(i, j int) bool {
		if all[i].fields != all[j].fields {
			return all[i].fields > all[j].fields
		}
		return all[i].name < all[j].name
	})
	if len(all) < 100 {
		t.Fatalf("%d structs found; the walk missed the tree", len(all))
	}
	for i, s := range all {
		if s.fields > maxStructFields {
			t.Errorf("%s has %d fields, want at most %d", s.name, s.fields, maxStructFields)
		} else if i < 10 {
			t.Logf("%s: %d fields", s.name, s.fields)
		}
	}
}
