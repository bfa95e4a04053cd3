package clientcore_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"vimpclient/clientcore"
)

// schemaJSON is a game's snapshot schema as CONFIG_DATA.snapshot carries it:
// one hot key of tanks with an interpolated position.
const schemaJSON = `{"version":5,"port":5,"keys":{
  "m1":{"id":1,"kind":"indexed8","class":"hot","fields":[
    {"name":"x","ty":"f32","interp":"lerp"},
    {"name":"y","ty":"f32","interp":"lerp"}]}}}`

// frame packs a v5 snapshot frame by hand: the header (port, version, seq,
// server time, flags), then key 1 with one indexed8 row: id, has-data, x, y.
func frame(seq uint32, serverTime float64, id uint8, x, y float32) []byte {
	b := []byte{5, 5}
	b = binary.BigEndian.AppendUint32(b, seq)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(serverTime))
	b = append(b, 0)     // flags: no camera, no player block
	b = append(b, 1, 1)  // key id 1, one row
	b = append(b, id, 1) // row id, has data
	b = binary.BigEndian.AppendUint32(b, math.Float32bits(x))
	return binary.BigEndian.AppendUint32(b, math.Float32bits(y))
}

// Decoding one frame: the schema is parsed once, the decoder and the frame
// are reused for every frame, and fields are read by name through a binder.
func ExampleDecoder_Decode() {
	s, err := clientcore.ParseSchema([]byte(schemaJSON))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := clientcore.NewBinder(s.Key("m1"))
	x, y := b.Require("x"), b.Require("y")
	if err := b.Err(); err != nil {
		fmt.Println(err)
		return
	}
	dec := clientcore.NewDecoder(s)
	var f clientcore.Frame
	if err := dec.Decode(frame(42, 1.7e12, 3, 100.25, 80.5), &f); err != nil {
		fmt.Println(err)
		return
	}
	for _, bl := range f.Blocks {
		for _, r := range bl.Rows {
			fmt.Printf("seq %d: %s %d at %.2f, %.2f\n", f.Seq, bl.Key(), r.ID, x.Get(r.Fields), y.Get(r.Fields))
		}
	}
	// Output: seq 42: m1 3 at 100.25, 80.50
}

// Sampling between frames: the core buffers frames by their arrival time and
// draws the world 100 ms behind the host, interpolated.
func ExampleCore_Sample() {
	s, err := clientcore.ParseSchema([]byte(schemaJSON))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := clientcore.NewBinder(s.Key("m1"))
	x, y := b.Require("x"), b.Require("y")
	c := clientcore.New(s, clientcore.Options{Delay: 100})
	// Two frames 100 ms apart on the host's clock, arriving 100 ms apart.
	c.PushFrame(frame(1, 1000, 3, 0, 0), 0)
	c.PushFrame(frame(2, 1100, 3, 10, 20), 100)
	// At local 150 ms the world is drawn at host time 1050: halfway.
	h := c.Sample(150)
	for _, r := range h.Actors {
		fmt.Printf("%s %d at %.1f, %.1f\n", r.Key(), r.ID, x.Get(r.Fields), y.Get(r.Fields))
	}
	// Output: m1 3 at 5.0, 10.0
}
