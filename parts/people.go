package parts

// People is what the parts know of the players behind the entities: their
// names by entity id, as the scoreboard gives them, and whether the player
// wants names drawn in the world. One People lives as long as the world
// (across its scenes); the game loop fills it, the parts read it.
type People struct {
	// Show draws the names (and marks the own entity) when true.
	Show   bool
	names  map[uint32]string
	badges map[uint32]Badges
}

// Badges are the awards a player wears in the world, from the game's
// global leaderboard: a bit per award.
type Badges uint8

const (
	BadgeDay   Badges = 1 << iota // among the day's top ten
	BadgeMonth                    // among the month's top ten
)

// SetBadges replaces the badges with those of badges (entity id → badges),
// keeping at most maxPeople; badges is not kept.
func (p *People) SetBadges(badges map[uint32]Badges) {
	if p.badges == nil {
		p.badges = map[uint32]Badges{}
	}
	clear(p.badges)
	for id, b := range badges {
		if len(p.badges) >= maxPeople {
			break
		}
		if b != 0 {
			p.badges[id] = b
		}
	}
}

// Badges is entity id's badges (none from a nil People). Badges are worn
// whether or not names are shown.
func (p *People) Badges(id uint32) Badges {
	if p == nil {
		return 0
	}
	return p.badges[id]
}

// maxPeople bounds the names kept: a scoreboard lists at most a few
// hundred players, a hostile one is cut here.
const maxPeople = 4096

// SetNames replaces the names with those of names (entity id → name),
// keeping at most maxPeople of them; names is not kept.
func (p *People) SetNames(names map[uint32]string) {
	if p.names == nil {
		p.names = map[uint32]string{}
	}
	clear(p.names)
	for id, n := range names {
		if len(p.names) >= maxPeople {
			break
		}
		p.names[id] = n
	}
}

// Name is entity id's name, "" when none is known. A nil People knows no
// names.
func (p *People) Name(id uint32) string {
	if p == nil {
		return ""
	}
	return p.names[id]
}

// Shown reports whether names are to be drawn; a nil People shows none.
func (p *People) Shown() bool { return p != nil && p.Show }
