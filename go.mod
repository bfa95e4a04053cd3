module vimpclient

go 1.26

require github.com/hajimehoshi/go-mp3 v0.3.4
