package world

import (
	"context"
	"image"
	"maps"
	"math"
	"math/rand/v2"

	"vimpclient/parts"
)

// A game's bakers draw its textures on the CPU: the tanks game's take a
// large part of a second, which would freeze the frame that applies
// CONFIG_DATA (the first of a match). They run on a goroutine of their own
// instead; each tick of the game loop looks whether they are done and
// hands what they drew to the textures there, on the game loop, the only
// goroutine that touches the textures. Until then the parts draw nothing
// for their baked textures (Preparing tells), and the window keeps its
// loading screen up.

// bakes is the world's textures baked away from the game loop.
type bakes struct {
	// cache keeps what each game's bakers drew, by game ID (and palette,
	// for the team textures): drawing them takes a large part of a second
	// and a host sends CONFIG_DATA on every map change and reconnect.
	cache map[string]map[string]*image.RGBA
	// job is the bake going on away from the game loop (nil: none), under
	// ctx.
	job *bakeJob
	ctx context.Context
}

// bakeStep is one set of textures to install: what the cache had or the
// bakers drew under key, installed in order (the team colours over the
// game's own).
type bakeStep struct {
	key  string
	draw func() map[string]*image.RGBA // nil: imgs came from the cache
	imgs map[string]*image.RGBA
}

// bakeJob is the steps of one configuration or palette change, drawn on a
// goroutine; done is closed once every step has its images (complete), or
// once the job was cancelled (superseded by a later configuration, or the
// world's context ended), when its steps are dropped.
type bakeJob struct {
	steps    []bakeStep
	palette  string // the palette the team step was drawn in
	ctx      context.Context
	cancel   context.CancelFunc
	done     chan struct{}
	complete bool // every step drawn; read once done is closed
}

// run draws the steps the cache did not have, stopping between steps once
// the job is cancelled.
func (j *bakeJob) run() {
	defer close(j.done)
	for i := range j.steps {
		if j.ctx.Err() != nil {
			return
		}
		if s := &j.steps[i]; s.imgs == nil {
			s.imgs = s.draw()
		}
	}
	j.complete = true
}

// bakeRand is a random source of the bakers' own, seeded from the world's
// on the game loop: the world's source is not for another goroutine.
func bakeRand(seed float64) func() float64 {
	s := math.Float64bits(seed)
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15)).Float64
}

// startBake installs what game's bakers drew for its textures and, with a
// palette set, its team colours: at once when every set of them was drawn
// before, else once the bakers are done. A bake still going on is
// cancelled first: the new configuration supersedes it.
func (w *World) startBake(game *parts.Game) {
	w.cancelBake()
	if _, none := w.tex.(parts.NoTextures); none || game == nil {
		return
	}
	var steps []bakeStep
	if game.Bake != nil {
		rnd := bakeRand(w.rnd())
		steps = append(steps, w.step(game.ID, func() map[string]*image.RGBA { return game.Bake(rnd) }))
	}
	if game.BakeTeams != nil && w.palette != "" {
		steps = append(steps, w.teamStep(game, w.palette))
	}
	w.runSteps(steps, w.palette)
}

// step is the step of key, its images taken from the cache when it has
// them.
func (w *World) step(key string, draw func() map[string]*image.RGBA) bakeStep {
	if imgs, ok := w.bake.cache[key]; ok {
		return bakeStep{key: key, imgs: imgs}
	}
	return bakeStep{key: key, draw: draw}
}

// teamStep is the step of game's team colours in palette.
func (w *World) teamStep(game *parts.Game, palette string) bakeStep {
	return w.step(game.ID+"/teams/"+palette, func() map[string]*image.RGBA { return game.BakeTeams(palette) })
}

// runSteps installs steps now when the cache had all of them, else starts
// a job that draws the rest.
func (w *World) runSteps(steps []bakeStep, palette string) {
	if len(steps) == 0 {
		return
	}
	drawn := true
	for i := range steps {
		drawn = drawn && steps[i].imgs != nil
	}
	if drawn {
		w.install(steps)
		return
	}
	ctx, cancel := context.WithCancel(w.bake.ctx)
	j := &bakeJob{steps: steps, palette: palette, ctx: ctx, cancel: cancel, done: make(chan struct{})}
	w.bake.job = j
	go j.run()
}

// cancelBake drops the bake going on, if any: its goroutine stops after
// the step it is drawing, and nothing of it is installed.
func (w *World) cancelBake() {
	if w.bake.job != nil {
		w.bake.job.cancel()
		w.bake.job = nil
	}
}

// pollBake installs the bake once its goroutine is done (wait: waiting for
// it), then draws the team colours again when the palette changed
// meanwhile.
func (w *World) pollBake(wait bool) {
	j := w.bake.job
	if j == nil {
		return
	}
	if wait {
		<-j.done
	} else {
		select {
		case <-j.done:
		default:
			return
		}
	}
	w.bake.job = nil
	j.cancel()
	if !j.complete {
		return // the world's context ended: nothing more is drawn
	}
	w.install(j.steps)
	if w.game != nil && w.game.BakeTeams != nil && w.palette != j.palette && w.palette != "" {
		w.runSteps([]bakeStep{w.teamStep(w.game, w.palette)}, w.palette)
	}
}

// install keeps what the steps drew and hands it to the textures in one
// bake, a later step's images over an earlier's of the same name: each
// bake packs and uploads the textures' atlas anew, which takes a frame's
// worth of milliseconds.
func (w *World) install(steps []bakeStep) {
	all := steps[0].imgs
	for i, s := range steps {
		if s.draw != nil {
			if w.bake.cache == nil {
				w.bake.cache = map[string]map[string]*image.RGBA{}
			}
			w.bake.cache[s.key] = s.imgs
		}
		if i == 1 {
			all = maps.Clone(all) // the cache's maps stay as drawn
		}
		if i > 0 {
			maps.Copy(all, s.imgs)
		}
	}
	w.tex.Bake(all)
}

// Preparing reports whether the game's textures are still being drawn:
// until they are installed, the parts draw nothing for them.
func (w *World) Preparing() bool { return w.bake.job != nil }

// AwaitTextures waits for the textures being drawn and installs them (a
// screenshot of a known state, a test); the game loop never waits, it
// installs them at the tick after they are done.
func (w *World) AwaitTextures() {
	for w.bake.job != nil {
		w.pollBake(true)
	}
}
