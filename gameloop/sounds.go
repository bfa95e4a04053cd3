package gameloop

import (
	"vimpclient/audio"
	"vimpclient/parts"
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
