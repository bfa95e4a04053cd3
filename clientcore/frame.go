package clientcore

import (
	"encoding/binary"
	"errors"
	"math"
)

// Decode errors. Each drops the whole frame.
var (
	// ErrWrongVersion: the format version byte is not 5.
	ErrWrongVersion = errors.New("snapshot frame: format version is not 5")
	// ErrTruncated: a read ran past the end of the frame.
	ErrTruncated = errors.New("snapshot frame: truncated")
	// ErrTooManyRows: the frame declares more rows than any real host sends
	// (zero-width rows make large counts cost no bytes); refusing them
	// bounds the memory one frame can claim.
	ErrTooManyRows = errors.New("snapshot frame: too many rows")
)

// MaxRowsPerFrame bounds the rows one frame may decode to.
const MaxRowsPerFrame = 1 << 17

// Frame header flag bits.
const (
	flagCamera     = 1 << 0
	flagForceReset = 1 << 1
	flagShake      = 1 << 2
	flagPlayer     = 1 << 3
)

// PlayerStateLen is the number of floats in a player block.
const PlayerStateLen = 8

// PlayerBlock is the receiving user's own actor state, sent raw (not rounded)
// so the predictor can reconcile against it.
type PlayerBlock struct {
	GameID       uint8
	LastInputSeq uint32
	State        [PlayerStateLen]float32
	Centering    bool
}

// FrameCamera is a frame's camera as decoded: x and y already rounded to two
// decimals, the shake text in its raw bytes.
type FrameCamera struct {
	X, Y       float32
	ForceReset bool
	HasShake   bool
	Shake      []byte // raw bytes; ShakeText decodes them
}

// ShakeText returns the shake bytes as text, each maximal invalid UTF-8
// subsequence replaced by one U+FFFD.
func (c *FrameCamera) ShakeText() string { return lossyUTF8(c.Shake) }

// Row is one entity's fields in schema order, always full width, in the
// element type of Record.Fields: f32 fields hold the rounded value, u8 and
// u16 fields their exact value. A u32 field above 2^24 is rounded to the
// nearest float32 in Fields, as the engine's hot data does; the decoder keeps
// its exact wire value beside it for the JSON form.
//
// Read fields through a BoundField, bound by name once per schema.
type Row struct {
	// ID is the entity id (indexed8, indexed32), the slot index
	// (indexedNoNull8) or the position in the list (list16).
	ID   uint32
	Null bool // the entity is gone (indexed kinds only)
	// Local, when non-zero, names a locally spawned entity "L<Local>"
	// instead of ID: a game's own-shot suppression renames the host's row
	// of a shot the client already drew.
	Local  uint32
	Fields []float32
	// wide holds the exact values of the row's u32 fields, in field order
	// (nil for keys without u32 fields and for rows built outside the
	// decoder).
	wide []uint32
}

// exact returns field i as the wire carried it: u32 fields from wide,
// every other field from Fields.
func (r *Row) exact(k *KeySchema, i int) float64 {
	if i < len(k.wideAt) {
		if w := k.wideAt[i]; w >= 0 && w < len(r.wide) {
			return float64(r.wide[w])
		}
	}
	return float64(r.Fields[i])
}

// Block is the rows of one key in one frame.
type Block struct {
	Schema *KeySchema
	Rows   []Row
	start  int // first row in Frame.rows
	end    int
	// span: the decoder wrote rows start..end non-null, in wire order,
	// their fields one after the other in Frame.vals from voff (see
	// lerpSpan).
	span bool
	voff int
}

// Key is the block's schema key name.
func (b *Block) Key() string { return b.Schema.Name }

// Frame is one decoded snapshot frame. Decode reuses its storage. Its rows
// and their fields are read-only to everyone but the decoder: a consumer
// that filters a block gives it new rows instead.
type Frame struct {
	Port, Version uint8
	Seq           uint32
	ServerTime    float64
	HasCamera     bool
	Camera        FrameCamera
	HasPlayer     bool
	Player        PlayerBlock
	// Blocks in frame order; a key may appear twice.
	Blocks []Block

	rows []Row
	vals []float32
	wide []uint32 // exact u32 values, see Row
	// moved is set while decoding when vals or wide had to grow, which
	// leaves the rows' fields already cut pointing at the old storage.
	moved bool
	// plainFrom: every slot of rows' storage from plainFrom on holds a
	// row with no null mark, local name or exact values, as a new slot
	// does, so the span path need not write them. messyTo is the end of
	// the slots the current decode wrote otherwise (by decodeRows'
	// passes, or with exact values); see plainRows.
	plainFrom, messyTo int
}

// Decoder decodes v5 frames against one schema. Its scratch state makes it
// unsafe for concurrent use; give each goroutine its own.
type Decoder struct {
	schema *Schema
	// seenGen/seenPos find a repeated id inside one 8-bit-id block without
	// clearing a table per block.
	gen     uint32
	seenGen [256]uint32
	seenPos [256]int32
	ids     idTable
	// hdrs, full and head are the scratch of the block being decoded: its
	// row headers and its rows with and without their optional tail (see
	// decodeRows).
	hdrs       []rowHdr
	full, head []rowAt
	// span is the scratch of the span path (see decodeSpan).
	span spanScratch
	// passesOnly decodes every block by decodeRows' passes, never on the
	// span path: the tests' reference for the span path.
	passesOnly bool
	// vector rounds the span path's f32 fields with the vector kernels
	// (see round_amd64.go), where the processor has them.
	vector bool
}

// NewDecoder returns a decoder for frames described by s.
func NewDecoder(s *Schema) *Decoder {
	return &Decoder{schema: s, vector: vectorRounding()}
}

// Schema returns the decoder's schema.
func (d *Decoder) Schema() *Schema { return d.schema }

type reader struct {
	b   []byte
	pos int
}

func (r *reader) need(n int) bool { return len(r.b)-r.pos >= n }

// Decode decodes wire bytes (starting with the port byte) into f, reusing f's
// storage. It does not check the port: the caller decides what a frame on
// another port means. On error f's contents are unspecified.
//
// A frame whose values outgrew f's storage is decoded again, into the
// storage grown to hold them, so that every row's fields are in f.vals;
// the second decode cannot grow it (rows need no place of their own to be
// pointed at their values again), and happens only while a decoder's
// frames grow to their size.
func (d *Decoder) Decode(b []byte, f *Frame) error {
	err := d.decode(b, f)
	if err == nil && f.moved {
		err = d.decode(b, f)
	}
	return err
}

// decode is Decode's one pass.
func (d *Decoder) decode(b []byte, f *Frame) error {
	f.Blocks = f.Blocks[:0]
	f.rows = f.rows[:0]
	f.vals = f.vals[:0]
	f.wide = f.wide[:0]
	f.HasCamera, f.HasPlayer = false, false
	f.Camera = FrameCamera{Shake: f.Camera.Shake[:0]}
	if len(b) < 2 {
		return ErrTruncated
	}
	f.Port, f.Version = b[0], b[1]
	if f.Version != 5 {
		return ErrWrongVersion
	}
	if len(b) < 15 {
		return ErrTruncated
	}
	f.Seq = binary.BigEndian.Uint32(b[2:])
	f.ServerTime = math.Float64frombits(binary.BigEndian.Uint64(b[6:]))
	flags := b[14]
	r := reader{b: b, pos: 15}
	if flags&flagCamera != 0 {
		if !r.need(8) {
			return ErrTruncated
		}
		f.HasCamera = true
		f.Camera.X = round2(math.Float32frombits(binary.BigEndian.Uint32(b[r.pos:])))
		f.Camera.Y = round2(math.Float32frombits(binary.BigEndian.Uint32(b[r.pos+4:])))
		r.pos += 8
		f.Camera.ForceReset = flags&flagForceReset != 0
		if flags&flagShake != 0 {
			if !r.need(1) {
				return ErrTruncated
			}
			n := int(b[r.pos])
			r.pos++
			if !r.need(n) {
				return ErrTruncated
			}
			f.Camera.HasShake = true
			f.Camera.Shake = append(f.Camera.Shake, b[r.pos:r.pos+n]...)
			r.pos += n
		}
	}
	if flags&flagPlayer != 0 {
		if !r.need(38) {
			return ErrTruncated
		}
		p := &f.Player
		p.GameID = b[r.pos]
		p.LastInputSeq = binary.BigEndian.Uint32(b[r.pos+1:])
		for i := range p.State {
			p.State[i] = math.Float32frombits(binary.BigEndian.Uint32(b[r.pos+5+4*i:]))
		}
		p.Centering = b[r.pos+37] == 1
		f.HasPlayer = true
		r.pos += 38
	}
	f.moved, f.messyTo = false, 0
	for r.pos < len(b) {
		k := d.schema.byID[b[r.pos]]
		if k == nil {
			break // unknown key: the rest of the frame is ignored, the frame stays valid
		}
		pos, err := d.decodeBlock(b, r.pos+1, k, f)
		if err != nil {
			return err
		}
		r.pos = pos
	}
	for bi := range f.Blocks {
		blk := &f.Blocks[bi]
		blk.Rows = f.rows[blk.start:blk.end:blk.end]
	}
	f.plainRows()
	return nil
}

// plainRows sets plainFrom after a decode. The decode wrote every slot
// below len(rows), those below messyTo perhaps with null marks or exact
// values and the others plain; the slots past len(rows) are as they
// were, plain from the old plainFrom on. So a stream whose frames have no
// null rows pays for one frame's full writes after one that had.
func (f *Frame) plainRows() {
	if f.plainFrom <= len(f.rows) {
		f.plainFrom = f.messyTo
	}
}

// messy notes that the slots of rows below end may hold null marks or
// exact values.
func (f *Frame) messy(end int) {
	f.messyTo, f.plainFrom = max(f.messyTo, end), max(f.plainFrom, end)
}

// idTable finds repeated u32 ids inside one block in linear time. Entries are
// stamped with a generation so a new block needs no clearing.
type idTable struct {
	gen   uint32
	mask  uint32
	slots []idSlot
}

type idSlot struct {
	gen, id uint32
	pos     int32
}

// reset prepares the table for a block of up to count rows.
func (t *idTable) reset(count int) {
	size := 16
	for size < 2*count {
		size <<= 1
	}
	if len(t.slots) < size {
		t.slots = make([]idSlot, size)
		t.gen = 0
	}
	t.mask = uint32(len(t.slots) - 1)
	t.gen++
	if t.gen == 0 { // wrapped: old stamps could collide
		clear(t.slots)
		t.gen = 1
	}
}

// lookupOrAdd returns the position stored for id, or records pos and returns -1.
func (t *idTable) lookupOrAdd(id uint32, pos int32) int {
	h := (id * 0x9E3779B1) & t.mask
	for {
		s := &t.slots[h]
		if s.gen != t.gen {
			*s = idSlot{gen: t.gen, id: id, pos: pos}
			return -1
		}
		if s.id == id {
			return int(s.pos)
		}
		h = (h + 1) & t.mask
	}
}

// round2 rounds to two decimals, half away from zero, as the engine's
// decoder does for every f32 row value and the camera:
// float32(round(v·100) / 100) in float64.
//
// The fast path covers |v·100| < 2^24, every value a game sends:
//   - v·100 is exact in float64 (a 24-bit significand times 7 bits);
//   - for such a = |v·100|, a + 0.5 is exact or rounds without reaching the
//     next integer, so truncating it is round half away from zero;
//   - the quotient n/100 of an integer n ≤ 2^24 is never a float32 midpoint
//     and lies at least 2^-29 (relatively) from one, so n·0.01 in float64,
//     within 2^-52 of it, narrows to the same float32 as the correctly
//     rounded quotient, and so does float64 n/100 narrowed;
//   - rounding is symmetric, so the magnitude is rounded and the sign put
//     back by the factors' sign (−0 stays −0: 0 · −0.01 is −0).
//
// Everything else (larger values, infinities, NaN) takes the engine's
// formula itself. The fast path is checked against the formula over every
// float32 bit pattern in the tests.
func round2(v float32) float32 {
	sc := round2Scales()
	if r, n := round2Fast(math.Float32bits(v), &sc); n < round2FastBound {
		return r
	}
	return round2Formula(v)
}

// round2Factors are round2Fast's factors by sign bit: 100 and 0.01 for a
// positive value, −100 and −0.01 for a negative one, so that the
// magnitude is rounded and the sign comes back with the result.
type round2Factors struct {
	up, down [2]float64
}

// round2Scales returns round2Fast's factors. Each decoding loop keeps its
// own copy, on its stack, where they are one load away.
func round2Scales() round2Factors {
	return round2Factors{up: [2]float64{100, -100}, down: [2]float64{0.01, -0.01}}
}

// round2FastBound is where round2Fast's second result leaves its fast
// path: 2^24. The result n is round(|v·100|), below 2^24 exactly when
// |v·100| < 2^24 (n = 2^24 itself is the last fast value, 167772.15625,
// sent to the formula as well), and an infinity or NaN converts to
// 1<<63; so a loop ors its n's and compares once.
const round2FastBound = 1 << 24

// round2Fast is round2's fast path on a value's bits x, branch-free so
// that it inlines into the decoder's loops: n = |v|·100 + 0.5 truncated,
// then n·0.01 narrowed, both with the factor of v's sign (sc from
// round2Scales). It returns the value and n; the value is meaningless
// when n >= round2FastBound.
func round2Fast(x uint32, sc *round2Factors) (float32, uint64) {
	s := x >> 31
	n := int64(float64(math.Float32frombits(x))*sc.up[s] + 0.5)
	return float32(float64(n) * sc.down[s]), uint64(n)
}

// round2Formula is the engine's rounding as written.
func round2Formula(v float32) float32 {
	return float32(math.Round(float64(v)*100) / 100)
}
