// Package clientcore turns a vimp host's snapshot schema and binary frames
// (port 5, format v5) into what the renderer draws: the world interpolated at
// render time (Hot), and event frames delivered exactly once (EventFrame).
//
// It imports no graphics, audio or network package. A Core is owned by one
// goroutine, the game loop: the session hands it frame bytes stamped with
// their arrival time (PushFrame), and each render tick calls Sample and then
// TakeFrames. Everything the core returns is valid until the next call into
// it; the storage is reused, so steady-state decoding and sampling allocate
// nothing.
//
// Rows (Row.Fields, Record.Fields) are float32 in schema order, always full
// width. Nothing outside this package reads them by position: a Binder binds
// the fields a reader uses by name (the engine's z, level and state by their
// role, the author id of a weapon row by the name the game gives it) once per schema,
// and a BoundField reads or writes a row with one index load.
//
// The decoder and the sampler reproduce the engine's own Rust core bit for
// bit: f32 arithmetic without fused multiply-add, round2 half away from zero,
// render time = localNow + offset - delay, no extrapolation, the maxFrameAge
// and 256-frame limits. The shared conformance vectors pin this.
//
// Options.Adaptive trades that for a smoother world under a bad network:
// a render clock that only slews, a delay sized from the lateness of
// frames, and a bounded extrapolation past the newest frame (see
// renderclock.go and extrapolate.go). Decoding, the buffer's rules and the
// event frames are the same; InterpStats measures either clock.
//
// # Deliberate deviations
//
// Three, each pinned by its own test instead of the engine's expectation:
//
//  1. Sequence numbers are compared with serial-number arithmetic
//     (int32(a-b) < 0) for insertion, duplicate checks and the issued-seq
//     window, so frames keep their order across the u32 wrap.
//  2. A frame already emitted is never emitted again, whatever its age: the
//     engine forgets emitted seqs 128 frames behind the reference frame and
//     would emit a late re-delivery a second time. The core also remembers
//     emitted seqs in a 4096-slot direct-mapped table; a re-delivery older
//     than that is counted as emitted too.
//  3. lerpAngle terminates on every input. Angle differences up to about
//     6000 rad wrap exactly as the engine's loop does; larger, infinite or NaN
//     differences are reduced in float64 (NaN for infinities), where the
//     engine's loop never ends.
//
// Bounds the engine lacks, which no real host reaches: at most 131072 rows
// per frame (ErrTooManyRows), 1024 seqs in the issued memory, 256 late frames
// between two samples and 1024 event frames waiting for TakeFrames; what they
// drop is counted in Stats.
package clientcore
