package host

import (
	"bytes"
	"encoding/json"
	"strconv"

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
