// Package docs holds the project's design pages. Its test holds them to the
// code: every package, file, type, function and method a page names in
// backticks must exist, and the architecture page's package table must list
// every package of the module with the project packages it really imports.
package docs

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// module is the module path the project's imports start with.
const module = "vimpclient"

// pkgInfo is one package directory of the module.
type pkgInfo struct {
	name    string          // the package clause's name
	imports map[string]bool // project packages imported by its non-test files, relative to the root
}

// codeIndex is what the tree declares, for checking names in the pages.
type codeIndex struct {
	pkgs map[string]*pkgInfo // by directory relative to the root
	// decl holds "pkgname.Ident", "Ident", "Type.Member" and
	// "pkgname.Type.Member" for every top-level declaration, method and
	// struct field of the non-generated sources (tests included: a page
	// may name a test).
	decl map[string]bool
}

func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// index parses every Go file under the root (testdata, hidden and
// underscore directories excepted, as the go tool does).
func index(t *testing.T, rootDir string) *codeIndex {
	t.Helper()
	ix := &codeIndex{pkgs: map[string]*pkgInfo{}, decl: map[string]bool{}}
	walkGo(t, rootDir, 0, func(rel string, f *ast.File, test bool) {
		pkgName := strings.TrimSuffix(f.Name.Name, "_test")
		if !test {
			p := ix.pkgs[rel]
			if p == nil {
				p = &pkgInfo{name: pkgName, imports: map[string]bool{}}
				ix.pkgs[rel] = p
			}
			for _, im := range f.Imports {
				v := strings.Trim(im.Path.Value, `"`)
				if after, ok := strings.CutPrefix(v, module+"/"); ok {
					p.imports[after] = true
				}
			}
		}
		ix.declare(pkgName, f)
	})
	return ix
}

// walkGo parses every Go file under rootDir (testdata, hidden and
// underscore directories and the build outputs excepted, as the go tool
// does) with mode, and hands each to fn with its directory relative to
// the root and whether it is a test file.
func walkGo(t *testing.T, rootDir string, mode parser.Mode, fn func(rel string, f *ast.File, test bool)) {
	t.Helper()
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
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, mode|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(rootDir, filepath.Dir(path))
		fn(filepath.ToSlash(rel), f, strings.HasSuffix(name, "_test.go"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (ix *codeIndex) add(pkg string, names ...string) {
	n := strings.Join(names, ".")
	ix.decl[n] = true
	ix.decl[pkg+"."+n] = true
	if len(names) > 1 { // a method or field may be named alone
		ix.decl[names[len(names)-1]] = true
	}
}

func (ix *codeIndex) declare(pkg string, f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				ix.add(pkg, d.Name.Name)
				continue
			}
			ix.add(pkg, recvType(d.Recv.List[0].Type), d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					ix.add(pkg, s.Name.Name)
					ix.members(pkg, s)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						ix.add(pkg, n.Name)
					}
				}
			}
		}
	}
}

// members declares a struct's fields and an interface's methods.
func (ix *codeIndex) members(pkg string, s *ast.TypeSpec) {
	var list *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list = t.Methods
	}
	if list == nil {
		return
	}
	for _, fl := range list.List {
		for _, n := range fl.Names {
			ix.add(pkg, s.Name.Name, n.Name)
		}
		if len(fl.Names) == 0 { // embedded: the type's name is the field's
			ix.add(pkg, s.Name.Name, recvType(fl.Type))
		}
	}
}

// recvType is the type name of a receiver or embedded field expression.
func recvType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvType(e.X)
	case *ast.IndexExpr:
		return recvType(e.X)
	case *ast.IndexListExpr:
		return recvType(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

var (
	spanRE  = regexp.MustCompile("`([^`\n]+)`")
	identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$`)
	pathRE  = regexp.MustCompile(`^[a-z0-9_.-]+(/[a-z0-9_.-]+)*/?(\.\.\.)?$`)
)

// checkSpan reports what is wrong with one backticked span of a page, or
// "" when it names something that exists or names no code at all (a flag,
// a JSON field, a command line).
func (ix *codeIndex) checkSpan(rootDir, s string) string {
	switch {
	case strings.ContainsAny(s, " =:\"'{}[]()<>*,"):
		return "" // a command line, a literal or an expression
	case pathRE.MatchString(s) && strings.Contains(s, "/"):
		p := strings.TrimSuffix(strings.TrimSuffix(s, "..."), "/")
		first, _, _ := strings.Cut(p, "/")
		if _, err := os.Stat(filepath.Join(rootDir, first)); err != nil {
			return "" // a path on a host or a master, not in the tree
		}
		if _, err := os.Stat(filepath.Join(rootDir, filepath.FromSlash(p))); err != nil {
			return "no file or directory " + p
		}
		return ""
	case strings.HasSuffix(s, ".go"):
		return "" // a file name without its directory; the walks give full paths
	case identRE.MatchString(s) && startsCode(s):
		if !ix.decl[s] {
			return "nothing in the code is declared as " + s
		}
	}
	return ""
}

// fileExts are the endings that make a dotted span a file name.
var fileExts = []string{"go", "json", "md", "txt", "png", "wav", "mp3", "webm", "desktop", "plist", "syso", "ico", "icns", "html", "js"}

// startsCode tells a Go name from other spans: a dotted name is code unless
// it ends like a file or starts with an engine name (CONFIG_DATA.snapshot);
// a single word is code when it starts with a capital
// and is not all capitals (the engine's message names, like MAP_DATA).
// Lower-case words may be fields, roles or packages and are not checked.
func startsCode(s string) bool {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		first, _, _ := strings.Cut(s, ".")
		return !slices.Contains(fileExts, s[i+1:]) && strings.ToUpper(first) != first
	}
	return s[0] >= 'A' && s[0] <= 'Z' && strings.ToUpper(s) != s
}

// TestPagesNameWhatExists checks every backticked name of every page.
func TestPagesNameWhatExists(t *testing.T) {
	rootDir := root(t)
	ix := index(t, rootDir)
	pages, err := filepath.Glob("*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages: %v", err)
	}
	for _, page := range pages {
		f, err := os.Open(page)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		line, fence := 0, false
		for sc.Scan() {
			line++
			text := sc.Text()
			if strings.HasPrefix(strings.TrimSpace(text), "```") {
				fence = !fence
				continue
			}
			if fence {
				continue
			}
			for _, m := range spanRE.FindAllStringSubmatch(text, -1) {
				if msg := ix.checkSpan(rootDir, m[1]); msg != "" {
					t.Errorf("%s:%d: `%s`: %s", page, line, m[1], msg)
				}
			}
		}
		f.Close()
	}
}

// tableRow is one row of the architecture page's package table.
type tableRow struct {
	line    int
	pkgs    []string // directories; a trailing "/..." covers the tree below
	imports []string // as written; "the rest" for every other package
}

func parseTable(t *testing.T) []tableRow {
	t.Helper()
	b, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []tableRow
	in := false
	for i, text := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(text, "## ") {
			in = strings.TrimSpace(text) == "## Packages"
			continue
		}
		if !in || !strings.HasPrefix(text, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(text, "| "), "|")
		if len(cells) != 3 {
			t.Fatalf("architecture.md:%d: a package row has 3 cells: package, holds, imports", i+1)
		}
		r := tableRow{line: i + 1}
		for _, m := range spanRE.FindAllStringSubmatch(cells[0], -1) {
			r.pkgs = append(r.pkgs, m[1])
		}
		imp := strings.TrimSpace(cells[2])
		if imp != "—" {
			for _, s := range strings.Split(imp, ",") {
				r.imports = append(r.imports, strings.TrimSpace(s))
			}
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("architecture.md has no package table under ## Packages")
	}
	return rows
}

// covers reports whether the entry (a directory, or one with "/...")
// names dir.
func covers(entry, dir string) bool {
	if tree, ok := strings.CutSuffix(entry, "/..."); ok {
		return dir == tree || strings.HasPrefix(dir, tree+"/")
	}
	return dir == entry
}

// TestPackageTableIsTheModule holds the package table to the module: every
// package in exactly one row, and each row's imports column exactly the
// project packages its packages import from outside the row.
func TestPackageTableIsTheModule(t *testing.T) {
	ix := index(t, root(t))
	rows := parseTable(t)
	var dirs []string
	for d := range ix.pkgs {
		if d != "docs" {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	owner := map[string]int{}
	for _, d := range dirs {
		var in []int
		for i, r := range rows {
			if slices.ContainsFunc(r.pkgs, func(e string) bool { return covers(e, d) }) {
				in = append(in, rows[i].line)
			}
		}
		switch len(in) {
		case 0:
			t.Errorf("package %s is in no row of the package table", d)
		case 1:
			owner[d] = in[0]
		default:
			t.Errorf("package %s is in the rows of lines %v", d, in)
		}
	}
	for _, r := range rows {
		for _, e := range r.pkgs {
			if !slices.ContainsFunc(dirs, func(d string) bool { return covers(e, d) }) {
				t.Errorf("architecture.md:%d: %s is not a package of the module", r.line, e)
			}
		}
		inRow := func(d string) bool { return owner[d] == r.line }
		actual := map[string]bool{}
		for d, p := range ix.pkgs {
			if !inRow(d) {
				continue
			}
			for im := range p.imports {
				if !inRow(im) {
					actual[im] = true
				}
			}
		}
		if slices.Equal(r.imports, []string{"the rest"}) {
			continue
		}
		used := make([]bool, len(r.imports))
		for im := range actual {
			found := false
			for i, e := range r.imports {
				if covers(e, im) {
					used[i], found = true, true
				}
			}
			if !found {
				t.Errorf("architecture.md:%d: %v import %s, which the imports column leaves out", r.line, r.pkgs, im)
			}
		}
		for i, e := range r.imports {
			if !used[i] {
				t.Errorf("architecture.md:%d: %v import nothing of %s", r.line, r.pkgs, e)
			}
		}
	}
}

// testkit is the tree of what only tests and the test and bench programs
// use; the programs live under it, in testkit/cmd.
const testkit = "testkit"

// TestProductImportsNoTestkit keeps the test harnesses out of the product:
// no non-test file outside testkit/ imports a package under it, so a
// harness may import any layer without the client, the host or the release
// tools depending on it.
func TestProductImportsNoTestkit(t *testing.T) {
	ix := index(t, root(t))
	for d, p := range ix.pkgs {
		if covers(testkit+"/...", d) {
			continue
		}
		for im := range p.imports {
			if covers(testkit+"/...", im) {
				t.Errorf("%s imports %s: only tests and the programs under %s/cmd may", d, im, testkit)
			}
		}
	}
}
