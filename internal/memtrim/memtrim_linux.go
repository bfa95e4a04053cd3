//go:build linux

package memtrim

import "github.com/ebitengine/purego"

// mArenaMax is glibc's mallopt parameter M_ARENA_MAX.
const mArenaMax = -8

// lookup finds glibc's malloc_trim and mallopt; nil where there are none.
func lookup() (trim func(uintptr) int32, opt func(int32, int32) int32) {
	lib, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, nil
	}
	if sym, err := purego.Dlsym(lib, "malloc_trim"); err == nil && sym != 0 {
		purego.RegisterFunc(&trim, sym)
	}
	if sym, err := purego.Dlsym(lib, "mallopt"); err == nil && sym != 0 {
		purego.RegisterFunc(&opt, sym)
	}
	return trim, opt
}
