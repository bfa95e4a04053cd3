package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuild(t *testing.T) {
	vcs := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "vimpclient", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-30T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	for _, tc := range []struct {
		name                string
		bi                  *debug.BuildInfo
		ldV, ldC, ldD       string
		want                Info
		wantString, wantLbl string
	}{
		{name: "no build info", want: Info{Version: "(devel)", Commit: Unknown, Date: Unknown, Go: Unknown},
			wantString: "vimpclient (devel) (commit unknown, unknown, unknown)", wantLbl: "(devel)"},
		{name: "go install module@version",
			bi:         &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			want:       Info{Version: "v1.4.0", Commit: Unknown, Date: Unknown, Go: "go1.26.8"},
			wantString: "vimpclient v1.4.0 (commit unknown, unknown, go1.26.8)", wantLbl: "v1.4.0"},
		{name: "vcs stamped", bi: vcs,
			want: Info{Version: "(devel)", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-11-30T10:00:00Z",
				Go: "go1.26.8", Modified: true},
			wantString: "vimpclient (devel) (commit 0123456789ab+modified, 2026-11-30T10:00:00Z, go1.26.8)",
			wantLbl:    "(devel) 0123456789ab"},
		{name: "release ldflags win", bi: vcs, ldV: "v2.0.0", ldC: "fedcba9876543210", ldD: "2026-12-01T12:00:00Z",
			want:       Info{Version: "v2.0.0", Commit: "fedcba9876543210", Date: "2026-12-01T12:00:00Z", Go: "go1.26.8", Modified: true},
			wantString: "vimpclient v2.0.0 (commit fedcba987654+modified, 2026-12-01T12:00:00Z, go1.26.8)",
			wantLbl:    "v2.0.0"},
		{name: "dev release", ldV: "v0.1.0-dev", ldC: "abc",
			want:       Info{Version: "v0.1.0-dev", Commit: "abc", Date: Unknown, Go: Unknown},
			wantString: "vimpclient v0.1.0-dev (commit abc, unknown, unknown)", wantLbl: "v0.1.0-dev abc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fromBuild(tc.bi, tc.ldV, tc.ldC, tc.ldD)
			if got != tc.want {
				t.Fatalf("fromBuild = %+v, want %+v", got, tc.want)
			}
			if s := got.String(); s != tc.wantString {
				t.Errorf("String = %q, want %q", s, tc.wantString)
			}
			if l := got.Label(); l != tc.wantLbl {
				t.Errorf("Label = %q, want %q", l, tc.wantLbl)
			}
		})
	}
}

// The test binary has build information: Get reports its toolchain.
func TestGetReportsToolchain(t *testing.T) {
	if g := Get().Go; g == Unknown || g == "" {
		t.Fatalf("Get().Go = %q, want the toolchain version", g)
	}
}
