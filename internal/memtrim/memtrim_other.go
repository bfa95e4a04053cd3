//go:build !linux

package memtrim

const mArenaMax = -8

func lookup() (func(uintptr) int32, func(int32, int32) int32) { return nil, nil }
