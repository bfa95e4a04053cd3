module vimpclient

go 1.26
