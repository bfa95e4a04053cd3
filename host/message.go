package host

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"vimpclient/protocol"
)

// ParseClientMessage reads one client message [port, payload]. Anything
// that is not a JSON array starting with a plain integer port in the
// client range is refused (and then ignored by the caller, as a dedicated
// host does). A missing payload reads as null.
func ParseClientMessage(data []byte) (port int, payload json.RawMessage, ok bool) {
	data = bytes.TrimSpace(data)
	if len(data) < 2 || data[0] != '[' {
		return 0, nil, false
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil || len(elems) == 0 {
		return 0, nil, false
	}
	p, err := strconv.Atoi(string(elems[0]))
	if err != nil || p < 0 || p >= protocol.ClientPortCount {
		return 0, nil, false
	}
	payload = json.RawMessage("null")
	if len(elems) > 1 {
		payload = elems[1]
	}
	return p, payload, true
}

// messageBudget is a client's per-second message allowance: what a client
// sends past it is dropped before it is parsed, whichever transport it
// came over.
type messageBudget struct {
	limit int
	count int
	start time.Time
}

// admit counts one message at now and reports whether it is within the
// budget of the current one-second window.
func (b *messageBudget) admit(now time.Time) bool {
	if now.Sub(b.start) >= time.Second {
		b.start, b.count = now, 0
	}
	b.count++
	return b.count <= b.limit
}
