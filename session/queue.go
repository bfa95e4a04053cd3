package session

import "sync"

// Queue is the bounded hand-off from the read loop to the game loop, bounded
// by events and by bytes: a game loop that stalls while a host sends large
// messages cannot make it grow past either. Push never blocks (the read loop
// must keep answering PINGs whatever the game loop does). When full,
// positional frames give way first: the oldest queued frames are evicted;
// only when no frame is left to evict is the new event dropped, and that is
// counted so the game loop can resynchronise.
type Queue struct {
	mu            sync.Mutex
	items         []Event
	limit         int
	byteLimit     int
	bytes         int
	notify        chan struct{}
	droppedFrames int
	droppedEvents int
}

// DefaultQueueBytes is a queue's byte budget unless SetByteLimit says
// otherwise: the largest message a host may send (a map) and as much again
// of other traffic, many seconds of the heaviest snapshot traffic of the
// reference games. The game loop takes up to 4 MiB of it a tick, so a
// budget this size fills only when a host sends faster than any game does.
const DefaultQueueBytes = 2 * MaxIncomingMessage

// eventOverhead is what an event costs the queue besides its bytes.
const eventOverhead = 128

// NewQueue makes a queue holding at most limit events and
// DefaultQueueBytes.
func NewQueue(limit int) *Queue {
	if limit < 8 {
		limit = 8
	}
	return &Queue{limit: limit, byteLimit: DefaultQueueBytes, notify: make(chan struct{}, 1), items: make([]Event, 0, 64)}
}

// SetByteLimit sets the byte budget (a replay sizes it to its recording so
// that a fast replay loses nothing).
func (q *Queue) SetByteLimit(n int) {
	q.mu.Lock()
	q.byteLimit = max(n, MaxIncomingMessage+eventOverhead)
	q.mu.Unlock()
}

func cost(e *Event) int { return len(e.Data) + e.Size + eventOverhead }

// Push appends e; see Queue for the overflow rule.
func (q *Queue) Push(e Event) {
	c := cost(&e)
	q.mu.Lock()
	if len(q.items) >= q.limit || q.bytes+c > q.byteLimit {
		q.makeRoom(c)
	}
	if len(q.items) >= q.limit || q.bytes+c > q.byteLimit {
		if e.Kind == EventFrame {
			q.droppedFrames++
		} else {
			q.droppedEvents++
		}
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, e)
	q.bytes += c
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// makeRoom evicts the oldest frames, in one pass over the queue, until an
// event costing c fits with a quarter of both budgets to spare, or no frame
// is left. A host that outpaces the game loop then costs one pass every
// quarter of the queue, not one a push.
func (q *Queue) makeRoom(c int) {
	wantLen := q.limit - max(q.limit/4, 1)
	wantBytes := q.byteLimit - q.byteLimit/4 - c
	n, bytes := len(q.items), q.bytes
	keep := q.items[:0]
	for i := range q.items {
		if q.items[i].Kind == EventFrame && (n > wantLen || bytes > wantBytes) {
			n--
			bytes -= cost(&q.items[i])
			q.droppedFrames++
			continue
		}
		keep = append(keep, q.items[i])
	}
	clear(q.items[len(keep):])
	q.items, q.bytes = keep, bytes
}

// Ready is signalled after a Push; a game loop that sleeps can wait on it.
func (q *Queue) Ready() <-chan struct{} { return q.notify }

// Drain moves every queued event into dst (reusing its storage) in arrival order.
func (q *Queue) Drain(dst []Event) []Event {
	q.mu.Lock()
	dst = append(dst[:0], q.items...)
	clear(q.items)
	q.items = q.items[:0]
	q.bytes = 0
	q.mu.Unlock()
	return dst
}

// DrainUpTo moves the oldest queued events into dst (reusing its storage)
// in arrival order: at most maxEvents of them, and no more than fit in
// maxBytes of data (the first always comes). The rest stay queued, in order.
func (q *Queue) DrainUpTo(dst []Event, maxEvents, maxBytes int) []Event {
	dst = dst[:0]
	q.mu.Lock()
	n, bytes := 0, 0
	for n < len(q.items) && n < maxEvents {
		c := cost(&q.items[n])
		if n > 0 && c > maxBytes-bytes {
			break
		}
		bytes += c
		n++
	}
	dst = append(dst, q.items[:n]...)
	left := copy(q.items, q.items[n:])
	clear(q.items[left:])
	q.items = q.items[:left]
	q.bytes -= bytes
	q.mu.Unlock()
	return dst
}

// Len is the number of events queued.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// Dropped reports the frames and events lost to overflow so far.
func (q *Queue) Dropped() (frames, events int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.droppedFrames, q.droppedEvents
}
