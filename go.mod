module vimpclient

go 1.26

require github.com/coder/websocket v1.8.15 // indirect
