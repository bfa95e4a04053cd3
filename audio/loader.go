package audio

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"vimpclient/audio/mp3"
	"vimpclient/audio/pcm"
	"vimpclient/audio/wav"
)

// MaxFileBytes bounds one sound file (4 MiB: 20 s of 16-bit mono WAV, minutes of MP3; a game's
// effects are a few KiB to a few hundred).
const MaxFileBytes = 4 << 20

// MaxCatalogBytes bounds the decoded sound of one catalog together: 8 MiB of float32 samples at
// the mixer's rate, 43 s of mono sound at 48 kHz (a game's effects take seconds: the real tanks
// catalog about 11 s). A file's decoded size is reserved from it before the file is decoded (from
// the header of a WAV, the frame headers of an MP3), together with the decoder's buffer at the
// file's own rate while it is resampled, so a host cannot make the client hold more than that
// however many files it lists or however long they claim to be.
const MaxCatalogBytes = 8 << 20

// loadWorkers is how many files decode at once (the machine the client runs on may be small).
const loadWorkers = 2

// Codecs the client decodes, in the order it would like them.
func supportedCodecs() []string { return []string{"mp3", "wav"} }

// Fetcher reads one file relative to the active game's assetsBase, e.g. "sounds/shot.mp3". The
// client's asset downloader is one (its sound side); tests use FetchFunc. The sound manager knows
// paths only, never URLs or HTTP.
type Fetcher interface {
	Fetch(ctx context.Context, path string) ([]byte, error)
}

// Expecter is a Fetcher that can count a load's files before they are fetched, so a progress bar
// shows the whole catalog from the start of its load. Init tells it every path at once; a path
// counted this way stays counted until fetched or until ctx ends.
type Expecter interface {
	Fetcher
	Expect(ctx context.Context, paths []string)
}

// FetchFunc adapts a function to Fetcher.
type FetchFunc func(ctx context.Context, path string) ([]byte, error)

// Fetch calls f.
func (f FetchFunc) Fetch(ctx context.Context, path string) ([]byte, error) { return f(ctx, path) }

// DecodeFile decodes a sound file of the given codec to float PCM at its own rate.
func DecodeFile(codec string, data []byte) (pcm.Buffer, error) {
	return decodeWithin(codec, data, nil)
}

// decodeWithin decodes a file after reserve accepted the frames, channels and rate its header
// gives (nil: anything).
func decodeWithin(codec string, data []byte, reserve func(frames, channels, rate int) error) (pcm.Buffer, error) {
	switch codec {
	case "mp3":
		b, _, err := mp3.DecodeWithin(data, reserve)
		return b, err
	case "wav":
		if reserve != nil {
			info, err := wav.Probe(data)
			if err != nil {
				return pcm.Buffer{}, err
			}
			if err := reserve(info.Frames, info.Channels, info.Rate); err != nil {
				return pcm.Buffer{}, err
			}
		}
		return wav.Decode(data)
	default:
		return pcm.Buffer{}, fmt.Errorf("audio: no decoder for %q", codec)
	}
}

// soundBudget counts the bytes of decoded sound one catalog holds, or is about to, against
// MaxCatalogBytes.
type soundBudget struct {
	used  atomic.Int64
	limit int64
}

// take reserves n bytes, or none and an error when they do not fit. It
// compares before it adds, so a reservation that is refused never shows,
// even for a moment, to a smaller one decoding beside it.
func (b *soundBudget) take(n int64) error {
	for {
		used := b.used.Load()
		if n < 0 || n > b.limit-used {
			return fmt.Errorf("the catalog's sounds would take more than %d bytes decoded together", b.limit)
		}
		if b.used.CompareAndSwap(used, used+n) {
			return nil
		}
	}
}

// give returns n reserved bytes.
func (b *soundBudget) give(n int64) { b.used.Add(-n) }

// Loading tracks the background load started by Init.
type Loading struct {
	done           chan struct{}
	loaded, failed atomic.Int32
	total          int
	budget         soundBudget // decoded bytes kept so far, against MaxCatalogBytes
}

// Done is closed when every sound has loaded or failed (or the load was cancelled).
func (l *Loading) Done() <-chan struct{} { return l.done }

// Counts returns how many sounds loaded, failed, and the total.
func (l *Loading) Counts() (loaded, failed, total int) {
	return int(l.loaded.Load()), int(l.failed.Load()), l.total
}

// Init installs a catalog (replacing any previous one) and starts fetching and decoding every
// sound in the background. It returns at once: the handshake must not wait for sounds. Until a
// sound arrives its name is known but silent.
func (m *Manager) Init(ctx context.Context, cat *Catalog, f Fetcher) *Loading {
	if m.cancel != nil {
		m.cancel()
	}
	m.cat = cat
	variant, itd := m.cfg.Variant, m.cfg.ITD // client settings survive a new catalog
	m.cfg = cat.Spatial
	m.cfg.Variant, m.cfg.ITD = variant, itd
	m.entries = make(map[string]*entry, len(cat.Sounds))
	jobs := make([]*entry, 0, len(cat.Sounds))
	for _, o := range cat.Sounds {
		e := &entry{opts: o}
		m.entries[o.Name] = e
		jobs = append(jobs, e)
	}
	l := &Loading{done: make(chan struct{}), total: len(jobs)}
	l.budget.limit = m.soundBudget
	codec, ok := cat.Codec(supportedCodecs()...)
	if !ok {
		m.log.Error("audio: no codec in codecList can be decoded; the game will be silent",
			"codecList", cat.Codecs, "supported", supportedCodecs())
		for _, e := range jobs {
			e.state.Store(sampleFailed)
		}
		l.failed.Store(int32(len(jobs)))
		close(l.done)
		return l
	}
	lctx, cancel := context.WithCancel(ctx)
	m.cancel = cancel
	if e, ok := f.(Expecter); ok {
		paths := make([]string, len(jobs))
		for i, j := range jobs {
			paths[i] = soundPath(j.opts.File, codec)
		}
		e.Expect(lctx, paths)
	}
	rate, log := m.mixer.Rate(), m.log
	go func() {
		defer close(l.done)
		queue := make(chan *entry)
		var wg sync.WaitGroup
		for w := 0; w < loadWorkers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for e := range queue {
					buf, err := l.loadOne(lctx, f, e.opts.File, codec, rate)
					if err != nil {
						e.state.Store(sampleFailed)
						l.failed.Add(1)
						if lctx.Err() == nil {
							log.Warn("audio: sound not loaded", "name", e.opts.Name, "err", err)
						}
						continue
					}
					e.buf.Store(buf)
					e.state.Store(sampleReady)
					l.loaded.Add(1)
				}
			}()
		}
	feed:
		for _, e := range jobs {
			select {
			case queue <- e:
			case <-lctx.Done():
				break feed
			}
		}
		close(queue)
		wg.Wait()
	}()
	return l
}

// soundPath is where a catalog file is under the assets base.
func soundPath(file, codec string) string { return "sounds/" + file + "." + codec }

// loadOne fetches, decodes and resamples one file within the load's budget.
func (l *Loading) loadOne(ctx context.Context, f Fetcher, file, codec string, rate int) (*pcm.Buffer, error) {
	path := soundPath(file, codec)
	data, err := f.Fetch(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("fetch %s: larger than %d bytes", path, MaxFileBytes)
	}
	// The reservation covers the result at the mixer's rate and, while it is resampled, the
	// decoder's buffer at the file's own rate; what the result does not take is given back. Files
	// decoding at once share the budget, so it bounds their buffers together.
	var reserved int64
	reserve := func(frames, channels, from int) error {
		out, err := pcm.ResampledFrames(frames, from, rate)
		if err != nil {
			return err
		}
		n := int64(out) * int64(channels)
		if from != rate {
			n += int64(frames) * int64(channels)
		}
		if err := l.budget.take(n * 4); err != nil {
			return err
		}
		reserved = n * 4
		return nil
	}
	b, err := decodeWithin(codec, data, reserve)
	if err == nil && b.Frames() == 0 {
		err = errors.New("no samples")
	}
	if err == nil {
		b, err = pcm.Resample(b, rate)
	}
	if err != nil {
		l.budget.give(reserved)
		return nil, fmt.Errorf("decode %s: %w", path, err)
	}
	l.budget.give(reserved - int64(len(b.Data))*4)
	return &b, nil
}
