package fakemaster

import "net/http"

// players is a room's player count as /servers lists it: the older master
// takes the host's word (update_host), the newer counts its members (a
// listed room with no host behind it counts the players it was listed
// with, too).
func (m *Master) players(r *room) int {
	if m.cfg.Dialect == Newer {
		return min(len(r.members)+r.players, r.maxPlayers)
	}
	return r.players
}

// quickPlay serves the newer master's GET /quickplay/:gameId: the online
// room of that game with the most players that still has space (the first
// listed among equals), or null. The older master has no such path.
func (m *Master) quickPlay(w http.ResponseWriter, r *http.Request) {
	if m.cfg.Dialect != Newer {
		http.NotFound(w, r)
		return
	}
	game := r.PathValue("game")
	m.mu.Lock()
	var best map[string]any
	most := -1
	for _, id := range m.order {
		rm := m.rooms[id]
		if rm == nil || rm.status != "online" || rm.gameID != game {
			continue
		}
		if n := m.players(rm); n < rm.maxPlayers && n > most {
			best, most = m.public(rm), n
		}
	}
	m.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"room": best})
}
