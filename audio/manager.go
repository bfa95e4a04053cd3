package audio

import (
	"cmp"
	"log/slog"
	"math"
	"slices"
	"sync/atomic"

	"vimpclient/audio/mix"
	"vimpclient/audio/pcm"
	"vimpclient/audio/spatial"
)

// WorldVoiceLimit is how many registered (world and own) sounds may sound at once.
const WorldVoiceLimit = 30

// MasterVolume is the engine's master gain; muting sets it to 0.
const MasterVolume = 0.7

// MaxRegistrations bounds live registrations; beyond it Register refuses and counts.
const MaxRegistrations = 4096

// maxWarnedNames bounds the set of unknown names already warned about.
const maxWarnedNames = 64

// ID identifies a registration. IDs are never reused; 0 is "none".
type ID uint64

// Fields says which values of a SoundData are set.
type Fields uint8

// The settable fields of a registration.
const (
	SetPosition Fields = 1 << iota
	SetVolume
	SetPriority
	SetRate
	SetSpatial
)

// SoundData carries a registration's values; only the fields named in Set are applied, so an
// update can change just the position, or just the rate. Build it with At and the With methods.
type SoundData struct {
	Set      Fields
	X, Y     float64
	Volume   float64
	Priority float64
	Rate     float64
	Spatial  bool
	// OnEnd, on Register only, is called (from Tick) when the one-shot's instance ends by itself.
	OnEnd func()
}

// At is a SoundData with a world position.
func At(x, y float64) SoundData { return SoundData{Set: SetPosition, X: x, Y: y} }

// WithVolume sets the voice volume.
func (d SoundData) WithVolume(v float64) SoundData { d.Set |= SetVolume; d.Volume = v; return d }

// WithPriority sets the ranking weight.
func (d SoundData) WithPriority(p float64) SoundData { d.Set |= SetPriority; d.Priority = p; return d }

// WithRate sets the playback rate (loops only).
func (d SoundData) WithRate(r float64) SoundData { d.Set |= SetRate; d.Rate = r; return d }

// WithSpatial switches between a world voice (true, the default) and an own, dry voice (false).
func (d SoundData) WithSpatial(s bool) SoundData { d.Set |= SetSpatial; d.Spatial = s; return d }

// Sample states of a catalog entry.
const (
	sampleLoading int32 = iota
	sampleReady
	sampleFailed
)

// entry is one catalog sound and its sample, which a loader fills in from another goroutine.
type entry struct {
	opts  SoundOptions
	state atomic.Int32
	buf   atomic.Pointer[pcm.Buffer]
}

func (e *entry) ready() *pcm.Buffer {
	if e.state.Load() != sampleReady {
		return nil
	}
	return e.buf.Load()
}

type registration struct {
	id       ID
	e        *entry
	x, y     float64
	volume   float64
	priority float64
	rate     float64
	hasRate  bool
	spatial  bool
	voice    mix.Voice
	stereo   bool
	onEnd    func()
	score    float64
}

// instance is a one-shot that may still be sounding after its registration is gone.
type instance struct {
	reg   *registration // nil once released or dropped
	onEnd func()
}

// Options configure a Manager.
type Options struct {
	Logger     *slog.Logger // default slog.Default()
	VoiceLimit int          // default WorldVoiceLimit; other values only for tests and experiments
	// CatalogBytes bounds the decoded sound of one catalog; default MaxCatalogBytes.
	CatalogBytes int64
}

// Manager is the sound director. The zero value is not usable; call NewManager.
type Manager struct {
	log       *slog.Logger
	mixer     *mix.Mixer
	cat       *Catalog
	cfg       spatial.Config
	entries   map[string]*entry
	listener  spatial.Listener
	regs      []*registration // registration order
	byID      map[ID]*registration
	nextID    ID
	instances map[mix.Voice]instance
	cands     []*registration
	ended     []mix.Voice
	warned    map[string]struct{}
	muted     bool
	volume    float64 // the player's master volume, 0..1
	limit     int
	refused   uint64 // registrations refused at MaxRegistrations
	cancel    func() // stops the current background load
	// soundBudget is the bytes of decoded sound one catalog may hold.
	soundBudget int64
}

// NewManager returns a manager with an empty catalog driving mixer.
func NewManager(mixer *mix.Mixer, opt Options) *Manager {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.VoiceLimit <= 0 {
		opt.VoiceLimit = WorldVoiceLimit
	}
	if opt.CatalogBytes <= 0 {
		opt.CatalogBytes = MaxCatalogBytes
	}
	m := &Manager{
		soundBudget: opt.CatalogBytes,
		log:         opt.Logger,
		limit:       opt.VoiceLimit,
		mixer:       mixer,
		cfg:         spatial.Default(),
		entries:     map[string]*entry{},
		listener:    spatial.Listener{Zoom: 1},
		byID:        map[ID]*registration{},
		instances:   map[mix.Voice]instance{},
		warned:      map[string]struct{}{},
		cands:       make([]*registration, 0, 64),
		ended:       make([]mix.Voice, 0, 64),
		cat:         &Catalog{Spatial: spatial.Default()},
		volume:      1,
	}
	mixer.SetMaster(MasterVolume)
	return m
}

// Spatial is the spatial configuration in use.
func (m *Manager) Spatial() spatial.Config { return m.cfg }

// SetHRTFVariant picks the lateral-angle formula of the HRTF approximation (a client setting).
func (m *Manager) SetHRTFVariant(v spatial.HRTFVariant) { m.cfg.Variant = v }

// SetITD turns on the interaural time difference of the HRTF approximation (a client setting):
// the far ear hears a source up to ≈0.66 ms later.
func (m *Manager) SetITD(on bool) { m.cfg.ITD = on }

// SoundConfig returns a sound's catalog options (priority defaulted), or false for an unknown name.
// A sound still loading is known.
func (m *Manager) SoundConfig(name string) (SoundOptions, bool) {
	e := m.known(name)
	if e == nil {
		return SoundOptions{}, false
	}
	return e.opts, true
}

func (m *Manager) known(name string) *entry {
	e := m.entries[name]
	if e == nil || e.state.Load() == sampleFailed {
		return nil
	}
	return e
}

func (m *Manager) warnUnknown(what, name string) {
	if _, seen := m.warned[name]; seen {
		return
	}
	if len(m.warned) < maxWarnedNames {
		m.warned[name] = struct{}{}
	}
	m.log.Warn("audio: unknown sound", "call", what, "name", clipName(name))
}

// Register creates a registration for a catalog sound. It starts nothing: the next Tick decides.
// It returns false (and warns) for a name that is not in the catalog or whose file failed.
func (m *Manager) Register(name string, d SoundData) (ID, bool) {
	e := m.known(name)
	if e == nil {
		m.warnUnknown("register", name)
		return 0, false
	}
	if len(m.regs) >= MaxRegistrations {
		if m.refused == 0 {
			m.log.Warn("audio: too many sound registrations, refusing more", "limit", MaxRegistrations)
		}
		m.refused++
		return 0, false
	}
	m.nextID++
	r := &registration{
		id:       m.nextID,
		e:        e,
		volume:   e.opts.Volume,
		priority: e.opts.Priority,
		spatial:  true,
		onEnd:    d.OnEnd,
	}
	apply(r, d)
	m.regs = append(m.regs, r)
	m.byID[r.id] = r
	return r.id, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// apply merges the set fields of d into r, ignoring values that are not finite.
func apply(r *registration, d SoundData) {
	if d.Set&SetPosition != 0 && finite(d.X) && finite(d.Y) {
		r.x, r.y = d.X, d.Y
	}
	if d.Set&SetVolume != 0 && finite(d.Volume) {
		r.volume = math.Max(0, d.Volume)
	}
	if d.Set&SetPriority != 0 && finite(d.Priority) {
		r.priority = d.Priority
	}
	if d.Set&SetRate != 0 && finite(d.Rate) && d.Rate > 0 {
		r.rate, r.hasRate = d.Rate, true
	}
	if d.Set&SetSpatial != 0 {
		r.spatial = d.Spatial
	}
}

// Update merges d into a registration. It reports whether the id is still registered (a reset
// drops one-shots, and games notice it here).
func (m *Manager) Update(id ID, d SoundData) bool {
	r := m.byID[id]
	if r == nil {
		return false
	}
	apply(r, d)
	return true
}

// Unregister stops the registration's instance, if any, and deletes it.
func (m *Manager) Unregister(id ID) {
	r := m.byID[id]
	if r == nil {
		return
	}
	if r.voice != 0 {
		m.mixer.Stop(r.voice)
		delete(m.instances, r.voice)
	}
	m.remove(r)
}

// Release deletes the registration; a playing loop is stopped, a playing one-shot finishes (and
// its end callback still fires).
func (m *Manager) Release(id ID) {
	r := m.byID[id]
	if r == nil {
		return
	}
	if r.voice != 0 {
		if r.e.opts.Loop {
			m.mixer.Stop(r.voice)
			delete(m.instances, r.voice)
		} else {
			m.detach(r)
		}
	}
	m.remove(r)
}

// detach lets a playing one-shot sound on without its registration.
func (m *Manager) detach(r *registration) {
	if in, ok := m.instances[r.voice]; ok {
		in.reg = nil
		m.instances[r.voice] = in
	}
}

func (m *Manager) remove(r *registration) {
	delete(m.byID, r.id)
	if i := slices.Index(m.regs, r); i >= 0 {
		m.regs = slices.Delete(m.regs, i, i+1)
	}
}

// PlaySystem plays a sound at once, dry, at its catalog volume: no registration, no ranking, no
// limit. Unknown names and sounds still loading play nothing.
func (m *Manager) PlaySystem(name string) {
	e := m.known(name)
	if e == nil {
		m.warnUnknown("system", name)
		return
	}
	b := e.ready()
	if b == nil {
		return
	}
	m.mixer.PlayDetached(b, spatial.Dry(b.Stereo()).Scale(e.opts.Volume), e.opts.Loop, 1)
}

// SetListener places the ears at the raw camera point. The last call in a tick wins.
func (m *Manager) SetListener(x, y float64) {
	if finite(x) && finite(y) {
		m.listener.X, m.listener.Y = x, y
	}
}

// SetZoom sets the camera zoom multiplier (1 at rest, < 1 zoomed out). Non-positive or
// non-finite values are ignored.
func (m *Manager) SetZoom(z float64) {
	if z > 0 && finite(z) {
		m.listener.Zoom = z
	}
}

// Listener is the current listener.
func (m *Manager) Listener() spatial.Listener { return m.listener }

// SetMuted mutes (master 0) or restores the master volume; everything keeps playing.
func (m *Manager) SetMuted(muted bool) {
	m.muted = muted
	m.applyMaster()
}

// SetMasterVolume sets the player's master volume, 0..1 (1 = the engine's
// own master gain); it scales everything, system sounds too, and is kept
// while muted.
func (m *Manager) SetMasterVolume(v float64) {
	if !(v >= 0) {
		v = 0
	}
	m.volume = min(v, 1)
	m.applyMaster()
}

func (m *Manager) applyMaster() {
	if m.muted {
		m.mixer.SetMaster(0)
		return
	}
	m.mixer.SetMaster(MasterVolume * m.volume)
}

// SetEffectsVolume sets the player's effects volume (1 = as the game mixed it).
func (m *Manager) SetEffectsVolume(v float64) { m.mixer.SetEffects(v) }

// Reset is the CLEAR behaviour: stop every instance (system sounds too), keep loop registrations
// as not playing, delete one-shot registrations, put the listener back at (0, 0). Zoom stays.
func (m *Manager) Reset() {
	m.mixer.StopAll()
	clear(m.instances)
	kept := m.regs[:0]
	for _, r := range m.regs {
		r.voice = 0
		if r.e.opts.Loop {
			kept = append(kept, r)
		} else {
			delete(m.byID, r.id)
		}
	}
	clear(m.regs[len(kept):])
	m.regs = kept
	m.listener.X, m.listener.Y = 0, 0
}

// Destroy is the disconnect behaviour: reset, forget every registration and sample, stop loading.
func (m *Manager) Destroy() {
	m.Reset()
	clear(m.regs)
	m.regs = m.regs[:0]
	clear(m.byID)
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.entries = map[string]*entry{}
	m.cat = &Catalog{Spatial: spatial.Default()}
}

// Tick runs once per render tick after frames, entities and camera were applied: it delivers
// end callbacks of finished one-shots, then ranks and starts or stops voices, then refreshes
// the loops' gains and rates.
func (m *Manager) Tick() {
	m.collectEnded()
	m.processAudibility()
	m.updateActiveSounds()
}

func (m *Manager) collectEnded() {
	m.ended = m.mixer.TakeEnded(m.ended[:0])
	for _, v := range m.ended {
		in, ok := m.instances[v]
		if !ok {
			continue // a system sound
		}
		delete(m.instances, v)
		if in.reg != nil && in.reg.voice == v {
			in.reg.voice = 0
			m.remove(in.reg)
		}
		if in.onEnd != nil {
			in.onEnd()
		}
	}
}

// gains is the routing of a registration's voice now (master is applied by the mixer).
func (m *Manager) gains(r *registration) spatial.Gains {
	if !r.spatial {
		return spatial.Dry(r.stereo).Scale(r.volume)
	}
	return m.cfg.Voice(m.listener, r.x, r.y, r.stereo).Scale(r.volume)
}

// processAudibility is the engine's ranking: candidates by priority² / max(d², 1), the first
// WorldVoiceLimit audible, far one-shots dropped, and every one-shot gets one chance only.
func (m *Manager) processAudibility() {
	maxD2 := m.cfg.MaxDistance * m.cfg.MaxDistance
	cands := m.cands[:0]
	kept := m.regs[:0]
	for _, r := range m.regs {
		dx, dy := r.x-m.listener.X, r.y-m.listener.Y
		d2 := dx*dx + dy*dy
		if !r.e.opts.Loop && d2 >= maxD2 {
			if r.voice != 0 {
				m.detach(r) // plays out untracked
			}
			delete(m.byID, r.id)
			continue
		}
		kept = append(kept, r)
		if r.voice == 0 && r.e.ready() == nil {
			continue // known but not loaded yet: not a candidate
		}
		r.score = r.priority * r.priority / math.Max(d2, 1)
		cands = append(cands, r)
	}
	clear(m.regs[len(kept):])
	m.regs = kept

	slices.SortStableFunc(cands, func(a, b *registration) int { return cmp.Compare(b.score, a.score) })
	for i, r := range cands {
		audible := i < m.limit
		switch {
		case r.voice != 0 && !audible:
			m.mixer.Stop(r.voice)
			delete(m.instances, r.voice)
			r.voice = 0
		case r.voice == 0 && audible:
			m.start(r)
		}
	}
	clear(cands)
	m.cands = cands[:0]

	// Every one-shot that is not playing now has had its chance.
	kept = m.regs[:0]
	for _, r := range m.regs {
		if !r.e.opts.Loop && r.voice == 0 {
			delete(m.byID, r.id)
			continue
		}
		kept = append(kept, r)
	}
	clear(m.regs[len(kept):])
	m.regs = kept
}

func (m *Manager) start(r *registration) {
	b := r.e.ready()
	if b == nil {
		return
	}
	r.stereo = b.Stereo()
	rate := 1.0
	if r.e.opts.Loop && r.hasRate {
		rate = r.rate
	}
	r.voice = m.mixer.Play(b, m.gains(r), r.e.opts.Loop, rate)
	if r.voice != 0 && !r.e.opts.Loop {
		m.instances[r.voice] = instance{reg: r, onEnd: r.onEnd}
	}
}

// updateActiveSounds re-applies gain, pan and rate to every playing loop. One-shots keep the
// values they started with.
func (m *Manager) updateActiveSounds() {
	for _, r := range m.regs {
		if r.voice == 0 || !r.e.opts.Loop {
			continue
		}
		m.mixer.SetGains(r.voice, m.gains(r))
		if r.hasRate {
			m.mixer.SetRate(r.voice, r.rate)
		}
	}
}

// Registered is the number of live registrations.
func (m *Manager) Registered() int { return len(m.regs) }

// Sounding is the number of registrations with a playing instance (what counts toward the limit).
func (m *Manager) Sounding() int {
	n := 0
	for _, r := range m.regs {
		if r.voice != 0 {
			n++
		}
	}
	return n
}

// ListenerZoom is the zoom the spatial model divides by, from the main canvas:
// (currentScale · cameraZoom) / baseScale — the camera zoom multiplier at the
// 1920 px design width, 1 at rest. A non-positive baseScale gives 1.
func ListenerZoom(currentScale, cameraZoom, baseScale float64) float64 {
	z := currentScale * cameraZoom / baseScale
	if !(z > 0) || !finite(z) {
		return 1
	}
	return z
}

// Stats is a snapshot for a debug overlay or a log line.
type Stats struct {
	Registered int       // live registrations
	Refused    uint64    // registrations refused at MaxRegistrations
	Sounding   int       // registrations with a playing instance (counted toward the limit)
	Mixer      mix.Stats // voices sounding in the mixer, refusals and lost notices
}

// Stats returns the current counts.
func (m *Manager) Stats() Stats {
	return Stats{Registered: m.Registered(), Refused: m.refused, Sounding: m.Sounding(), Mixer: m.mixer.Stats()}
}
