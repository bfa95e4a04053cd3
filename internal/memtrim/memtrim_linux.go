//go:build linux

package memtrim

import "github.com/ebitengine/purego"

// lookup finds glibc's malloc_trim; nil where there is none.
func lookup() func(uintptr) int32 {
	lib, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil
	}
	sym, err := purego.Dlsym(lib, "malloc_trim")
	if err != nil || sym == 0 {
		return nil
	}
	var f func(uintptr) int32
	purego.RegisterFunc(&f, sym)
	return f
}
