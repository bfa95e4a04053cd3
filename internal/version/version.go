// Package version says which build of vimpclient is running: the module
// version, the commit, the build date and the Go toolchain.
//
// Release builds set the first three at link time:
//
//	go build -ldflags "-X vimpclient/internal/version.version=v1.2.3
//	    -X vimpclient/internal/version.commit=$(git rev-parse HEAD)
//	    -X vimpclient/internal/version.date=2026-12-01T12:00:00Z"
//
// Any other build (go build, go install, go run) reports what the Go
// toolchain recorded in the binary: the module version for `go install
// module@version`, and the VCS revision and time when the build had them.
package version

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Set with -ldflags -X by release builds; empty otherwise. They are
// variables only because -X can set nothing else; nothing assigns them.
var (
	version string
	commit  string
	date    string
)

// Unknown stands for a field the build did not record.
const Unknown = "unknown"

// Info describes one build.
type Info struct {
	Version  string `json:"version"`  // module version: v1.2.3, a pseudo-version, or (devel)
	Commit   string `json:"commit"`   // VCS revision, or Unknown
	Date     string `json:"date"`     // build (release) or commit time, RFC 3339, or Unknown
	Go       string `json:"go"`       // toolchain, e.g. go1.26.8
	Modified bool   `json:"modified"` // the work tree had uncommitted changes
}

// Get returns the running program's build information.
func Get() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return fromBuild(bi, version, commit, date)
}

// fromBuild merges the link-time values (which win when set) with the
// toolchain's build information (nil when the binary has none).
func fromBuild(bi *debug.BuildInfo, ldVersion, ldCommit, ldDate string) Info {
	in := Info{Version: "(devel)", Commit: Unknown, Date: Unknown, Go: Unknown}
	if bi != nil {
		if v := bi.Main.Version; v != "" {
			in.Version = v
		}
		if bi.GoVersion != "" {
			in.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Commit = s.Value
			case "vcs.time":
				in.Date = s.Value
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
	}
	if ldVersion != "" {
		in.Version = ldVersion
	}
	if ldCommit != "" {
		in.Commit = ldCommit
	}
	if ldDate != "" {
		in.Date = ldDate
	}
	return in
}

// ShortCommit is the commit's first 12 hex digits (the whole of anything
// shorter, Unknown included).
func (in Info) ShortCommit() string {
	if len(in.Commit) > 12 {
		return in.Commit[:12]
	}
	return in.Commit
}

// String is the one-line form -version prints:
// "vimpclient v1.2.3 (commit 0123456789ab, 2026-12-01T12:00:00Z, go1.26.8)".
func (in Info) String() string {
	c := in.ShortCommit()
	if in.Modified {
		c += "+modified"
	}
	return fmt.Sprintf("vimpclient %s (commit %s, %s, %s)", in.Version, c, in.Date, in.Go)
}

// Label is the short form for titles and menus: the version, with the
// commit when the version alone does not name the build.
func (in Info) Label() string {
	if (in.Version == "(devel)" || strings.HasSuffix(in.Version, "-dev")) && in.Commit != Unknown {
		return in.Version + " " + in.ShortCommit()
	}
	return in.Version
}
