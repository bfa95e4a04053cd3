package gameloop

import "strconv"

// updateWatching tells the HUD whose view the camera shows while the local
// player does not play (dead or spectating) or a demo follows another
// player: the actor at the camera, named by the scoreboard.
func (l *Loop) updateWatching() {
	if l.hud == nil {
		return
	}
	name := ""
	_, following := l.world.Following()
	if l.hud.Stat != nil && (following || l.ctrl == nil || l.ctrl.KeySet() != playerKeySet) {
		if a, ok := l.world.Watched(); ok {
			name, _ = l.hud.Stat.Name(strconv.FormatUint(uint64(a.ID), 10))
		}
	}
	l.hud.SetWatching(name)
}
