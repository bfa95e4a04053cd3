package clientcore

import (
	"encoding/json"
	"errors"
)

// Verdict names a decode's outcome as the engine's conformance vectors
// do: unpack says whether the bytes unpacked ("ok", "wrongVersion",
// "tooManyRows", "truncated"), reason whether the frame is one to use
// ("ok", or why not: the same words, or "wrongPort" for a frame that
// unpacked on another port).
func Verdict(f *Frame, err error) (unpack, reason string) {
	switch {
	case errors.Is(err, ErrWrongVersion):
		return "wrongVersion", "wrongVersion"
	case errors.Is(err, ErrTooManyRows):
		return "tooManyRows", "tooManyRows"
	case err != nil:
		return "truncated", "truncated"
	case f.Port != FramePort:
		return "ok", "wrongPort"
	}
	return "ok", "ok"
}

// AppendReport decodes the frame b (wire bytes from the port byte on) into
// f and appends one JSON object for it: {"file","unpack","reason",
// "decoded"}, decoded in the decoder's JSON form, null when it did not
// unpack. name is the frame's file.
func AppendReport(dst []byte, dec *Decoder, f *Frame, name string, b []byte) []byte {
	err := dec.Decode(b, f)
	unpack, reason := Verdict(f, err)
	q, _ := json.Marshal(name) // a string always marshals
	dst = append(dst, `{"file":`...)
	dst = append(dst, q...)
	dst = append(dst, `,"unpack":"`+unpack+`","reason":"`+reason+`","decoded":`...)
	if err != nil {
		dst = append(dst, "null"...)
	} else {
		dst = f.AppendJSON(dst)
	}
	return append(dst, '}')
}
