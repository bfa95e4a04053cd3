# vimpclient build, test and benchmark entry points.
# `make run` and `make test` install what they need first (Debian packages via `deps`).

GO      ?= go
PKGS    ?= ./...
FUZZTIME ?= 5m
# Debian packages running and testing need. The client builds without cgo: Ebiten and oto
# open libGL, X11 and ALSA at run time, so only their runtime libraries are listed (no -dev
# packages). gcc and libc6-dev are for the tests alone: the race detector needs cgo on Linux.
# Xvfb and xauth give the window tests a display, xdotool their key presses; WenQuanYi Micro
# Hei (about 5 MB) is the CJK font the HUD's font fallback tests draw with; Symbola gives the
# chat's emoji a glyph.
RUN_PKGS  := libgl1 libgl1-mesa-dri libegl1 libx11-6 libxrandr2 libxcursor1 libxinerama1 libxi6 \
             libxxf86vm1 libxext6 libxrender1 libasound2
TEST_PKGS := gcc libc6-dev xvfb xauth xdotool fonts-wqy-microhei fonts-symbola
DEB_PKGS  := $(RUN_PKGS) $(TEST_PKGS)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Release builds: cgo-free, paths trimmed, stripped, an empty build id, and the version, the
# commit and the commit's time (not the build's: the same commit builds the same bytes) set
# in vimpclient/internal/version.
VERSION ?= $(shell git describe --tags --match 'v[0-9]*' 2>/dev/null || echo v0.1.0-dev)
COMMIT  := $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE    := $(shell TZ=UTC git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd 2>/dev/null || echo 1970-01-01T00:00:00Z)
VPKG    := vimpclient/internal/version
LDFLAGS := -s -w -buildid= -X $(VPKG).version=$(VERSION) -X $(VPKG).commit=$(COMMIT) -X $(VPKG).date=$(DATE)
RELEASE_BUILD := CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=false -ldflags "$(LDFLAGS)"
RELEASE_TARGETS := linux/amd64 linux/arm64 windows/amd64 darwin/amd64 darwin/arm64
# go-winres writes the Windows icon, manifest and version resources as a .syso the Go linker
# takes; it is made at dist time only, so other builds never carry a stale one.
WINRES  := github.com/tc-hib/go-winres@v0.3.3
SYSO    := cmd/vimpclient/rsrc_windows_amd64.syso
WINVER  := $(shell echo "$(VERSION)" | sed -E 's/^v?([0-9]+(\.[0-9]+)*).*/\1/;t;s/.*/0.0.0/')

.PHONY: all deps build run test vet bench bench-all netbench membench fuzz dist dist-check notice clean

all: build

# deps installs the missing Debian packages only; a second run does nothing.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# build makes the one client program: the window, -headless, serve, frames, replay. No
# platform needs cgo.
build: deps
	CGO_ENABLED=0 $(GO) build -o bin/vimpclient ./cmd/vimpclient

# dist builds the release archives of every platform into dist/, with SHA256SUMS: Linux
# tar.gz (binary, desktop entry, icon), Windows zip (.exe with icon, manifest, version
# info), macOS zip (vimpclient.app). Nothing in it needs a C toolchain.
dist:
	rm -rf dist
	$(GO) run ./internal/cmd/release icons -out dist/build/res
	@set -e; trap 'rm -f $(SYSO)' EXIT; \
	$(GO) run $(WINRES) simply --arch amd64 --out cmd/vimpclient/rsrc --manifest gui \
	  --icon dist/build/res/vimpclient.ico --product-name vimpclient --file-description "vimp game client" \
	  --product-version "$(VERSION)" --file-version "$(WINVER)" --original-filename vimpclient.exe \
	  --copyright "Copyright (c) The vimpclient authors, MIT licence"; \
	for t in $(RELEASE_TARGETS); do \
	  os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  echo "build $$t"; \
	  GOOS=$$os GOARCH=$$arch $(RELEASE_BUILD) -o dist/build/$${os}_$${arch}/vimpclient$$ext ./cmd/vimpclient; \
	done
	$(GO) run ./internal/cmd/release pack -version "$(VERSION)" -date "$(DATE)" -build dist/build -out dist
	rm -rf dist/build

# dist-check verifies dist/: the checksums, each archive's files and binary (ELF/PE/Mach-O,
# architecture), then runs linux/amd64 (-version, a 5 s headless match against the embedded
# host) and windows/amd64 the same way under Wine when Wine is installed.
dist-check:
	$(GO) run ./internal/cmd/release check -version "$(VERSION)" -dist dist -run

# notice writes NOTICE: the licences of the modules the release binaries link.
notice:
	$(GO) run ./internal/cmd/notice -o NOTICE $(RELEASE_TARGETS:%=-target %) ./cmd/vimpclient

# run starts the client against the embedded host (pass ARGS="http://host:port" for another).
run: build
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "no display: running under xvfb-run"; xvfb-run -a ./bin/vimpclient $(ARGS); \
	else ./bin/vimpclient $(ARGS); fi

vet:
	$(GO) vet $(PKGS)

# test runs vet and every test (fuzz targets on their seed corpus only) under the race
# detector, with a virtual display for the window tests.
test: deps vet
	@$(GO) test -count=1 -v -run 'Conformance' ./clientcore | grep -E '^conformance:' || true
	xvfb-run -a -s "-screen 0 1280x800x24" $(GO) test -race -count=1 $(PKGS)

XVFB := xvfb-run -a -s "-screen 0 1280x800x24"

# bench prints one table of the headline benchmarks (decode, sample, tick, draw, bake, mix,
# replay, join): ns/op over 5 runs, allocs/op, instructions/op where perf or valgrind can count
# them (BENCHFLAGS="-count 10 -only decode,sample" to narrow it). bench-all runs every benchmark.
BENCHFLAGS ?=
bench: deps
	$(XVFB) $(GO) run ./testkit/cmd/benchtable $(BENCHFLAGS)

bench-all: deps
	$(XVFB) $(GO) test -run='^$$' -bench=. -benchmem $(PKGS)

# netbench prints how smoothly the world is drawn over a bad network: headless runs against the
# embedded host through a proxy adding delay, jitter (order kept) and stalls, with the adaptive
# and the fixed render clock, 2 × 30 s each (NETBENCHFLAGS="-runs 1 -for 10s -only stall" to
# narrow it). Everything stays on 127.0.0.1.
NETBENCHFLAGS ?=
netbench:
	$(GO) run ./testkit/cmd/netbench $(NETBENCHFLAGS)

# membench prints the window's peak resident set beside an empty Ebiten window's of the same size,
# in the same run: the start screen, a tanks 0.13 match and downtown at night, 5 runs each
# (MEMBENCHFLAGS="-runs 2 -for 8s" to shorten it).
MEMBENCHFLAGS ?=
membench: build
	$(XVFB) $(GO) run ./testkit/cmd/membench -bin bin/vimpclient $(MEMBENCHFLAGS)

# fuzz runs every fuzz target for FUZZTIME each.
fuzz: deps
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for t in $$($(XVFB) $(GO) test -list='^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(XVFB) $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; done

clean:
	rm -rf bin dist $(SYSO)
