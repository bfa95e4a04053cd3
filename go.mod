module vimpclient

go 1.26

require (
	github.com/coder/websocket v1.8.15
	github.com/ebitengine/oto/v3 v3.4.0
	github.com/hajimehoshi/go-mp3 v0.3.4
)

require (
	github.com/ebitengine/purego v0.9.0 // indirect
	golang.org/x/sys v0.36.0 // indirect
)
