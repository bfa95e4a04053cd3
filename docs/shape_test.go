package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
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
	fset := token.NewFileSet()
	err := filepath.WalkDir(rootDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != rootDir && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "bin" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, _ := filepath.Rel(rootDir, filepath.Dir(path))
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
			all = append(all, sized{filepath.ToSlash(rel) + "." + ts.Name.Name, c})
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
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
