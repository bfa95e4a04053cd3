package release

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"io"
	"unicode/utf16"
)

// Binary is what a program file says about itself.
type Binary struct {
	Format string // ELF, PE or Mach-O
	OS     string // linux, windows, darwin (as GOOS)
	Arch   string // amd64, arm64 (as GOARCH)
	// Windows only: the resources the release embeds.
	Icon, Manifest, VersionInfo bool
	DPIAware                    bool // the manifest declares DPI awareness
}

// InspectBinary reads the executable format and architecture of a program
// file (and a Windows program's resources).
func InspectBinary(b []byte) (Binary, error) {
	r := bytes.NewReader(b)
	switch {
	case bytes.HasPrefix(b, []byte("\x7fELF")):
		f, err := elf.NewFile(r)
		if err != nil {
			return Binary{}, fmt.Errorf("release: ELF: %w", err)
		}
		bin := Binary{Format: "ELF", OS: "linux", Arch: elfArch(f.Machine)}
		if f.OSABI != elf.ELFOSABI_NONE && f.OSABI != elf.ELFOSABI_LINUX {
			bin.OS = f.OSABI.String()
		}
		return bin, nil
	case bytes.HasPrefix(b, []byte("MZ")):
		f, err := pe.NewFile(r)
		if err != nil {
			return Binary{}, fmt.Errorf("release: PE: %w", err)
		}
		bin := Binary{Format: "PE", OS: "windows", Arch: peArch(f.Machine)}
		if s := f.Section(".rsrc"); s != nil {
			data, err := io.ReadAll(s.Open())
			if err != nil {
				return Binary{}, fmt.Errorf("release: PE resources: %w", err)
			}
			inspectResources(&bin, data)
		}
		return bin, nil
	}
	f, err := macho.NewFile(r)
	if err != nil {
		return Binary{}, fmt.Errorf("release: not ELF, PE or Mach-O: %w", err)
	}
	return Binary{Format: "Mach-O", OS: "darwin", Arch: machoArch(f.Cpu)}, nil
}

func elfArch(m elf.Machine) string {
	switch m {
	case elf.EM_X86_64:
		return "amd64"
	case elf.EM_AARCH64:
		return "arm64"
	}
	return m.String()
}

func peArch(m uint16) string {
	switch m {
	case pe.IMAGE_FILE_MACHINE_AMD64:
		return "amd64"
	case pe.IMAGE_FILE_MACHINE_ARM64:
		return "arm64"
	}
	return fmt.Sprintf("pe-machine-%#x", m)
}

func machoArch(c macho.Cpu) string {
	switch c {
	case macho.CpuAmd64:
		return "amd64"
	case macho.CpuArm64:
		return "arm64"
	}
	return c.String()
}

// Resource type ids of the PE resource directory.
const (
	rtGroupIcon = 14
	rtVersion   = 16
	rtManifest  = 24
)

// inspectResources reads the top level of a .rsrc section's resource
// directory (which types are present) and looks for the DPI awareness
// setting in the manifest text.
func inspectResources(bin *Binary, data []byte) {
	le := func(off int) uint32 {
		if off+4 > len(data) {
			return 0
		}
		return uint32(data[off]) | uint32(data[off+1])<<8 | uint32(data[off+2])<<16 | uint32(data[off+3])<<24
	}
	if len(data) < 16 {
		return
	}
	// IMAGE_RESOURCE_DIRECTORY: 12 bytes, then named and id entry counts.
	named := int(uint16(le(12)))
	ids := int(uint16(le(12) >> 16))
	for i := range named + ids {
		id := le(16 + 8*i)
		if id&0x80000000 != 0 {
			continue // a named type
		}
		switch id {
		case rtGroupIcon:
			bin.Icon = true
		case rtVersion:
			bin.VersionInfo = true
		case rtManifest:
			bin.Manifest = true
		}
	}
	bin.DPIAware = bytes.Contains(data, []byte("dpiAware")) || bytes.Contains(data, []byte("dpiAwareness"))
	if bin.VersionInfo {
		// The version block's key, in UTF-16LE, confirms the resource is whole.
		bin.VersionInfo = bytes.Contains(data, utf16le("VS_VERSION_INFO"))
	}
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}
