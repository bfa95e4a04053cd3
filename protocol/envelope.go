package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Envelope is one JSON message split into its port and its raw payload. The
// payload is kept as the exact JSON token the sender wrote, so that a PING id
// can be echoed byte for byte and game-defined payloads pass through untouched.
type Envelope struct {
	Port    int
	Payload json.RawMessage // never nil: an absent payload is the token null
}

var nullToken = json.RawMessage("null")

// ErrNotEnvelope reports a text message that is not a `[port, payload]` array.
var ErrNotEnvelope = errors.New("not a [port, payload] array")

// ParseEnvelope splits a JSON text message into port and payload. A message
// whose first element is not a non-negative integer, or that is not an array,
// is an error; the caller counts and ignores it. The payload is a slice of
// text, not a copy: a map of megabytes is held once, not twice.
func ParseEnvelope(text []byte) (Envelope, error) {
	if !json.Valid(text) {
		var v []json.RawMessage // for the decoder's words on what is wrong
		err := json.Unmarshal(text, &v)
		return Envelope{}, fmt.Errorf("%w: %v", ErrNotEnvelope, err)
	}
	parts, err := topElements(text)
	if err != nil {
		return Envelope{}, err
	}
	if len(parts) == 0 || len(parts) > 2 {
		return Envelope{}, fmt.Errorf("%w: %d elements", ErrNotEnvelope, len(parts))
	}
	port, err := parsePort(parts[0])
	if err != nil {
		return Envelope{}, err
	}
	env := Envelope{Port: port, Payload: nullToken}
	if len(parts) == 2 {
		env.Payload = json.RawMessage(parts[1])
	}
	return env, nil
}

// topElements returns the first three elements (trimmed) of the array that
// valid JSON text is: a third element only says there are too many.
func topElements(text []byte) ([]json.RawMessage, error) {
	t := jsonTrim(text)
	if len(t) < 2 || t[0] != '[' {
		return nil, fmt.Errorf("%w: not an array", ErrNotEnvelope)
	}
	return splitArray(t, 3), nil
}

func parsePort(raw json.RawMessage) (int, error) {
	s := string(bytes.TrimSpace(raw))
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1<<16 {
		return 0, fmt.Errorf("%w: port %.20q is not a small non-negative integer", ErrNotEnvelope, s)
	}
	return n, nil
}

// IsNull reports whether a raw payload is the JSON token null.
func IsNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), nullToken) || len(bytes.TrimSpace(raw)) == 0
}
