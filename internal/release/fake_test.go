package release

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// Tiny hand-made program headers: just enough of each format for the
// standard library's readers, so the packaging is tested without building
// the client.

func fakeELF(machine uint16) []byte {
	var b bytes.Buffer
	b.Write([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0})
	b.Write(make([]byte, 8))
	le := binary.LittleEndian
	_ = binary.Write(&b, le, struct {
		Type, Machine                                     uint16
		Version                                           uint32
		Entry, Phoff, Shoff                               uint64
		Flags                                             uint32
		Ehsize, Phentsize, Phnum, Shentsize, Shnum, Shstr uint16
	}{Type: 2, Machine: machine, Version: 1, Ehsize: 64, Phentsize: 56, Shentsize: 64})
	return b.Bytes()
}

func fakeMachO(cpu uint32) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, [8]uint32{0xfeedfacf, cpu, 0, 2, 0, 0, 0, 0})
	return b.Bytes()
}

// fakePE is a PE with one .rsrc section whose directory lists the given
// resource type ids, followed by the extra bytes.
func fakePE(machine uint16, types []uint32, extra []byte) []byte {
	le := binary.LittleEndian
	var rsrc bytes.Buffer
	_ = binary.Write(&rsrc, le, [3]uint32{})                      // characteristics, time, version
	_ = binary.Write(&rsrc, le, [2]uint16{0, uint16(len(types))}) // named, id entries
	for _, id := range types {
		_ = binary.Write(&rsrc, le, [2]uint32{id, 0x80000000})
	}
	rsrc.Write(extra)
	var b bytes.Buffer
	dos := make([]byte, 64)
	copy(dos, "MZ")
	le.PutUint32(dos[0x3c:], 64)
	b.Write(dos)
	b.WriteString("PE\x00\x00")
	_ = binary.Write(&b, le, struct {
		Machine, Sections uint16
		Time, Sym, NSym   uint32
		OptSize, Chars    uint16
	}{Machine: machine, Sections: 1, Chars: 0x22})
	dataOff := uint32(b.Len() + 40)
	var name [8]byte
	copy(name[:], ".rsrc")
	_ = binary.Write(&b, le, struct {
		Name                          [8]byte
		VSize, VAddr, RawSize, RawPtr uint32
		RelocPtr, LinePtr             uint32
		NReloc, NLine                 uint16
		Chars                         uint32
	}{Name: name, VSize: uint32(rsrc.Len()), VAddr: 0x1000, RawSize: uint32(rsrc.Len()), RawPtr: dataOff, Chars: 0x40000040})
	b.Write(rsrc.Bytes())
	return b.Bytes()
}

func fakeWindowsExe() []byte {
	extra := append(utf16le("VS_VERSION_INFO"), []byte(`<dpiAware>true</dpiAware>`)...)
	return fakePE(0x8664, []uint32{rtGroupIcon, rtVersion, rtManifest}, extra)
}

func TestInspectBinary(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		want Binary
	}{
		{"elf amd64", fakeELF(62), Binary{Format: "ELF", OS: "linux", Arch: "amd64"}},
		{"elf arm64", fakeELF(183), Binary{Format: "ELF", OS: "linux", Arch: "arm64"}},
		{"macho amd64", fakeMachO(0x01000007), Binary{Format: "Mach-O", OS: "darwin", Arch: "amd64"}},
		{"macho arm64", fakeMachO(0x0100000c), Binary{Format: "Mach-O", OS: "darwin", Arch: "arm64"}},
		{"pe with resources", fakeWindowsExe(), Binary{Format: "PE", OS: "windows", Arch: "amd64",
			Icon: true, Manifest: true, VersionInfo: true, DPIAware: true}},
		{"pe bare", fakePE(0x8664, nil, nil), Binary{Format: "PE", OS: "windows", Arch: "amd64"}},
	} {
		got, err := InspectBinary(tc.b)
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	if _, err := InspectBinary([]byte("#!/bin/sh\necho hi\n")); err == nil {
		t.Error("a shell script passed for a program")
	}
}
