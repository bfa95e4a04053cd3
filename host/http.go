package host

import (
	"encoding/json"
	"net/http"
	"strings"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) manifest() map[string]any {
	return map[string]any{
		"id": s.game.ID, "engineApi": 3, "version": s.version, "title": s.game.Title,
		"entries":    map[string]string{},
		"assetsBase": "/games/" + s.game.ID + "/",
		"maps":       map[string]any{"version": s.version, "list": mapNames(s.room.match)},
	}
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /config", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"mode": "dedicated", "gameId": s.game.ID, "gameVersion": s.version, "wsPath": "/game"})
	})
	mux.HandleFunc("GET /games/manifest.json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, []any{s.manifest()})
	})
	mux.HandleFunc("GET /games/{id}/manifest.json", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != s.game.ID {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknownGame"})
			return
		}
		writeJSON(w, http.StatusOK, s.manifest())
	})
	mux.HandleFunc("GET /games/{id}/maps/manifest.json", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != s.game.ID {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknownGame"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"version": s.version, "maps": mapNames(s.room.match)})
	})
	mux.HandleFunc("GET /games/{id}/maps/{name}", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSuffix(r.PathValue("name"), ".json")
		b, ok := mapText(s.room.match, name)
		if r.PathValue("id") != s.game.ID || !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknownMap"})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	})
	mux.HandleFunc("GET /games/{id}/img/{file}", func(w http.ResponseWriter, r *http.Request) {
		b, ok := s.images[r.PathValue("file")]
		if !ok || r.PathValue("id") != "tanks" || s.game.ID != "tanks" { // snakes ships no images
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(b)
	})
	mux.HandleFunc("GET /games/{id}/sounds/{file}", func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Sound == nil || r.PathValue("id") != s.game.ID {
			http.NotFound(w, r)
			return
		}
		b, ct, ok := s.cfg.Sound(r.PathValue("file"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", ct)
		_, _ = w.Write(b)
	})
	mux.HandleFunc("/game", s.serveGame)
	return mux
}
