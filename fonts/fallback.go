package fonts

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/fontscan"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"vimpclient/internal/localfile"
)

// Bounds on what the fallback chain loads: a font file larger than this is
// skipped (no real font needs it), and at most this many system fonts join
// the chain.
const (
	maxFontFile  = 64 << 20
	maxFallbacks = 24
)

// systemFonts is the index of the system's fonts, built in the background
// by fontscan, which reads fontconfig's configuration for its directories
// (and the standard ones) and keeps a coverage index on disk between runs.
type systemFonts struct {
	ready chan struct{} // closed when list and err are set
	// dir keeps the index between runs; scanning tells the scan began.
	// The scan starts when a rune first needs a font the bundled ones
	// lack: a session in Latin script never pays for reading every font
	// on the system (on a first run, without an index on disk, that is
	// a dozen MB of garbage and a second of a core).
	dir      string
	scanning bool
	list     []fontscan.Footprint
	err      error
	log      *slog.Logger
	taken    bool // the game loop saw ready
	tried    map[string]bool
	// background loads the fonts runes need on a goroutine, one at a
	// time (a font file takes tens of milliseconds to read and parse):
	// inflight is the load going on (nil: none), queue the runes waiting
	// for their turn, wanted the runes of both.
	background bool
	inflight   chan loaded
	queue      []rune
	wanted     map[rune]bool
}

// loaded is the outcome of one background load: the font for r, if any.
type loaded struct {
	r  rune
	fb fallback
	ok bool
}

// maxQueued bounds the runes waiting for a background load; a rune past
// it is drawn as a box until the caches are next cleared.
const maxQueued = 256

func scanSystemFonts(opts Options) *systemFonts {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &systemFonts{ready: make(chan struct{}), log: log, tried: map[string]bool{}, background: opts.Background, wanted: map[rune]bool{}}
	s.dir = opts.CacheDir
	if s.dir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			s.dir = filepath.Join(d, "vimpclient", "fonts")
		} else {
			s.dir = filepath.Join(os.TempDir(), "vimpclient-fonts")
		}
	}
	return s
}

// scan starts indexing the system's fonts on a goroutine, once; ready is
// closed when it is done.
func (s *systemFonts) scan() {
	if s == nil || s.scanning {
		return
	}
	s.scanning = true
	go func() {
		defer close(s.ready)
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			s.err = fmt.Errorf("font index directory: %w", err)
			return
		}
		fps, err := fontscan.SystemFonts(slogPrintf{s.log}, s.dir)
		if err != nil {
			s.err = fmt.Errorf("system fonts: %w", err)
			return
		}
		sort.SliceStable(fps, func(i, j int) bool { return preferred(&fps[i], &fps[j]) })
		s.list = fps
	}()
}

// slogPrintf hands fontscan's notes to slog at debug level.
type slogPrintf struct{ log *slog.Logger }

func (l slogPrintf) Printf(format string, args ...any) {
	l.log.Log(context.Background(), slog.LevelDebug, "fonts: "+fmt.Sprintf(format, args...))
}

// rank orders candidate fonts: upright before italic, normal width before
// condensed, proportional before monospaced, sans before serif, regular
// weight first; then by family and file for a stable choice.
func rank(fp *fontscan.Footprint) [5]int {
	var r [5]int
	if fp.Aspect.Style != font.StyleNormal {
		r[0] = 1
	}
	if fp.Aspect.Stretch != font.StretchNormal {
		r[1] = 1
	}
	if strings.Contains(fp.Family, "mono") {
		r[2] = 1
	}
	if strings.Contains(fp.Family, "serif") && !strings.Contains(fp.Family, "sans") {
		r[3] = 1
	}
	w := int(fp.Aspect.Weight) - int(font.WeightNormal)
	if w < 0 {
		w = -w
	}
	r[4] = w
	return r
}

func preferred(a, b *fontscan.Footprint) bool {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		for i := range ra {
			if ra[i] != rb[i] {
				return ra[i] < rb[i]
			}
		}
	}
	if a.Family != b.Family {
		return a.Family < b.Family
	}
	if a.Location.File != b.Location.File {
		return a.Location.File < b.Location.File
	}
	return a.Location.Index < b.Location.Index
}

// fallback is one system font in the chain, with its bold face when the
// family has one.
type fallback struct {
	cover          fontscan.RuneSet
	regular, bold  *text.GoTextFaceSource
	regularFaces   map[float64]*text.GoTextFace
	boldFaces      map[float64]*text.GoTextFace
	family, source string
}

func (fb *fallback) has(r rune) bool { return fb.cover.Contains(r) }

func (fb *fallback) face(bold bool, px float64) *text.GoTextFace {
	m, src := fb.regularFaces, fb.regular
	if bold && fb.bold != nil {
		m, src = fb.boldFaces, fb.bold
	}
	if fc, ok := m[px]; ok {
		return fc
	}
	fc := &text.GoTextFace{Source: src, Size: px}
	if len(m) >= maxFaces {
		clear(m)
	}
	m[px] = fc
	return fc
}

// canLoad reports whether a font may be loaded for a rune now: the index
// is in use and the chain, of n fallbacks, is not full.
func (s *systemFonts) canLoad(n int) bool { return s != nil && s.taken && n < maxFallbacks }

// want asks for a font for r in the background, after the loads asked
// for before it; it reports false when none can be asked for (the rune is
// then drawn as a box).
func (s *systemFonts) want(r rune, n int) bool {
	if !s.canLoad(n) {
		return false
	}
	if s.wanted[r] {
		return true
	}
	if s.inflight != nil && len(s.queue) >= maxQueued {
		return false
	}
	s.wanted[r] = true
	if s.inflight == nil {
		s.start(r)
	} else {
		s.queue = append(s.queue, r)
	}
	return true
}

// start loads the font for r on a goroutine. Only that goroutine reads the
// files and tried until its result is taken, and the next load starts only
// then.
func (s *systemFonts) start(r rune) {
	ch := make(chan loaded, 1)
	s.inflight = ch
	go func() {
		fb, ok := s.load(r)
		ch <- loaded{r: r, fb: fb, ok: ok}
	}()
}

// take returns the background load's result once it is done (wait:
// waiting for it); ok is false while none is done.
func (s *systemFonts) take(wait bool) (l loaded, ok bool) {
	if s == nil || s.inflight == nil {
		return loaded{}, false
	}
	if wait {
		l = <-s.inflight
	} else {
		select {
		case l = <-s.inflight:
		default:
			return loaded{}, false
		}
	}
	s.inflight = nil
	delete(s.wanted, l.r)
	return l, true
}

// next starts the load of the first queued rune that has does not report
// covered (a font loaded since may have it).
func (s *systemFonts) next(has func(rune) bool) {
	for s.inflight == nil && len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		if has(r) {
			delete(s.wanted, r)
			continue
		}
		s.start(r)
	}
	if len(s.queue) == 0 {
		s.queue = nil // the drained array is let go
	}
}

// load finds the preferred system font with a glyph for r and loads it
// (its bold partner too). It reports false when no font has r; the caller
// checked canLoad.
func (s *systemFonts) load(r rune) (fallback, bool) {
	for i := range s.list {
		fp := &s.list[i]
		key := fp.Location.File + "#" + fmt.Sprint(fp.Location.Index)
		if s.tried[key] || !fp.Runes.Contains(r) {
			continue
		}
		s.tried[key] = true
		reg, err := loadSource(fp.Location)
		if err != nil {
			s.log.Debug("font not loaded", "file", fp.Location.File, "err", err)
			continue
		}
		fb := fallback{cover: fp.Runes, regular: reg, family: fp.Family, source: fp.Location.File,
			regularFaces: map[float64]*text.GoTextFace{}, boldFaces: map[float64]*text.GoTextFace{}}
		if b := s.boldPartner(fp); b != nil {
			if src, err := loadSource(b.Location); err == nil {
				fb.bold = src
			}
		}
		s.log.Debug("font fallback", "family", fp.Family, "file", fp.Location.File, "for", fmt.Sprintf("U+%04X", r))
		return fb, true
	}
	return fallback{}, false
}

// boldPartner is the upright bold member of fp's family, nil when there is
// none.
func (s *systemFonts) boldPartner(fp *fontscan.Footprint) *fontscan.Footprint {
	var best *fontscan.Footprint
	for i := range s.list {
		c := &s.list[i]
		if c.Family != fp.Family || c.Aspect.Style != font.StyleNormal || c.Aspect.Weight < 600 || c.Location == fp.Location {
			continue
		}
		if best == nil || abs32(float32(c.Aspect.Weight)-700) < abs32(float32(best.Aspect.Weight)-700) {
			best = c
		}
	}
	return best
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// loadSource reads one font (a member of a collection when loc.Index says so).
func loadSource(loc fontscan.Location) (*text.GoTextFaceSource, error) {
	b, err := localfile.Read(loc.File, maxFontFile, "font file")
	if err != nil {
		return nil, err
	}
	ext := strings.ToLower(filepath.Ext(loc.File))
	if ext == ".ttc" || ext == ".otc" || loc.Index > 0 {
		all, err := text.NewGoTextFaceSourcesFromCollection(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		if int(loc.Index) >= len(all) {
			return nil, fmt.Errorf("no face %d in a collection of %d", loc.Index, len(all))
		}
		return all[loc.Index], nil
	}
	return text.NewGoTextFaceSource(bytes.NewReader(b))
}
