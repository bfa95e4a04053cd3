package main

import (
	"encoding/json"
	"fmt"
	"image"
	"log/slog"
	"math/rand/v2"

	"vimpclient/audio"
	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/parts/snakes"
	"vimpclient/parts/tanks"
	"vimpclient/render/canvas"
)

// soundScene runs the game's parts with nothing to draw, so a headless
// session sounds as the window does: the parts register their engine loops,
// shots and explosions with the sound manager from the same core output, and
// the camera moves the listener.
type soundScene struct {
	log    *slog.Logger
	scene  *parts.Scene
	sounds *audio.Manager
	snd    *partSounds
	myID   func() (uint8, bool)
	lastMs float64
}

// noTextures stands in for the renderer's textures: every image is
// "not loaded", which parts answer with their procedural fallback.
type noTextures struct{}

func (noTextures) Baked(string) (parts.Tex, bool)         { return 0, false }
func (noTextures) Asset(string) parts.Tex                 { return 0 }
func (noTextures) Register(string, *image.RGBA) parts.Tex { return 0 }
func (noTextures) Size(parts.Tex) (int, int, bool)        { return 0, 0, false }

// newSoundScene builds the parts for a CONFIG_DATA, as the window's world does.
func newSoundScene(raw json.RawMessage, gameID string, sounds *audio.Manager, snd *partSounds, myID func() (uint8, bool), log *slog.Logger) (*soundScene, error) {
	var doc struct {
		Modules struct {
			CanvasManager struct {
				Canvases json.RawMessage `json:"canvases"`
			} `json:"canvasManager"`
		} `json:"modules"`
		Parts    json.RawMessage `json:"parts"`
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("sound scene: %w", err)
	}
	specs, err := canvas.ParseSpecs(doc.Modules.CanvasManager.Canvases)
	if err != nil {
		return nil, fmt.Errorf("sound scene: %w", err)
	}
	schema, err := clientcore.ParseSchema(doc.Snapshot)
	if err != nil {
		return nil, fmt.Errorf("sound scene: %w", err)
	}
	pc, err := parts.ParsePartsConfig(doc.Parts)
	if err != nil {
		return nil, fmt.Errorf("sound scene: %w", err)
	}
	rnd := rand.Float64
	var game *parts.Game
	for id, g := range map[string]*parts.Game{"tanks": tanks.Game(rnd), "snakes": snakes.Game()} {
		if (gameID == "" || gameID == id) && (g.Recognise == nil || g.Recognise(pc.EntitiesOnCanvas)) {
			game = g
		}
	}
	ids := make([]string, len(specs))
	for i, s := range specs {
		ids[i] = s.ID
	}
	s := &soundScene{log: log, sounds: sounds, snd: snd, myID: myID}
	isLocal := func(id uint32) bool {
		my, ok := myID()
		return ok && uint32(my) == id
	}
	s.scene, err = parts.NewScene(parts.SceneOptions{Log: log, Game: game, Generic: generic.Factory{}, Tex: noTextures{},
		IsLocal: isLocal, Rand: rnd, Sound: snd, Canvases: ids}, schema, pc)
	if err != nil {
		return nil, fmt.Errorf("sound scene: %w", err)
	}
	return s, nil
}

// setMap hands MAP_DATA to the map parts.
func (s *soundScene) setMap(raw []byte) {
	m, err := gamemap.Parse(raw)
	if err != nil {
		s.log.Debug("sound scene: map", "err", err)
		return
	}
	s.scene.SetMap(m)
}

// clear follows CLEAR.
func (s *soundScene) clear(keys []string, all bool) {
	s.scene.Clear(keys, all)
	if all {
		s.sounds.Reset()
		s.snd.reset()
	}
}

// tick applies one render tick's output in the renderer's order: event
// frames (and their cameras), hot data, hot camera; then the parts step and
// the sound manager updates.
func (s *soundScene) tick(nowMs float64, h *clientcore.Hot, frames []clientcore.EventFrame) {
	for i := range frames {
		f := &frames[i]
		s.scene.ApplyFrame(f)
		if f.HasCamera {
			s.sounds.SetListener(float64(f.Camera.X), float64(f.Camera.Y))
		}
	}
	if h.Flags&(clientcore.HotGame|clientcore.HotPredicted) != 0 {
		s.scene.ApplyHot(h)
	}
	if h.Flags&clientcore.HotCamera != 0 {
		s.sounds.SetListener(float64(h.Camera[0]), float64(h.Camera[1]))
	}
	dt := nowMs - s.lastMs
	if s.lastMs == 0 || dt < 0 {
		dt = 0
	}
	s.lastMs = nowMs
	s.scene.Step(dt)
	s.sounds.Tick()
}
