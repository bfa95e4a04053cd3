package packer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"vimpclient/snapschema"
)

// Port and Version are the first two bytes of every frame.
const (
	Port    = 5
	Version = 5
)

// Header flag bits.
const (
	flagCamera     = 1
	flagForceReset = 2
	flagShake      = 4
	flagPlayer     = 8
)

// Camera is the optional camera of a frame.
type Camera struct {
	X, Y       float32
	ForceReset bool
	// Shake is "intensity:duration"; it is sent when non-empty or when
	// HasShake is set (an empty shake text is legal on the wire).
	Shake    string
	HasShake bool
}

// Player is the per-user player block (not rounded by anyone).
type Player struct {
	GameID    uint8
	InputSeq  uint32
	State     [8]float32
	Centering bool
}

// Errors the frame builder reports instead of writing a frame a decoder
// would misread.
var (
	ErrCountOverflow = errors.New("block row count does not fit its count field")
	ErrShakeTooLong  = errors.New("shake text longer than 255 bytes")
	ErrRowWidth      = errors.New("row width does not match the schema")
	ErrWrongKind     = errors.New("row call does not match the block kind")
	ErrNoBlock       = errors.New("row written outside a block")
)

// Frame builds one frame in a reusable buffer. The zero value is ready;
// Start resets it. After the first error every later call is a no-op and
// Bytes returns the error.
type Frame struct {
	buf     []byte
	key     *snapschema.Key
	countAt int
	count   int
	err     error
}

// Start begins a new frame, dropping whatever the buffer held.
func (f *Frame) Start(seq uint32, serverTime float64, cam *Camera, pl *Player) {
	f.buf = f.buf[:0]
	f.key = nil
	f.err = nil
	var flags byte
	if cam != nil {
		flags |= flagCamera
		if cam.ForceReset {
			flags |= flagForceReset
		}
		if cam.Shake != "" || cam.HasShake {
			flags |= flagShake
		}
	}
	if pl != nil {
		flags |= flagPlayer
	}
	f.buf = append(f.buf, Port, Version)
	f.buf = binary.BigEndian.AppendUint32(f.buf, seq)
	f.buf = binary.BigEndian.AppendUint64(f.buf, math.Float64bits(serverTime))
	f.buf = append(f.buf, flags)
	if cam != nil {
		f.buf = binary.BigEndian.AppendUint32(f.buf, math.Float32bits(cam.X))
		f.buf = binary.BigEndian.AppendUint32(f.buf, math.Float32bits(cam.Y))
		if flags&flagShake != 0 {
			if len(cam.Shake) > 255 {
				f.err = ErrShakeTooLong
				return
			}
			f.buf = append(f.buf, byte(len(cam.Shake)))
			f.buf = append(f.buf, cam.Shake...)
		}
	}
	if pl != nil {
		f.buf = append(f.buf, pl.GameID)
		f.buf = binary.BigEndian.AppendUint32(f.buf, pl.InputSeq)
		for _, v := range pl.State {
			f.buf = binary.BigEndian.AppendUint32(f.buf, math.Float32bits(v))
		}
		c := byte(0)
		if pl.Centering {
			c = 1
		}
		f.buf = append(f.buf, c)
	}
}

// Block opens a block of key k, closing the previous one.
func (f *Frame) Block(k *snapschema.Key) {
	f.closeBlock()
	if f.err != nil {
		return
	}
	f.key = k
	f.count = 0
	f.buf = append(f.buf, k.ID)
	f.countAt = len(f.buf)
	switch k.Kind {
	case snapschema.KindIndexed8, snapschema.KindIndexedNoNull8:
		f.buf = append(f.buf, 0)
	default:
		f.buf = append(f.buf, 0, 0)
	}
}

func (f *Frame) closeBlock() {
	if f.key == nil || f.err != nil {
		return
	}
	switch f.key.Kind {
	case snapschema.KindIndexed8, snapschema.KindIndexedNoNull8:
		if f.count > 255 {
			f.err = fmt.Errorf("key %s: %d rows: %w", f.key.Name, f.count, ErrCountOverflow)
			return
		}
		f.buf[f.countAt] = byte(f.count)
	default:
		if f.count > 65535 {
			f.err = fmt.Errorf("key %s: %d rows: %w", f.key.Name, f.count, ErrCountOverflow)
			return
		}
		binary.BigEndian.PutUint16(f.buf[f.countAt:], uint16(f.count))
	}
	f.key = nil
}

// Row writes one row of an indexed8, indexed32 or indexedNoNull8 block (id
// is the index for the latter). With an optional tail, a row exactly
// OptionalFrom values long goes without its tail.
func (f *Frame) Row(id uint32, vals []Value) {
	if !f.rowStart(false) {
		return
	}
	switch f.key.Kind {
	case snapschema.KindIndexed8:
		f.buf = append(f.buf, byte(id), 1)
	case snapschema.KindIndexed32:
		f.buf = binary.BigEndian.AppendUint32(f.buf, id)
		f.buf = append(f.buf, 1)
	case snapschema.KindIndexedNoNull8:
		f.buf = append(f.buf, byte(id))
	}
	f.fields(vals)
}

// NullRow writes a removal (hasData 0) in an indexed8 or indexed32 block.
func (f *Frame) NullRow(id uint32) {
	if !f.rowStart(false) {
		return
	}
	switch f.key.Kind {
	case snapschema.KindIndexed8:
		f.buf = append(f.buf, byte(id), 0)
	case snapschema.KindIndexed32:
		f.buf = binary.BigEndian.AppendUint32(f.buf, id)
		f.buf = append(f.buf, 0)
	default:
		f.err = fmt.Errorf("key %s: null row: %w", f.key.Name, ErrWrongKind)
	}
}

// ListRow writes one row of a list16 block.
func (f *Frame) ListRow(vals []Value) {
	if !f.rowStart(true) {
		return
	}
	f.fields(vals)
}

func (f *Frame) rowStart(list bool) bool {
	if f.err != nil {
		return false
	}
	if f.key == nil {
		f.err = ErrNoBlock
		return false
	}
	if (f.key.Kind == snapschema.KindList16) != list {
		f.err = fmt.Errorf("key %s: %w", f.key.Name, ErrWrongKind)
		return false
	}
	f.count++
	return true
}

func (f *Frame) fields(vals []Value) {
	k := f.key
	n := len(k.Fields)
	if k.OptionalFrom > 0 {
		switch len(vals) {
		case n:
			f.buf = append(f.buf, 1)
		case k.OptionalFrom:
			f.buf = append(f.buf, 0)
			n = k.OptionalFrom
		default:
			f.err = fmt.Errorf("key %s: %d values: %w", k.Name, len(vals), ErrRowWidth)
			return
		}
	} else if len(vals) != n {
		f.err = fmt.Errorf("key %s: %d values: %w", k.Name, len(vals), ErrRowWidth)
		return
	}
	for i := 0; i < n; i++ {
		v := vals[i]
		switch k.Fields[i].Type {
		case snapschema.TypeF32, snapschema.TypeU32:
			f.buf = binary.BigEndian.AppendUint32(f.buf, uint32(v))
		case snapschema.TypeU8:
			f.buf = append(f.buf, byte(v))
		case snapschema.TypeU16:
			f.buf = binary.BigEndian.AppendUint16(f.buf, uint16(v))
		}
	}
}

// Bytes closes the open block and returns the frame. The slice is valid
// until the next Start.
func (f *Frame) Bytes() ([]byte, error) {
	f.closeBlock()
	if f.err != nil {
		return nil, f.err
	}
	return f.buf, nil
}

// Append copies raw block bytes (a body packed by another Frame) after the
// header, closing any open block.
func (f *Frame) Append(raw []byte) {
	f.closeBlock()
	if f.err != nil {
		return
	}
	f.buf = append(f.buf, raw...)
}
