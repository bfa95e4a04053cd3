package synth

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// TanksCatalog is a `parts.sounds` block for a tanks-compatible game served with these effects:
// the names, priorities, volumes and loop flags of the reference tanks game, and
// "wav" as the only codec, which is what Handler serves. The newer game's death of a tank
// (tankExplosion), breaking prop (propBreak) and hard landing (tankLanding) reuse the
// explosion and the hit, a tank's death a little quieter than a bomb's, since a bomb often
// goes off beside the wreck.
const TanksCatalog = `{"codecList":["wav"],"sounds":{` +
	`"roundStart":{"file":"round-start","priority":200,"volume":0.3},` +
	`"victory":{"file":"victory","priority":200,"volume":0.3},` +
	`"defeat":{"file":"defeat","priority":200,"volume":0.3},` +
	`"frag":{"file":"frag","priority":150,"volume":0.3},` +
	`"hit":{"file":"hit","priority":150,"volume":0.3},` +
	`"gameOver":{"file":"game-over","priority":150,"volume":0.3},` +
	`"shot":{"file":"shot","priority":100,"volume":0.4},` +
	`"explosion":{"file":"explosion","priority":100,"volume":0.4},` +
	`"tankExplosion":{"file":"explosion","priority":100,"volume":0.3},` +
	`"propBreak":{"file":"hit","priority":100,"volume":0.3},` +
	`"tankLanding":{"file":"hit","priority":60,"volume":0.3},` +
	`"bombHasBeenPlanted":{"file":"bomb-has-been-planted","priority":90,"volume":0.4},` +
	`"tankEngine":{"file":"tank-engine","priority":50,"loop":true,"volume":0.5}}}`

// Handler serves the effects as <file>.wav (mount it under <assetsBase>sounds/ with
// http.StripPrefix). Each file is rendered once, on first request.
type Handler struct {
	mu    sync.Mutex
	files map[string][]byte
}

// ServeHTTP answers GET and HEAD for a known effect and 404 for anything else.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".wav")
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, ok := h.file(name)
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "audio/wav")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		return
	}
	w.Write(b)
}

func (h *Handler) file(name string) ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if b, ok := h.files[name]; ok {
		return b, true
	}
	b, ok := WAV(name)
	if !ok {
		return nil, false
	}
	if h.files == nil {
		h.files = map[string][]byte{}
	}
	h.files[name] = b
	return b, true
}
