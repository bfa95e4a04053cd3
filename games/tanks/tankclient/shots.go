package tankclient

import (
	"strconv"
	"strings"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/snapschema"
)

// Shot predictor timing: the gate, the pending shot and the duplicate window.
const (
	pendingMaxAgeMs = 2000.0
	aliasMaxAgeMs   = 60000.0
	// Bounds on the pending lists: far above what fire rates allow within
	// their age limits, they only guard against a stuck clock.
	maxPendingTracers = 512
	maxAliases        = 256
)

// weaponRow is a weapon key's bound fields: a tracer or a bomb row, and the
// author id both carry.
type weaponRow struct {
	tracer tanks.TracerRow
	bomb   tanks.BombRow
	author snapschema.Pos
}

type pendingTracer struct {
	time   float64
	weapon int
}

type pendingBomb struct {
	time   float64
	weapon int
	local  uint32
}

type alias struct {
	time   float64
	weapon int
	auth   uint32
	local  uint32
}

// shotState is the shot predictor: current weapon, cooldowns, the ammo
// mirror, and the pending local shots awaiting the host's copies.
type shotState struct {
	weapons []Weapon
	// keys is the snapshot key of each weapon: nil when there is none or
	// its rows lack the weapon's fields (no local shots, no filtering).
	keys    []*clientcore.KeySchema
	rows    []weaponRow
	def     int // the model's default weapon, -1 unknown
	current int

	readyAt   []float64
	ammo      []int
	ammoKnown []bool

	tracers   []pendingTracer
	bombs     []pendingBomb
	expired   []pendingBomb
	aliases   []alias
	nextLocal uint32
}

func (s *shotState) init(schema *clientcore.Schema, weapons []Weapon) {
	s.weapons = weapons
	s.keys = make([]*clientcore.KeySchema, len(weapons))
	s.rows = make([]weaponRow, len(weapons))
	for i, w := range weapons {
		k := schema.Key(w.Name)
		if k == nil {
			continue
		}
		b := clientcore.NewBinder(k)
		r := &s.rows[i]
		if w.Explosive {
			r.bomb = tanks.BindBombRow(b.Positions())
			r.author = r.bomb.Author
		} else {
			r.tracer = tanks.BindTracerRow(b.Positions())
			r.author = r.tracer.Author
		}
		if b.Err() == nil {
			s.keys[i] = k
		}
	}
	s.readyAt = make([]float64, len(weapons))
	s.ammo = make([]int, len(weapons))
	s.ammoKnown = make([]bool, len(weapons))
	s.def, s.current = -1, -1
}

func (s *shotState) index(name string) int {
	for i := range s.weapons {
		if s.weapons[i].Name == name {
			return i
		}
	}
	return -1
}

func (s *shotState) setDefault(name string) {
	s.def = s.index(name)
	s.current = s.def
}

// keysetReset is the key set change: pending tracers dropped, pending bombs
// expired (their removal still reaches the renderer), cooldowns and ammo
// forgotten, the default weapon back; aliases kept.
func (s *shotState) keysetReset() {
	s.tracers = s.tracers[:0]
	s.expired = append(s.expired, s.bombs...)
	s.bombs = s.bombs[:0]
	clear(s.readyAt)
	clear(s.ammoKnown)
	s.current = s.def
}

// fullReset is CLEAR / MAP_DATA: the canvas is wiped, so aliases and expired
// bombs go too.
func (s *shotState) fullReset() {
	s.keysetReset()
	s.expired = s.expired[:0]
	s.aliases = s.aliases[:0]
}

func (s *shotState) cycle(dir int) {
	n := len(s.weapons)
	if n == 0 || s.current < 0 {
		return
	}
	s.current = ((s.current+dir)%n + n) % n
}

func (s *shotState) syncPanel(items []string) {
	for _, it := range items {
		name, val, hasVal := strings.Cut(it, ":")
		s.panelItem(name, val, hasVal)
	}
}

// panelItem mirrors one panel entry: "wa:<weapon>" selects the weapon,
// "<weapon>:<n>" sets its ammo, a bare "<weapon>" forgets it.
func (s *shotState) panelItem(name, val string, hasVal bool) {
	if name == "wa" {
		if i := s.index(val); i >= 0 {
			s.current = i
		}
		return
	}
	i := s.index(name)
	if i < 0 {
		return
	}
	if !hasVal {
		s.ammoKnown[i] = false
		return
	}
	if v, err := strconv.ParseFloat(val, 64); err == nil && v >= -1e9 && v <= 1e9 {
		s.ammo[i], s.ammoKnown[i] = int(v), true
	}
}

// gate applies cooldown and ammo to the current weapon; on success the
// cooldown restarts and known ammo is spent.
func (s *shotState) gate(now float64) (int, bool) {
	w := s.current
	if w < 0 || w >= len(s.weapons) || now < s.readyAt[w] {
		return 0, false
	}
	wp := &s.weapons[w]
	if s.ammoKnown[w] {
		if s.ammo[w] < wp.Consumption {
			return 0, false
		}
		s.ammo[w] -= wp.Consumption
	}
	s.readyAt[w] = now + wp.FireRate*1000
	return w, true
}

func (s *shotState) addTracer(w int, now float64) {
	if len(s.tracers) == maxPendingTracers {
		s.tracers = append(s.tracers[:0], s.tracers[1:]...)
	}
	s.tracers = append(s.tracers, pendingTracer{time: now, weapon: w})
}

// plantBomb refuses while a bomb of the weapon is pending, else names the
// local bomb "L<n>".
func (s *shotState) plantBomb(w int, now float64) (uint32, bool) {
	for _, b := range s.bombs {
		if b.weapon == w {
			return 0, false
		}
	}
	s.nextLocal++
	if s.nextLocal == 0 {
		s.nextLocal = 1
	}
	s.bombs = append(s.bombs, pendingBomb{time: now, weapon: w, local: s.nextLocal})
	return s.nextLocal, true
}

func (s *shotState) weaponOf(k *clientcore.KeySchema) int {
	for i, wk := range s.keys {
		if wk == k {
			return i
		}
	}
	return -1
}

// filter applies the own-shot duplicate suppression to one emitted frame. Edited blocks get rows the
// game allocates (own shots are rare; frames without them cost nothing).
func (s *shotState) filter(f *clientcore.EventFrame, myID uint8, hasID bool, now float64) {
	s.expire(now)
	if len(s.expired) > 0 {
		s.injectExpired(f)
	}
	if !hasID {
		return
	}
	for bi := range f.Blocks {
		b := &f.Blocks[bi]
		w := s.weaponOf(b.Schema)
		if w < 0 {
			continue
		}
		if s.weapons[w].Explosive {
			s.filterBombs(b, w, myID, now)
		} else {
			s.filterTracers(b, w, myID)
		}
	}
}

func (s *shotState) expire(now float64) {
	k := 0
	for _, t := range s.tracers {
		if now-t.time <= pendingMaxAgeMs {
			s.tracers[k] = t
			k++
		}
	}
	s.tracers = s.tracers[:k]
	k = 0
	for _, b := range s.bombs {
		if now-b.time <= pendingMaxAgeMs {
			s.bombs[k] = b
			k++
		} else {
			s.expired = append(s.expired, b)
		}
	}
	s.bombs = s.bombs[:k]
	k = 0
	for _, a := range s.aliases {
		if now-a.time <= aliasMaxAgeMs {
			s.aliases[k] = a
			k++
		}
	}
	s.aliases = s.aliases[:k]
}

// injectExpired adds "L<n>": null to the frame for every expired local bomb,
// so the sprite the host never confirmed is removed.
func (s *shotState) injectExpired(f *clientcore.EventFrame) {
	blocks := append([]clientcore.Block(nil), f.Blocks...)
	for _, e := range s.expired {
		k := s.keys[e.weapon]
		if k == nil {
			continue
		}
		bi := -1
		for i := range blocks {
			if blocks[i].Schema == k {
				bi = i
				break
			}
		}
		if bi < 0 {
			blocks = append(blocks, clientcore.Block{Schema: k})
			bi = len(blocks) - 1
		}
		rows := append([]clientcore.Row(nil), blocks[bi].Rows...)
		blocks[bi].Rows = append(rows, clientcore.Row{Null: true, Local: e.local})
	}
	f.Blocks = blocks
	s.expired = s.expired[:0]
}

// author is the row's author id (the game id of the shooter), false for a
// row without fields.
func (s *shotState) author(w int, r *clientcore.Row) (uint32, bool) {
	v, ok := s.rows[w].author.Lookup(r.Fields)
	return uint32(v), ok
}

func (s *shotState) takeTracer(w int) bool {
	for i, t := range s.tracers {
		if t.weapon == w {
			s.tracers = append(s.tracers[:i], s.tracers[i+1:]...)
			return true
		}
	}
	return false
}

func (s *shotState) filterTracers(b *clientcore.Block, w int, myID uint8) {
	var kept []clientcore.Row
	edited := false
	for j := range b.Rows {
		r := &b.Rows[j]
		if a, ok := s.author(w, r); ok && a == uint32(myID) && s.takeTracer(w) {
			if !edited {
				kept = append(make([]clientcore.Row, 0, len(b.Rows)), b.Rows[:j]...)
				edited = true
			}
			continue
		}
		if edited {
			kept = append(kept, *r)
		}
	}
	if edited {
		b.Rows = kept
	}
}

func (s *shotState) aliasOf(w int, auth uint32) int {
	for i := range s.aliases {
		if s.aliases[i].weapon == w && s.aliases[i].auth == auth {
			return i
		}
	}
	return -1
}

func (s *shotState) filterBombs(b *clientcore.Block, w int, myID uint8, now float64) {
	for j := range b.Rows {
		r := &b.Rows[j]
		if r.Null || r.Local != 0 {
			continue
		}
		if a, ok := s.author(w, r); !ok || a != uint32(myID) || s.aliasOf(w, r.ID) >= 0 {
			continue
		}
		for i, pb := range s.bombs {
			if pb.weapon != w {
				continue
			}
			s.bombs = append(s.bombs[:i], s.bombs[i+1:]...)
			if len(s.aliases) == maxAliases {
				s.aliases = append(s.aliases[:0], s.aliases[1:]...)
			}
			s.aliases = append(s.aliases, alias{time: now, weapon: w, auth: r.ID, local: pb.local})
			break
		}
	}
	if len(s.aliases) == 0 {
		return
	}
	var rows []clientcore.Row
	for j := range b.Rows {
		r := &b.Rows[j]
		if r.Local != 0 {
			continue
		}
		ai := s.aliasOf(w, r.ID)
		if ai < 0 {
			continue
		}
		if rows == nil {
			rows = append([]clientcore.Row(nil), b.Rows...)
		}
		rows[j].Local = s.aliases[ai].local
		if r.Null {
			s.aliases = append(s.aliases[:ai], s.aliases[ai+1:]...)
		}
	}
	if rows != nil {
		b.Rows = rows
	}
}
