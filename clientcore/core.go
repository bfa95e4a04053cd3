package clientcore

import (
	"errors"
	"math"

	"vimpclient/gamemap"
)

// Options are the interpolation settings from CONFIG_DATA.interpolation.
type Options struct {
	// Delay is how far behind the estimated server time the world is drawn,
	// in ms. Zero means the engine default, 100.
	Delay float64
	// MaxFrameAge is the age limit of buffered frames in ms. Zero means the
	// engine default, 1000.
	MaxFrameAge float64
	// Adaptive replaces the engine's render time (localNow + offset −
	// Delay, no extrapolation) with the adaptive render clock: it only
	// slews, its delay follows the lateness of frames within
	// [MinAdaptiveDelay, MaxAdaptiveDelay] starting from Delay, and it
	// extrapolates hot entities for a while past the newest frame. See
	// renderclock.go and extrapolate.go.
	Adaptive bool
	// WatchJumps follows the remote actors from sample to sample for
	// InterpStats' Jumps (a summary's figure; it costs a look at every
	// actor a sample, which a window has no use for).
	WatchJumps bool
}

// Engine defaults for Options.
const (
	DefaultDelay       = 100.0
	DefaultMaxFrameAge = 1000.0
	// FramePort is the port byte of snapshot frames (SHOT_DATA).
	FramePort = 5
	// maxQueued bounds event frames waiting for TakeFrames, for a shell that
	// never takes them.
	maxQueued = 1024
)

// ErrWrongPort: the frame decoded but its port byte is not 5.
var ErrWrongPort = errors.New("snapshot frame: port is not 5")

// HotFlags say what one Sample produced.
type HotFlags uint32

const (
	HotGame      HotFlags = 1 << iota // render time reached a buffered frame
	HotCamera                         // Camera holds a camera
	HotPredicted                      // Tail holds predicted records
	HotFrames                         // event frames are waiting in TakeFrames
)

// Record is one entity's interpolated fields, full schema width.
type Record struct {
	Schema *KeySchema
	// ID is the entity id (indexed8) or the slot index (indexedNoNull8;
	// the renderer names it "d"+index).
	ID     uint32
	Fields []float32
}

// Key is the record's schema key name.
func (r *Record) Key() string { return r.Schema.Name }

// KeyID is the record's wire key id.
func (r *Record) KeyID() uint8 { return r.Schema.ID }

// Hot is the world at render time: what the renderer applies every tick. It
// is valid until the next call into the core.
type Hot struct {
	Flags    HotFlags
	Camera   [2]float32 // meaningful when Flags&HotCamera != 0
	Actors   []Record   // hot indexed8 rows, in the reference frame's block order
	Dynamics []Record   // hot indexedNoNull8 rows
	Tail     []Record   // overlay and predicted records; later entries win
}

// Flatten appends the engine's flat hot layout: [flags, camX, camY, N,
// N records, M, M records, tail records], a record being [keyId, id, fields...].
func (h *Hot) Flatten(dst []float32) []float32 {
	dst = append(dst, float32(h.Flags), h.Camera[0], h.Camera[1])
	for _, group := range [][]Record{h.Actors, h.Dynamics} {
		dst = append(dst, float32(len(group)))
		for _, r := range group {
			dst = append(dst, float32(r.Schema.ID), float32(r.ID))
			dst = append(dst, r.Fields...)
		}
	}
	for _, r := range h.Tail {
		dst = append(dst, float32(r.Schema.ID), float32(r.ID))
		dst = append(dst, r.Fields...)
	}
	return dst
}

// EventFrame is a buffered frame delivered once, when render time first
// reaches it (or at the next sample, for a late frame). Its rows create and
// remove entities and carry one-shot events; its camera carries force-reset
// and shake. It is valid until the next call into the core.
type EventFrame struct {
	Seq        uint32
	ServerTime float64
	// Blocks in frame order, each key once (a repeated key keeps its first
	// position and its last block).
	Blocks    []Block
	HasCamera bool
	Camera    FrameCamera
}

// rows counts the frame's rows over all its blocks.
func (f *EventFrame) rows() int {
	n := 0
	for i := range f.Blocks {
		n += len(f.Blocks[i].Rows)
	}
	return n
}

// Stats counts what the core did with the frames it was given.
type Stats struct {
	Pushed       uint64 // PushFrame calls
	Decoded      uint64 // frames that decoded on port 5
	Dropped      uint64 // wrong version, truncated, wrong port, too many rows
	Duplicates   uint64 // already buffered, issued or emitted
	Late         uint64 // behind render time: emitted at once, never interpolated
	Pruned       uint64 // lost to maxFrameAge or the 256-frame cap, never emitted
	Emitted      uint64 // event frames queued
	QueueDropped uint64 // event frames dropped because nobody took them (or late frames beyond 256 between samples)
}

// Core is the client core: it decodes frames, buffers them, and samples the
// world at render time. It is owned by one goroutine (the game loop) and
// needs no lock.
type Core struct {
	schema      *Schema
	dec         *Decoder
	delay       float64
	maxFrameAge float64

	buf    buffer
	slots  slotPool
	events eventDelivery

	hot  Hot
	recs []Record
	vals []float32
	segs []segment
	// keys marks the keys of a frame or a sample already placed, ids the
	// entity ids of the frame being interpolated towards.
	keys byteIndex
	ids  byteIndex
	// decodes numbers the frames decoded (slot.gen); spans and cut let a
	// sample between the same two frames as the last reuse its records
	// (see cutState).
	decodes uint64
	spans   []spanLerp
	cut     cutState

	game         gameRoles
	player       playerState
	lastSampleAt float64
	lastErr      error
	stats        Stats
	observe      func(f *Frame)

	// The render clock's figures, and with Options.Adaptive its state:
	// the clock, the frame before the reference one (kept for its
	// velocity), and the blend that fades out the difference between an
	// extrapolated sample and the frames that land after it.
	fig        interpFigures
	jumps      jumpWatch
	adaptive   bool
	watchJumps bool // Options.WatchJumps
	rc         renderClock
	prev       *slot
	blend      blendState
}

// playerState is the local player as the accepted player blocks tell it.
type playerState struct {
	id    uint8 // the own actor's game id
	hasID bool
	// block is the player block of the last accepted frame.
	block    PlayerBlock
	hasBlock bool
	// reconSeq is the seq of the last frame reconciled: an older one would
	// rewind the prediction.
	reconSeq    uint32
	hasReconSeq bool
}

// byteIndex marks byte-sized ids (key ids, entity ids) as seen in the
// current generation, with a position each; bumping gen forgets every
// mark at once.
type byteIndex struct {
	gen  uint32
	seen [256]uint32
	pos  [256]int32
}

// slotPool recycles the slots frames decode into.
type slotPool struct {
	// scratch is the slot the next frame decodes into.
	scratch *slot
	free    []*slot
	// bytes is the storage of the pooled slots.
	bytes int
	// freed is the reused list of slots a push or a drop let go.
	freed []*slot
}

// get returns a pooled slot, or a new one.
func (p *slotPool) get() *slot {
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		p.bytes -= s.frame.size()
		s.pooled = false
		return s
	}
	return &slot{}
}

// release pools the slots no longer referenced by the buffer or the queue.
// A slot can be listed twice (buffered and queued at a reset); it is pooled
// once.
//
// The pool keeps at most maxHeldBytes of storage: a slot past that is left
// to the garbage collector, so a burst of large frames is not kept for
// ever.
func (p *slotPool) release(slots []*slot) {
	for _, s := range slots {
		if !s.inBuffer && !s.inQueue && !s.pooled && !s.kept {
			s.issued, s.pooled = false, true
			if sz := s.frame.size(); p.bytes+sz <= maxHeldBytes {
				p.free = append(p.free, s)
				p.bytes += sz
			}
		}
	}
}

// eventDelivery is the event frames on their way to TakeFrames.
type eventDelivery struct {
	queue  []*slot      // emitted, waiting for TakeFrames
	spawns []EventFrame // the game's local spawns, waiting for TakeFrames
	taken  []*slot      // handed out by the last TakeFrames
	out    []EventFrame // what the last TakeFrames returned
}

type segment struct {
	key        *KeySchema
	start, end int // into recs
}

// New returns a core for schema s.
func New(s *Schema, opts Options) *Core {
	c := &Core{schema: s, dec: NewDecoder(s), delay: opts.Delay, maxFrameAge: opts.MaxFrameAge}
	if c.delay == 0 {
		c.delay = DefaultDelay
	}
	if c.maxFrameAge == 0 {
		c.maxFrameAge = DefaultMaxFrameAge
	}
	c.slots.scratch = &slot{}
	c.game = rolesOf(NopGame{})
	c.adaptive, c.watchJumps = opts.Adaptive, opts.WatchJumps
	c.rc.init(c.delay)
	return c
}

// Schema returns the core's schema.
func (c *Core) Schema() *Schema { return c.schema }

// Stats returns the frame counters.
func (c *Core) Stats() Stats {
	s := c.stats
	s.QueueDropped += c.buf.lateDropped
	return s
}

// InterpStats returns the render clock's figures.
func (c *Core) InterpStats() InterpStats {
	s := c.fig.stats()
	s.LateFrames = c.stats.Late
	s.Jumps, s.MaxJumpFrames = c.jumps.s.Jumps, c.jumps.s.MaxJumpFrames
	return s
}

// HoldFigures stops the render clock's figures where they stand: the
// client is leaving, and what it draws from then on says nothing of the
// network.
func (c *Core) HoldFigures() { c.fig.held, c.jumps.held = true, true }

// Freezes is InterpStats().Freezes, read without the median's walk (the
// net graph reads it every tick).
func (c *Core) Freezes() uint64 { return c.fig.s.Freezes }

// Delay is the interpolation delay in use, ms: the host's with the
// engine's clock, the adaptive one's otherwise.
func (c *Core) Delay() float64 {
	if c.adaptive {
		return c.rc.delay
	}
	return c.delay
}

// LastError returns why the last dropped frame was dropped.
func (c *Core) LastError() error { return c.lastErr }

// MyGameID returns the local player's actor id, known once a frame with a
// player block arrived and forgotten by Reset.
func (c *Core) MyGameID() (uint8, bool) { return c.player.id, c.player.hasID }

// Offset returns the estimate of server time minus local time, once known.
func (c *Core) Offset() (float64, bool) { return c.buf.offset, c.buf.hasOffset }

// Buffered returns how many frames the interpolation buffer holds.
func (c *Core) Buffered() int { return len(c.buf.frames) }

// LastPlayer returns the player block of the last accepted frame.
func (c *Core) LastPlayer() (PlayerBlock, bool) { return c.player.block, c.player.hasBlock }

// settle recycles the event frames handed out by the last TakeFrames: the
// contract is that they are valid until the next call into the core.
func (c *Core) settle() {
	if len(c.events.taken) == 0 {
		return
	}
	for _, s := range c.events.taken {
		s.inQueue = false
	}
	c.slots.release(c.events.taken)
	clear(c.events.taken)
	c.events.taken = c.events.taken[:0]
}

// PushFrame decodes wire bytes that arrived at localNow (ms, monotonic clock)
// and buffers the frame. It returns false when the frame was dropped (wrong
// version, truncated, wrong port, too many rows), true otherwise, also when
// the buffer ignored it as a duplicate.
func (c *Core) PushFrame(b []byte, localNow float64) bool {
	c.settle()
	c.stats.Pushed++
	s := c.slots.scratch
	if err := c.dec.Decode(b, &s.frame); err != nil {
		c.stats.Dropped++
		c.lastErr = err
		return false
	}
	if s.frame.Port != FramePort {
		c.stats.Dropped++
		c.lastErr = ErrWrongPort
		return false
	}
	c.stats.Decoded++
	c.decodes++
	s.gen = c.decodes
	if c.observe != nil {
		c.observe(&s.frame)
	}
	// A player block is reconciled unless its frame is a duplicate or older
	// than the last one reconciled: an out-of-order block would rewind the
	// prediction to an older state.
	reconcile := s.frame.HasPlayer && !c.buf.isIssued(s.frame.Seq) && !c.buf.emitted.has(s.frame.Seq) &&
		(!c.player.hasReconSeq || seqLess(c.player.reconSeq, s.frame.Seq))
	if reconcile && c.game.bodies != nil {
		c.game.bodies.BeginReconcile(&s.frame)
	}
	if c.adaptive {
		c.rc.arrive(s.frame.ServerTime, localNow)
	}
	res, freed := c.buf.push(s, localNow, c.maxFrameAge, c.slots.freed[:0])
	switch res {
	case pushDuplicate:
		c.stats.Duplicates++
	case pushLate:
		c.stats.Late++
		c.slots.scratch = c.slots.get()
	case pushBuffered:
		c.slots.scratch = c.slots.get()
	}
	for _, f := range freed {
		if !f.issued {
			c.stats.Pruned++
		}
	}
	c.slots.release(freed)
	clear(freed)
	c.slots.freed = freed[:0]
	if res != pushDuplicate {
		c.shed()
	}
	if reconcile && res != pushDuplicate {
		c.player.id, c.player.hasID = s.frame.Player.GameID, true
		c.player.block, c.player.hasBlock = s.frame.Player, true
		c.player.reconSeq, c.player.hasReconSeq = s.frame.Seq, true
		offset, _ := c.Offset()
		c.game.OnServerState(&s.frame.Player, s.frame.ServerTime, offset, localNow)
	}
	if reconcile && c.game.bodies != nil {
		c.game.bodies.FinishReconcile()
	}
	return true
}

func (c *Core) enqueue(s *slot) {
	if len(c.events.queue) >= maxQueued {
		old := c.events.queue[0]
		old.inQueue = false
		copy(c.events.queue, c.events.queue[1:])
		c.events.queue = c.events.queue[:len(c.events.queue)-1]
		c.stats.QueueDropped++
		c.slots.release([]*slot{old})
	}
	s.inQueue = true
	c.events.queue = append(c.events.queue, s)
	c.stats.Emitted++
	f := &s.frame
	s.event = EventFrame{Seq: f.Seq, ServerTime: f.ServerTime, Blocks: c.mergedBlocks(s), HasCamera: f.HasCamera, Camera: f.Camera}
	if c.game.tracker != nil {
		c.game.tracker.TrackFrame(c.player.id, c.player.hasID, &s.event)
	}
	if c.game.filter != nil {
		c.game.filter.FilterFrame(&s.event, c.player.id, c.player.hasID, c.lastSampleAt)
	}
}

// Sample advances render time to localNow + offset - delay, queues the frames
// it crossed as event frames (each exactly once), and returns the world
// interpolated at render time. The result is valid until the next call into
// the core.
func (c *Core) Sample(localNow float64) *Hot {
	c.settle()
	c.lastSampleAt = localNow
	h := c.sampleWorld(localNow)
	if c.game.hot != nil {
		c.game.hot.ObserveHot(h)
	}
	c.game.Update(localNow)
	var cam [2]float32
	var hasCam bool
	h.Tail, cam, hasCam = c.game.Overlay(c.player.id, c.player.hasID, h.Tail[:0])
	if len(h.Tail) > 0 {
		h.Flags |= HotPredicted
	}
	if hasCam {
		h.Camera = cam
		h.Flags |= HotCamera
	}
	if len(c.events.queue) > 0 || len(c.events.spawns) > 0 {
		h.Flags |= HotFrames
	}
	return h
}

// TakeFrames returns the queued event frames in emission order, then the
// game's local spawns, and empties the queue. The frames are valid until the
// next call into the core.
func (c *Core) TakeFrames() []EventFrame { return c.TakeFramesUpTo(math.MaxInt, math.MaxInt) }

// TakeFramesUpTo is TakeFrames bounded for one tick: at most maxFrames
// queued frames, and no more of them than fit in maxRows rows (the first
// always comes, however large). The rest stay queued, in order, for the
// next call; the local spawns come once the queue is empty.
func (c *Core) TakeFramesUpTo(maxFrames, maxRows int) []EventFrame {
	c.settle()
	c.events.out = c.events.out[:0]
	n, rows := 0, 0
	for _, s := range c.events.queue {
		r := s.event.rows()
		if n == maxFrames || (n > 0 && r > maxRows-rows) {
			break
		}
		c.events.out = append(c.events.out, s.event)
		n++
		rows += r
	}
	c.events.taken = append(c.events.taken, c.events.queue[:n]...)
	left := copy(c.events.queue, c.events.queue[n:])
	clear(c.events.queue[left:])
	c.events.queue = c.events.queue[:left]
	if left == 0 {
		c.events.out = append(c.events.out, c.events.spawns...)
		clear(c.events.spawns)
		c.events.spawns = c.events.spawns[:0]
	}
	return c.events.out
}

// Pending is the number of event frames queued for the next TakeFrames.
func (c *Core) Pending() int { return len(c.events.queue) }

// mergedBlocks returns the frame's blocks with each key once, in storage
// the slot owns, so that a game filtering the event frame never edits the
// buffered frame.
func (c *Core) mergedBlocks(s *slot) []Block {
	blocks := s.frame.Blocks
	s.dedup = s.dedup[:0]
	c.keys.gen++
	for i := range blocks {
		id := blocks[i].Schema.ID
		if c.keys.seen[id] == c.keys.gen {
			s.dedup[c.keys.pos[id]] = blocks[i]
			continue
		}
		c.keys.seen[id], c.keys.pos[id] = c.keys.gen, int32(len(s.dedup))
		s.dedup = append(s.dedup, blocks[i])
	}
	return s.dedup
}

// drop empties the buffer and the event queue.
func (c *Core) drop() {
	c.settle()
	freed := c.buf.reset(c.slots.freed[:0])
	for _, s := range c.events.queue {
		s.inQueue = false
		freed = append(freed, s)
	}
	clear(c.events.queue)
	c.events.queue = c.events.queue[:0]
	clear(c.events.spawns)
	c.events.spawns = c.events.spawns[:0]
	if c.prev != nil {
		c.prev.kept = false
		freed = append(freed, c.prev)
		c.prev = nil
	}
	c.slots.release(freed)
	clear(freed)
	c.slots.freed = freed[:0]
	c.rc.restart()
	c.fig.forget()
	c.jumps.forget()
	c.blend.shownValid, c.blend.active = false, false
}

// Reset is CLEAR (port 11): the world no longer exists. The buffer and the
// event queue are emptied and the local player's id is forgotten.
func (c *Core) Reset() {
	c.drop()
	c.player.hasID, c.player.id = false, 0
	c.player.hasBlock, c.player.hasReconSeq = false, false
	c.game.Reset()
}

// SetMap is MAP_DATA (port 3): the buffer and event queue are emptied; the
// local player's id is kept; the game gets the map (nil when it could not be
// read) for its prediction.
func (c *Core) SetMap(m *gamemap.Map) {
	c.drop()
	c.player.hasReconSeq = false
	if c.game.maps != nil {
		c.game.maps.SetMap(m)
	}
}

// ObserveFrames makes fn see every frame that decodes, as PushFrame decodes
// it (a summary counting entity ids, a recorder): the frame is decoded once
// for everyone. fn must not keep f; nil stops it.
func (c *Core) ObserveFrames(fn func(f *Frame)) { c.observe = fn }

// Resync follows a pause of the render loop of 3 s or more: the buffer and
// event queue are emptied, the player's id and the prediction kept.
func (c *Core) Resync() {
	c.drop()
	c.player.hasReconSeq = false
}
