package parts

// EventKind says what happened at a scene Event.
type EventKind uint8

const (
	// EventBlast is a detonation: something within R world units of
	// (X, Y) on the same level is shaken by it.
	EventBlast EventKind = iota + 1
	// EventShot is a shot fired by actor Author.
	EventShot
)

// Event is one thing that happened in the scene that parts other than the
// one that saw it react to in their looks: a tank rocks when a bomb goes
// off beside it, or kicks back when its own shot is seen.
type Event struct {
	Kind   EventKind
	X, Y   float64
	R      float64
	Level  int
	Author uint32
}

// maxEvents bounds the remembered events: more than a busy frame brings,
// so a part that reads them every step misses none.
const maxEvents = 64

// Events is a scene's ring of recent events. A part that tells of an event
// adds it; a part that reacts keeps the sequence number it has read up to
// and reads what came since, each step. It is bounded (the oldest events
// are overwritten) and allocates nothing.
type Events struct {
	ring [maxEvents]Event
	next uint64 // the sequence number the next event gets
}

// Add records an event.
func (e *Events) Add(ev Event) {
	e.ring[e.next%maxEvents] = ev
	e.next++
}

// Next is the sequence number the next event will get: a reader that has
// read everything before it is up to date.
func (e *Events) Next() uint64 { return e.next }

// Oldest is the sequence number of the oldest event still remembered.
func (e *Events) Oldest() uint64 {
	if e.next < maxEvents {
		return 0
	}
	return e.next - maxEvents
}

// At returns the event with sequence number seq, false when it has been
// overwritten or has not happened yet.
func (e *Events) At(seq uint64) (Event, bool) {
	if seq >= e.next || seq < e.Oldest() {
		return Event{}, false
	}
	return e.ring[seq%maxEvents], true
}
