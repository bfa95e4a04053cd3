package session

import "sync"

// Queue is the bounded hand-off from the read loop to the game loop. Push
// never blocks (the read loop must keep answering PINGs whatever the game
// loop does). When full, positional frames give way first: the oldest queued
// frame is evicted; only when no frame is left to evict is the new event
// dropped, and that is counted so the game loop can resynchronise.
type Queue struct {
	mu            sync.Mutex
	items         []Event
	limit         int
	notify        chan struct{}
	droppedFrames int
	droppedEvents int
}

// NewQueue makes a queue holding at most limit events.
func NewQueue(limit int) *Queue {
	if limit < 8 {
		limit = 8
	}
	return &Queue{limit: limit, notify: make(chan struct{}, 1), items: make([]Event, 0, 64)}
}

// Push appends e; see Queue for the overflow rule.
func (q *Queue) Push(e Event) {
	q.mu.Lock()
	if len(q.items) >= q.limit {
		evicted := false
		for i := range q.items {
			if q.items[i].Kind == EventFrame {
				copy(q.items[i:], q.items[i+1:])
				q.items[len(q.items)-1] = Event{}
				q.items = q.items[:len(q.items)-1]
				q.droppedFrames++
				evicted = true
				break
			}
		}
		if !evicted {
			if e.Kind == EventFrame {
				q.droppedFrames++
			} else {
				q.droppedEvents++
			}
			q.mu.Unlock()
			return
		}
	}
	q.items = append(q.items, e)
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// Ready is signalled after a Push; a game loop that sleeps can wait on it.
func (q *Queue) Ready() <-chan struct{} { return q.notify }

// Drain moves every queued event into dst (reusing its storage) in arrival order.
func (q *Queue) Drain(dst []Event) []Event {
	q.mu.Lock()
	dst = append(dst[:0], q.items...)
	clear(q.items)
	q.items = q.items[:0]
	q.mu.Unlock()
	return dst
}

// Dropped reports the frames and events lost to overflow so far.
func (q *Queue) Dropped() (frames, events int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.droppedFrames, q.droppedEvents
}
