package gameloop

import (
	"context"
	"encoding/json"
	"log/slog"

	"vimpclient/audio"
	"vimpclient/parts"
	"vimpclient/session"
	"vimpclient/world"
)

// partSounds lets the renderer's parts play through the sound manager. Parts
// scale the catalog volume; the manager takes an absolute one, so the
// catalog volume of each registration is kept here.
type partSounds struct {
	m    *audio.Manager
	base map[parts.SoundID]float64
}

func newPartSounds(m *audio.Manager) *partSounds {
	return &partSounds{m: m, base: map[parts.SoundID]float64{}}
}

func soundData(d parts.SoundData, base float64) audio.SoundData {
	s := audio.At(d.X, d.Y)
	if d.VolumeScale != 0 {
		s = s.WithVolume(base * d.VolumeScale)
	}
	if d.Rate != 0 {
		s = s.WithRate(d.Rate)
	}
	if d.Own {
		s = s.WithSpatial(false)
	}
	return s
}

func (p *partSounds) Register(name string, d parts.SoundData) (parts.SoundID, bool) {
	opts, ok := p.m.SoundConfig(name)
	if !ok {
		return 0, false
	}
	id, ok := p.m.Register(name, soundData(d, opts.Volume))
	if !ok {
		return 0, false
	}
	p.base[parts.SoundID(id)] = opts.Volume
	return parts.SoundID(id), true
}

func (p *partSounds) Update(id parts.SoundID, d parts.SoundData) bool {
	if p.m.Update(audio.ID(id), soundData(d, p.base[id])) {
		return true
	}
	delete(p.base, id)
	return false
}

func (p *partSounds) Unregister(id parts.SoundID) {
	p.m.Unregister(audio.ID(id))
	delete(p.base, id)
}

func (p *partSounds) Release(id parts.SoundID) {
	p.m.Release(audio.ID(id))
	delete(p.base, id)
}

// reset forgets the registrations a sound manager reset dropped.
func (p *partSounds) reset() { clear(p.base) }

// gameSounds is the game's sound: the manager the wiring gave, the parts'
// registrations in it, and the catalog of the current CONFIG_DATA, loaded
// once the player is in. A nil *gameSounds is a silent loop.
type gameSounds struct {
	m       *audio.Manager
	parts   *partSounds
	catalog *audio.Catalog
	fetcher func(t session.Target) (audio.Fetcher, error)
	ctx     context.Context
	log     *slog.Logger
}

func newGameSounds(o *Options) *gameSounds {
	if o.Sounds == nil {
		return nil
	}
	return &gameSounds{m: o.Sounds, parts: newPartSounds(o.Sounds), fetcher: o.SoundFetcher, ctx: o.Context, log: o.Log}
}

// forParts is what the world's parts play through (nil: nothing).
func (s *gameSounds) forParts() parts.Sounds {
	if s == nil {
		return nil
	}
	return s.parts
}

// reset stops every sound (a new connection, a full CLEAR).
func (s *gameSounds) reset() {
	if s == nil {
		return
	}
	s.m.Reset()
	s.parts.reset()
}

// configure reads a CONFIG_DATA's sound catalog.
func (s *gameSounds) configure(raw json.RawMessage) {
	if s == nil {
		return
	}
	cat, warns, err := audio.ParseCatalog(raw)
	for _, m := range warns {
		s.log.Warn("sound catalog", "problem", m)
	}
	if err != nil {
		s.log.Warn("sound catalog", "err", err)
	}
	s.catalog = cat
}

// load starts loading the game's sounds from t's assets in the background
// once the player is in: the handshake never waits for them.
func (s *gameSounds) load(t session.Target) {
	if s == nil || s.catalog == nil || s.fetcher == nil {
		return
	}
	f, err := s.fetcher(t)
	if err != nil {
		s.log.Warn("sounds not loaded", "err", err)
		return
	}
	if f == nil {
		return // nowhere to fetch them from (a host with no game manifest)
	}
	s.m.Init(s.ctx, s.catalog, f)
}

// system plays one of the engine's system sounds.
func (s *gameSounds) system(name string) {
	if s != nil {
		s.m.PlaySystem(name)
	}
}

// tick moves the listener with the world's camera and advances the mix.
func (s *gameSounds) tick(w *world.World) {
	if s == nil {
		return
	}
	if x, y, ok := w.Camera(); ok {
		s.m.SetListener(x, y)
		s.m.SetZoom(w.AudioZoom())
	}
	s.m.Tick()
}
