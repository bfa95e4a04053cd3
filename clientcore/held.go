package clientcore

import "unsafe"

// maxHeldBytes bounds the decoded frames a core holds at once — buffered,
// late, queued for TakeFrames or handed out — and the storage its pool of
// free slots keeps (each as much again). The frame-count caps alone let a
// host that sends large frames fast make a core hold hundreds of MiB; a
// reference game's frame is a few KiB, so 256 buffered frames and a full
// queue of them stay far below this.
const maxHeldBytes = 4 << 20

const (
	rowBytes   = int(unsafe.Sizeof(Row{}))
	blockBytes = int(unsafe.Sizeof(Block{}))
)

// size is the storage a decoded frame keeps.
func (f *Frame) size() int {
	return cap(f.rows)*rowBytes + cap(f.vals)*4 + cap(f.wide)*4 + cap(f.Blocks)*blockBytes
}

// heldBytes is the storage of every frame the core refers to.
func (c *Core) heldBytes() int {
	n := c.slots.scratch.frame.size()
	for _, s := range c.buf.frames {
		n += s.frame.size()
	}
	for _, s := range c.buf.pendingLate {
		n += s.frame.size()
	}
	for _, s := range c.events.queue {
		if !s.inBuffer {
			n += s.frame.size()
		}
	}
	for _, s := range c.events.taken {
		n += s.frame.size()
	}
	return n
}

// shed drops frames until what the core holds fits maxHeldBytes: first
// the oldest event frames nobody took (counted in QueueDropped), then the
// oldest buffered frames but the two newest (counted in Pruned, as frames
// lost to the 256-frame cap are).
func (c *Core) shed() {
	over := c.heldBytes() - maxHeldBytes
	for over > 0 && len(c.events.queue) > 0 {
		old := c.events.queue[0]
		if !old.inBuffer {
			over -= old.frame.size()
		}
		old.inQueue = false
		copy(c.events.queue, c.events.queue[1:])
		c.events.queue[len(c.events.queue)-1] = nil
		c.events.queue = c.events.queue[:len(c.events.queue)-1]
		c.stats.QueueDropped++
		c.slots.release([]*slot{old})
	}
	b := &c.buf
	drop := 0
	for over > 0 && len(b.frames)-drop > 2 {
		old := b.frames[drop]
		over -= old.frame.size()
		old.inBuffer = false
		if !old.issued {
			c.stats.Pruned++
		}
		drop++
	}
	if drop > 0 {
		freed := append(c.slots.freed[:0], b.frames[:drop]...)
		n := copy(b.frames, b.frames[drop:])
		clear(b.frames[n:])
		b.frames = b.frames[:n]
		c.slots.release(freed)
		clear(freed)
		c.slots.freed = freed[:0]
	}
}

// HeldBytes is the storage of the decoded frames the core holds and of its
// pool of free slots: at most twice maxHeldBytes plus one frame being
// decoded (for tests and diagnostics).
func (c *Core) HeldBytes() int { return c.heldBytes() + c.slots.bytes }

// MaxHeldBytes is the bound HeldBytes keeps to, the frame being decoded
// aside.
const MaxHeldBytes = 2 * maxHeldBytes
