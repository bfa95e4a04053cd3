package assets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
)

// Options configure a Downloader.
type Options struct {
	// Client makes every request. Pass the connection's client: it is the
	// one that trusts an extra CA for https hosts. Its redirects are held
	// under the assets base (the client itself is not changed).
	Client *http.Client
	// Base is the game's assets base, an absolute http(s) URL (the game
	// manifest's assetsBase resolved against the host).
	Base string
	// Host and Version key the disk cache: the session target's host and
	// game version (a new build of the game never reads an old one's files).
	// An empty Host takes the base's.
	Host, Version string
	// Cache keeps files across runs (nil: none).
	Cache *Cache
	// Limits bound sizes and concurrency (zero fields: DefaultLimits).
	Limits Limits
	Log    *slog.Logger
}

// Progress counts the files a downloader was asked for.
type Progress struct {
	Done   int // finished: loaded or failed
	Failed int // of Done, the files that could not be had
	Total  int // asked for, by Expect or a fetch
}

// Loading reports whether some file is still to come.
func (p Progress) Loading() bool { return p.Done < p.Total }

// Fraction is Done/Total (1 when nothing was asked for).
func (p Progress) Fraction() float64 {
	if p.Total <= 0 {
		return 1
	}
	return float64(p.Done) / float64(p.Total)
}

// Downloader fetches what a host serves for one game under its assets
// base: images, sounds, manifests and maps. Each file is fetched once at a
// time whoever asks (askers of a file under way wait for it), through the
// disk cache when there is one, a few files at once, within its kind's size
// limit. A file that failed (404, over a limit, undecodable) stays failed:
// it is reported once and never asked for again. It is safe for concurrent
// use.
type Downloader struct {
	base   *url.URL
	client *http.Client
	cache  *Cache
	ns     string
	lim    Limits
	log    *slog.Logger
	slots  chan struct{}
	// textureBytes counts the decoded images' bytes as RGBA textures
	// against Limits.TextureBytes.
	textureBytes atomic.Int64

	mu    sync.Mutex
	files map[fileKey]*file
	prog  [JSON + 1]Progress // per kind

	expectEnded func() // tests: called when an Expect's context has ended and been handled
}

type fileKey struct {
	kind Kind
	path string
}

type fileState uint8

const (
	pending fileState = iota // asked for, not started
	running
	loaded
	failed
)

// file is what a downloader knows of one path. A loaded file keeps no
// bytes: they went to whoever asked.
type file struct {
	kind   Kind
	state  fileState
	wanted int   // live Expect registrations
	run    *run  // the download under way
	err    error // why it failed
}

// run is one download; waiters read res and err once done is closed.
type run struct {
	done chan struct{}
	res  result
	err  error
}

type result struct {
	data []byte
	img  image.Image // for Image files
}

// New returns a downloader for the assets under o.Base.
func New(o Options) (*Downloader, error) {
	if o.Client == nil {
		return nil, errors.New("assets: no HTTP client")
	}
	base, err := ParseBase(o.Base)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Host == "" {
		o.Host = base.Host
	}
	lim := o.Limits.withDefaults()
	d := &Downloader{base: base, cache: o.Cache, ns: namespace(o.Host, o.Version), lim: lim, log: o.Log,
		slots: make(chan struct{}, lim.Parallel), files: map[fileKey]*file{}}
	c := *o.Client // a copy: the connection's client keeps its own redirect policy
	inner := o.Client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !within(base, req.URL) {
			return fmt.Errorf("redirect to %s leaves the assets base %s: %w", req.URL, base, ErrRefused)
		}
		if inner != nil {
			return inner(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	d.client = &c
	return d, nil
}

// Base is the assets base every path is resolved under.
func (d *Downloader) Base() string { return d.base.String() }

// URL is the address of the file at path p under the base.
func (d *Downloader) URL(p string) (string, error) {
	u, err := Resolve(d.base, p)
	if err != nil {
		return "", fmt.Errorf("assets: %w", err)
	}
	return u.String(), nil
}

// Fetch returns the file at path p under the base (e.g. "sounds/shot.mp3",
// "maps/manifest.json"), checked as a file of kind k: within its size limit,
// an image's header within its dimensions, JSON well formed. The bytes are
// the caller's to keep but not to change.
func (d *Downloader) Fetch(ctx context.Context, k Kind, p string) ([]byte, error) {
	r, err := d.get(ctx, k, p)
	return r.data, err
}

// Image returns the decoded image img/<file>, its dimensions checked from
// its header before any pixel is decoded.
func (d *Downloader) Image(ctx context.Context, file string) (image.Image, error) {
	r, err := d.get(ctx, Image, ImagePath(file))
	return r.img, err
}

// ImagePath is the path under the base of the image file a part names.
func ImagePath(file string) string { return "img/" + file }

// Map returns the catalog map called name (maps/<name>, the name one path
// segment; spaces are escaped in the URL).
func (d *Downloader) Map(ctx context.Context, name string) ([]byte, error) {
	if strings.Contains(name, "/") {
		return nil, fmt.Errorf("assets: map name %q: a name is one path segment: %w", name, ErrRefused)
	}
	return d.Fetch(ctx, JSON, "maps/"+name)
}

// Expect counts files before they are fetched, so that Progress shows the
// whole of a load from its start (a sound catalog, the images of a map).
// A file still not fetched when ctx ends stops counting: the load it was
// expected for gave up. Paths that Fetch would refuse are not counted.
func (d *Downloader) Expect(ctx context.Context, k Kind, paths ...string) {
	type want struct {
		key fileKey
		f   *file
	}
	var wants []want
	d.mu.Lock()
	for _, p := range paths {
		if CheckPath(p) != nil {
			continue
		}
		key := fileKey{k, p}
		f, err := d.fileLocked(key)
		if err != nil {
			continue
		}
		f.wanted++
		wants = append(wants, want{key, f})
	}
	d.mu.Unlock()
	if len(wants) == 0 || ctx.Done() == nil {
		return
	}
	context.AfterFunc(ctx, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, w := range wants {
			w.f.wanted--
			if w.f.wanted == 0 && w.f.state == pending && d.files[w.key] == w.f {
				d.deleteLocked(w.key, w.f) // the load it was counted for gave up
			}
		}
		if d.expectEnded != nil {
			d.expectEnded()
		}
	})
}

// Progress counts the files asked for so far, of every kind.
func (d *Downloader) Progress() Progress {
	d.mu.Lock()
	defer d.mu.Unlock()
	var p Progress
	for _, k := range d.prog {
		p.Done, p.Failed, p.Total = p.Done+k.Done, p.Failed+k.Failed, p.Total+k.Total
	}
	return p
}

// ProgressOf counts the files of one kind asked for so far (the window
// covers the game while its images load, not while its sounds do).
func (d *Downloader) ProgressOf(k Kind) Progress {
	d.mu.Lock()
	defer d.mu.Unlock()
	if int(k) >= len(d.prog) {
		return Progress{}
	}
	return d.prog[k]
}

// fileLocked returns the file at key, counting a new one.
func (d *Downloader) fileLocked(key fileKey) (*file, error) {
	if f := d.files[key]; f != nil {
		return f, nil
	}
	if len(d.files) >= d.lim.Files {
		return nil, fmt.Errorf("%s: more than %d files from one host: %w", key.path, d.lim.Files, ErrRefused)
	}
	f := &file{kind: key.kind}
	d.files[key] = f
	d.prog[f.kind].Total++
	return f, nil
}

func (d *Downloader) deleteLocked(key fileKey, f *file) {
	d.setStateLocked(f, pending)
	delete(d.files, key)
	d.prog[f.kind].Total--
}

// setStateLocked moves f to s, keeping the progress counts.
func (d *Downloader) setStateLocked(f *file, s fileState) {
	count := func(s fileState, n int) {
		if s == loaded || s == failed {
			d.prog[f.kind].Done += n
		}
		if s == failed {
			d.prog[f.kind].Failed += n
		}
	}
	count(f.state, -1)
	count(s, 1)
	f.state = s
}

// get runs or joins the download of one file.
func (d *Downloader) get(ctx context.Context, k Kind, p string) (result, error) {
	u, err := Resolve(d.base, p)
	if err != nil {
		return result{}, fmt.Errorf("assets: %w", err)
	}
	key := fileKey{k, p}
	for {
		if err := ctx.Err(); err != nil {
			return result{}, err
		}
		d.mu.Lock()
		f, err := d.fileLocked(key)
		if err != nil {
			d.mu.Unlock()
			return result{}, fmt.Errorf("assets: %w", err)
		}
		switch f.state {
		case failed:
			err := f.err
			d.mu.Unlock()
			return result{}, err
		case running:
			r := f.run
			d.mu.Unlock()
			select {
			case <-r.done:
			case <-ctx.Done():
				return result{}, ctx.Err()
			}
			if r.err == nil {
				return r.res, nil
			}
			continue // failed for good (the next turn says so), or its asker gave up: try again
		}
		r := &run{done: make(chan struct{})}
		f.run = r
		d.setStateLocked(f, running)
		d.mu.Unlock()

		r.res, r.err = d.load(ctx, k, p, u)

		d.mu.Lock()
		f.run = nil
		switch {
		case r.err == nil:
			d.setStateLocked(f, loaded)
		case ctx.Err() != nil: // the asker gave up: not the file's fault
			if f.wanted > 0 {
				d.setStateLocked(f, pending)
			} else {
				d.deleteLocked(key, f)
			}
		default:
			f.err = r.err
			d.setStateLocked(f, failed)
			d.log.Warn("asset unavailable", "file", p, "err", r.err)
		}
		d.mu.Unlock()
		close(r.done)
		return r.res, r.err
	}
}

// load reads one file from the cache, or else from the host, and checks it.
func (d *Downloader) load(ctx context.Context, k Kind, p string, u *url.URL) (result, error) {
	select {
	case d.slots <- struct{}{}:
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
	defer func() { <-d.slots }()
	key := u.String()
	if d.cache != nil {
		b, err := d.cache.get(d.ns, key, d.lim.bytes(k))
		if err == nil {
			if res, err := d.accept(k, p, b); err == nil {
				return res, nil
			}
			d.cache.drop(d.ns, key) // stored by another build, or under other limits
		} else if !errors.Is(err, fs.ErrNotExist) {
			d.log.Debug("asset cache entry unreadable, fetching again", "file", p, "err", err)
		}
	}
	b, err := d.download(ctx, k, p, u)
	if err != nil {
		return result{}, err
	}
	res, err := d.accept(k, p, b)
	if err != nil {
		return result{}, err
	}
	if d.cache != nil {
		if err := d.cache.put(d.ns, key, b); err != nil {
			d.log.Warn("asset cache", "file", p, "err", err)
		}
	}
	return res, nil
}

// accept checks the bytes of a file of kind k.
func (d *Downloader) accept(k Kind, p string, b []byte) (result, error) {
	if n, lim := int64(len(b)), d.lim.bytes(k); n > lim {
		return result{}, &LimitError{File: p, Kind: k, What: "bytes", Got: n, Limit: lim}
	}
	switch k {
	case Image:
		img, err := decodeImage(p, b, d.lim, func(px int64) error {
			if n := d.textureBytes.Add(4 * px); n > d.lim.TextureBytes {
				d.textureBytes.Add(-4 * px)
				return &LimitError{File: p, Kind: Image, What: "texture bytes with the images before it", Got: n, Limit: d.lim.TextureBytes}
			}
			return nil
		})
		if err != nil {
			return result{}, err
		}
		return result{data: b, img: img}, nil
	case JSON:
		if !json.Valid(b) {
			return result{}, fmt.Errorf("%s: not JSON", p)
		}
	}
	return result{data: b}, nil
}

// download GETs one file, reading no more than its kind's limit.
func (d *Downloader) download(ctx context.Context, k Kind, p string, u *url.URL) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, d.lim.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{File: p, URL: u.String(), Code: resp.StatusCode}
	}
	lim := d.lim.bytes(k)
	if resp.ContentLength > lim {
		return nil, &LimitError{File: p, Kind: k, What: "bytes", Got: resp.ContentLength, Limit: lim}
	}
	b, err := readBody(resp, lim)
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", p, u, err)
	}
	if int64(len(b)) > lim {
		return nil, &LimitError{File: p, Kind: k, What: "bytes", Limit: lim}
	}
	return b, nil
}

// readBody reads at most lim+1 bytes of a response: into one buffer of the announced length
// when there is one (no copies while the body grows, which for files of megabytes are most of
// a download's memory), else as io.ReadAll does.
func readBody(resp *http.Response, lim int64) ([]byte, error) {
	n := resp.ContentLength
	if n <= 0 || n > lim {
		return io.ReadAll(io.LimitReader(resp.Body, lim+1))
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(resp.Body, b); err != nil {
		return nil, err
	}
	return b, nil
}

// SoundFiles fetches a game's sound files through a downloader: the sound
// manager's loader, which knows paths ("sounds/shot.mp3") and no HTTP.
type SoundFiles struct{ d *Downloader }

// Sounds is the downloader's sound side.
func (d *Downloader) Sounds() SoundFiles { return SoundFiles{d} }

// Fetch returns the sound file at path under the assets base.
func (s SoundFiles) Fetch(ctx context.Context, path string) ([]byte, error) {
	return s.d.Fetch(ctx, Sound, path)
}

// Expect counts a catalog's files before the loader reaches them.
func (s SoundFiles) Expect(ctx context.Context, paths []string) { s.d.Expect(ctx, Sound, paths...) }
