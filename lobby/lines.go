package lobby

import (
	"bufio"
	"context"
	"io"
)

// maxLine bounds one line read for a Login (a pasted token is far shorter).
const maxLine = 16 << 10

// ScanLines reads r line by line into the channel a Login reads what the
// player types from; it is closed at the end of r. A line nobody takes
// before ctx ends stops the reading.
func ScanLines(ctx context.Context, r io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return lines
}
