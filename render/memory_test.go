package render

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/gamemap"
)

// largestMapText is a map at the size DefaultLimits accepts: two levels of
// 960×960 cells (1.8 million, within the 2 million of all levels and the
// 4 MiB of text), 4096 sprite frames of a 2048×2048 sheet, 256 crates. With
// everywhere, each level has 32 layers that all draw every cell, the most
// static layers the limits allow; otherwise it has the layers a map has.
func largestMapText(everywhere bool) []byte {
	const n = 960
	var b strings.Builder
	grid := func(tile func(x, y int) int) {
		b.WriteByte('[')
		for y := range n {
			if y > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			for x := range n {
				if x > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Itoa(tile(x, y)))
			}
			b.WriteByte(']')
		}
		b.WriteByte(']')
	}
	layers := func(normal string) string {
		if !everywhere {
			return normal
		}
		var l strings.Builder
		l.WriteByte('{')
		for i := range 32 {
			if i > 0 {
				l.WriteByte(',')
			}
			fmt.Fprintf(&l, `"%d":[0,1,2,3,4,5,6,7,8,9]`, i+1)
		}
		l.WriteByte('}')
		return l.String()
	}
	fmt.Fprintf(&b, `{"setId":"c1","scale":0.3,"step":32,"physicsStatic":[1],"layers":%s,"map":`, layers(`{"1":[0,4,5,6,7,8,9],"2":[1]}`))
	grid(func(x, y int) int {
		switch {
		case x == 0 || y == 0 || x == n-1 || y == n-1 || (x%40 == 0 && y%7 != 0):
			return 1
		}
		return 4 + (x*7+y*3)%6
	})
	fmt.Fprintf(&b, `,"levels":{"1":{"floor":[2,3],"walls":[3],"layers":%s,"map":`, layers(`{"1":[2],"4":[3]}`))
	grid(func(x, y int) int {
		switch {
		case y < 399 || y > 410 || x < 99 || x > 860:
			return 0
		case y == 399 || y == 410 || x == 860:
			return 3
		}
		return 2
	})
	b.WriteString(`}},"spriteSheet":{"img":"tiles.png","frames":[`)
	for i := range 4096 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "[%d,%d,32,32]", i%64*32, i/64*32)
	}
	b.WriteString(`]},"physicsDynamic":[`)
	for i := range 256 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"position":[%d,%d],"width":32,"height":32,"density":8,"img":"crate.png","layer":3}`, (3+i%60)*32*15, (3+i/60)*32*40)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// bigSheet is a 2048×2048 sheet: the largest of which a CPU copy is kept.
func bigSheet() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 2048, 2048))
	for y := range 2048 {
		for x := range 2048 {
			img.SetRGBA(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	return img
}

// peakRSS is the process's peak resident set (VmHWM) in bytes.
func peakRSS() (int64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// BenchmarkMemoryMap draws a map at 1920×1080 while the camera sweeps it
// from corner to corner, then reports the process's peak resident set
// (peak-RSS-MB: run one map per process, the figure is the whole test
// process's, the window loop, Ebiten and llvmpipe included) and the chunks'
// texture memory at the end (chunk-MB, chunks × 512² × 4 bytes), with the
// chunks baked. Maps: pool-mini (the size of a normal match), largest (the
// largest DefaultLimits accepts) and largest-every-layer (its 64 layers all
// drawing every cell). One op is one frame.
func BenchmarkMemoryMap(b *testing.B) {
	for _, name := range []string{"pool-mini", "largest", "largest-every-layer"} {
		b.Run(name, func(b *testing.B) {
			var text []byte
			var sheet image.Image = refSheet()
			switch name {
			case "pool-mini":
				text = benchMap(benchMaps[0])
			default:
				text = largestMapText(name == "largest-every-layer")
				sheet = bigSheet()
				if len(text) > gamemap.DefaultLimits().Bytes {
					b.Fatalf("%d bytes of text is beyond the limit", len(text))
				}
			}
			sc, core := mapScene(b, text, 0, 0)
			text = nil // the world parses its own copy, as the client does
			defer sc.r.Release()
			sc.r.SetAsset("tiles.png", sheet)
			g := &benchGame{sc: sc}
			off := ebiten.NewImage(1920, 1080)
			defer off.Deallocate()
			n := b.N
			j := &job{g: g, frames: n, w: 1920, h: 1080, done: make(chan struct{})}
			j.each = func(_ *ebiten.Image, frame int) {
				m := sc.w.Map()
				if m == nil {
					return
				}
				w, h := m.WorldSize()
				f := float32(frame) / float32(max(1, n-1))
				core.hot.Camera = [2]float32{float32(w) * f, float32(h) * f}
				sc.now += 16.7
				sc.w.Tick(sc.now, 16.7)
				sc.r.Draw(off, sc.w, 1)
			}
			theDriver.jobs <- j
			<-j.done
			if sc.err != nil {
				b.Fatal(sc.err)
			}
			baked, bytes, _ := sc.r.BakeStats()
			if rss, ok := peakRSS(); ok {
				b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.Sys)/(1<<20), "go-sys-MB")
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "go-heap-MB")
			b.ReportMetric(float64(bytes)/(1<<20), "chunk-MB")
			b.ReportMetric(float64(baked), "chunks-baked")
		})
	}
}
