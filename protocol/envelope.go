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
// is an error; the caller counts and ignores it.
func ParseEnvelope(text []byte) (Envelope, error) {
	var parts []json.RawMessage
	if err := json.Unmarshal(text, &parts); err != nil {
		return Envelope{}, fmt.Errorf("%w: %v", ErrNotEnvelope, err)
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
		env.Payload = json.RawMessage(bytes.TrimSpace(parts[1]))
	}
	return env, nil
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
