package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Builders for client-to-server messages. Each returns the exact wire text
// `[port,payload]`; none allocates more than the result.

// Null builds a message whose payload is null: CONFIG_READY, MODULES_READY,
// MAP_READY, FIRST_SHOT_READY.
func Null(port int) []byte {
	return []byte("[" + strconv.Itoa(port) + ",null]")
}

// AuthResponseMsg builds AUTH_RESPONSE from field values; every value is a
// JSON string, as the host requires.
func AuthResponseMsg(values map[string]string) ([]byte, error) {
	b, err := json.Marshal(values)
	if err != nil {
		return nil, fmt.Errorf("auth response: %w", err)
	}
	return append(append([]byte("[1,"), b...), ']'), nil
}

// KeyAction is the action of a KEYS_DATA key message.
type KeyAction string

const (
	KeyDown KeyAction = "down"
	KeyUp   KeyAction = "up"
)

// KeyMsg builds KEYS_DATA "seq:action:name".
func KeyMsg(seq uint32, action KeyAction, name string) []byte {
	return stringMsg(KeysData, strconv.FormatUint(uint64(seq), 10)+":"+string(action)+":"+name)
}

// AimMsg builds a pointer KEYS_DATA "seq:aim:x:y:flags", world coordinates
// rounded to 2 decimals in shortest form.
func AimMsg(seq uint32, x, y float64, flags uint8) []byte {
	return stringMsg(KeysData, strconv.FormatUint(uint64(seq), 10)+":aim:"+round2(x)+":"+round2(y)+":"+strconv.Itoa(int(flags)))
}

func round2(v float64) string {
	r := float64(int64(v*100+copySign(0.5, v))) / 100
	return strconv.FormatFloat(r, 'f', -1, 64)
}

func copySign(a, b float64) float64 {
	if b < 0 {
		return -a
	}
	return a
}

// ChatMsg builds CHAT_DATA with control characters removed; ok is false when
// nothing remains to send.
func ChatMsg(text string) (msg []byte, ok bool) {
	clean := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, text)
	if clean == "" {
		return nil, false
	}
	return stringMsg(ChatSend, clean), true
}

// VoteRequestMsg builds the VOTE_DATA list request ("teams", "maps").
func VoteRequestMsg(what string) []byte { return stringMsg(VoteSend, what) }

// VoteAnswerMsg builds the VOTE_DATA answer [voteName, value].
func VoteAnswerMsg(name, value string) []byte {
	b, _ := json.Marshal([2]string{name, value}) // strings always marshal
	return append(append([]byte("[7,"), b...), ']')
}

// PongMsg builds PONG carrying the ping id token exactly as received.
func PongMsg(id json.RawMessage) []byte {
	out := make([]byte, 0, len(id)+4)
	out = append(out, "[8,"...)
	out = append(out, id...)
	return append(out, ']')
}

func stringMsg(port int, s string) []byte {
	b, _ := json.Marshal(s) // strings always marshal
	out := make([]byte, 0, len(b)+4)
	out = append(out, '[')
	out = strconv.AppendInt(out, int64(port), 10)
	out = append(out, ',')
	out = append(out, b...)
	return append(out, ']')
}
