package window

import (
	"runtime/metrics"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/gameloop"
)

// memoryEvery is how many frames pass between two looks at the window's
// memory: often enough to catch a peak that lasts a second, rarely enough
// to cost nothing a frame.
const memoryEvery = 60

// memoryWatch keeps the peaks of what the window holds, for the summary:
// the GPU images Ebiten counts, the memory the Go runtime has mapped, and
// the process's resident set (where the platform tells it).
type memoryWatch struct {
	frames  int
	samples []metrics.Sample
	peak    gameloop.MemorySummary
}

func newMemoryWatch() *memoryWatch {
	return &memoryWatch{samples: []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}}
}

// frame counts one frame and looks at memory every memoryEvery frames.
func (m *memoryWatch) frame() {
	m.frames++
	if m.frames%memoryEvery != 1 {
		return
	}
	m.look()
}

// look updates the peaks now.
func (m *memoryWatch) look() {
	var d ebiten.DebugInfo
	ebiten.ReadDebugInfo(&d)
	m.peak.GPUImageBytesMax = max(m.peak.GPUImageBytesMax, d.TotalGPUImageMemoryUsageInBytes)
	metrics.Read(m.samples)
	if v := m.samples[0].Value; v.Kind() == metrics.KindUint64 {
		m.peak.GoRuntimeBytesMax = max(m.peak.GoRuntimeBytesMax, v.Uint64())
	}
	if v := m.samples[1].Value; v.Kind() == metrics.KindUint64 {
		m.peak.GoHeapObjectBytesMax = max(m.peak.GoHeapObjectBytesMax, v.Uint64())
	}
	if rss, ok := peakRSS(); ok {
		m.peak.PeakRSSBytes = rss
	}
}

// summary is the peaks seen, with one last look.
func (m *memoryWatch) summary() *gameloop.MemorySummary {
	m.look()
	s := m.peak
	return &s
}
