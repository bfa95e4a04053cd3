# vimpclient build, test and benchmark entry points.
# `make run` and `make test` install what they need first (Debian packages via `deps`).

GO      ?= go
PKGS    ?= ./...
FUZZTIME ?= 5m
# Debian packages Ebiten (cgo, X11, GL), oto (ALSA) and the window tests (Xvfb) need, and
# a small CJK font (WenQuanYi Micro Hei, about 5 MB) the HUD's font fallback tests draw with.
DEB_PKGS := gcc pkg-config libx11-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev \
            libgl1-mesa-dev libxxf86vm-dev libasound2-dev xvfb xauth fonts-wqy-microhei fonts-symbola
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test vet bench fuzz dist clean

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

# build makes the one client program: the window, -headless, serve, frames, replay.
build: deps
	$(GO) build -o bin/vimpclient ./cmd/vimpclient

# dist cross-builds release binaries: Linux amd64 (cgo, this machine's libraries)
# and Windows amd64 (the graphics and sound libraries need no cgo there).
dist: deps
	mkdir -p dist
	GOOS=linux GOARCH=amd64 $(GO) build -trimpath -o dist/vimpclient-linux-amd64 ./cmd/vimpclient
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -trimpath -o dist/vimpclient-windows-amd64.exe ./cmd/vimpclient

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

bench: deps
	$(XVFB) $(GO) test -run='^$$' -bench=. -benchmem $(PKGS)

# fuzz runs every fuzz target for FUZZTIME each.
fuzz: deps
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for t in $$($(XVFB) $(GO) test -list='^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(XVFB) $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; done

clean:
	rm -rf bin dist
