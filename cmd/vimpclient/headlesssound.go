package main

import (
	"context"
	"log/slog"
	"net/url"
	"sync/atomic"

	"vimpclient/audio"
	"vimpclient/protocol"
	"vimpclient/session"
)

// headlessSound gives a headless session its sound (for -audio-out): the
// catalog and sounds from the host, system sounds, and a sound scene on the
// core's output.
type headlessSound struct {
	ctx     context.Context
	log     *slog.Logger
	loop    *gameLoop
	sounds  *audio.Manager
	snd     *partSounds
	target  atomic.Pointer[session.Target] // set by the runner's goroutine
	catalog *audio.Catalog
	scene   *soundScene
}

func (h *headlessSound) event(ev *session.Event) {
	if ev.Kind != session.EventMessage {
		return
	}
	t := h.target.Load()
	switch v := ev.Value.(type) {
	case *protocol.Config:
		cat, warns, err := audio.CatalogFromConfig(v.Raw)
		for _, m := range warns {
			h.log.Warn("sound catalog", "problem", m)
		}
		if err != nil {
			h.log.Warn("sound catalog", "err", err)
		}
		h.catalog, h.scene = cat, nil
		a, ok := h.loop.core.(*coreAdapter)
		if !ok {
			return
		}
		gameID := ""
		if t != nil {
			gameID = t.GameID
		}
		sc, err := newSoundScene(v.Raw, gameID, h.sounds, h.snd, a.c.MyGameID, h.log)
		if err != nil {
			h.log.Warn("no game sounds", "err", err)
			return
		}
		h.scene, a.scene = sc, sc
	case protocol.AuthVerdict:
		if v.OK && h.catalog != nil && t != nil && t.AssetsBase != "" {
			if base, err := url.Parse(t.AssetsBase); err == nil {
				h.sounds.Init(h.ctx, h.catalog, audio.HTTPFetcher{Base: base})
			}
		}
	case *protocol.MapInfo:
		if h.scene != nil {
			h.scene.setMap(v.Raw)
		}
	case protocol.ClearScope:
		if h.scene != nil {
			h.scene.clear(v.Sets, v.Full)
		}
	case protocol.Sound:
		h.sounds.PlaySystem(string(v))
	}
}
