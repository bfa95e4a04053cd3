package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
)

// messageSamples holds a payload each port's parser accepts, for every
// server port there is and one past them.
var messageSamples = map[int]string{
	ConfigData:      `{"snapshot":{}}`,
	AuthData:        `{"params":[{"name":"name","value":""}]}`,
	AuthResult:      `null`,
	MapData:         `{"scale":0.6,"setId":"c1"}`,
	FirstShotData:   `[[{"id":0,"x":1}],0,1795959745442,0]`,
	ShotData:        `{}`,
	SoundData:       `"roundStart"`,
	GameInformData:  `[0,["team1"]]`,
	TechInformData:  `null`,
	Misc:            `{"key":"localstorageNameReplace","value":"Neo"}`,
	Ping:            `17`,
	Clear:           `null`,
	Console:         `"log"`,
	PanelData:       `["t:97","h"]`,
	StatData:        `[[["1",1,["Bob","",0,0,"BOT"]]],[[1,[1,"",0,0]]],true]`,
	ChatData:        `"s:4:Bob,Alice"`,
	VoteData:        `{"name":"teamChange"}`,
	KeysetData:      `1`,
	AccoladesData:   `{"places":{}}`,
	SessionData:     `{"resumeKey":"k","gameId":3}`,
	ResumeResult:    `{"ok":true,"gameId":3}`,
	ServerPortCount: `{"any":"thing"}`,
}

// Every port decodes to its own kind of MessageKinds, which says the port
// it came on; a port this client does not know, and the binary-only 5,
// decode to Unknown. A port added without a kind here fails.
func TestEveryPortDecodesToItsKind(t *testing.T) {
	kinds := map[reflect.Type]int{}
	for i, k := range MessageKinds() {
		if _, dup := kinds[reflect.TypeOf(k)]; dup {
			t.Errorf("MessageKinds lists %T twice", k)
		}
		kinds[reflect.TypeOf(k)] = i
	}
	seen := map[reflect.Type]bool{}
	for port := 0; port <= ServerPortCount; port++ {
		raw, ok := messageSamples[port]
		if !ok {
			t.Errorf("no sample payload for port %d", port)
			continue
		}
		m, err := DecodePayload(port, json.RawMessage(raw))
		if err != nil {
			t.Errorf("port %d %s: %v", port, raw, err)
			continue
		}
		if _, ok := kinds[reflect.TypeOf(m)]; !ok {
			t.Errorf("port %d decodes to %T, which MessageKinds does not list", port, m)
		}
		if m.port() != port {
			t.Errorf("port %d decodes to %T, which says port %d", port, m, m.port())
		}
		_, unknown := m.(Unknown)
		if unknown != (port == ShotData || port == ServerPortCount) {
			t.Errorf("port %d decodes to %T", port, m)
		}
		seen[reflect.TypeOf(m)] = true
	}
	for _, k := range MessageKinds() {
		if !seen[reflect.TypeOf(k)] {
			t.Errorf("MessageKinds lists %T, which no port decodes to", k)
		}
	}
}

// A payload its port's parser refuses is an error and no message, not a
// typed nil or a zero value.
func TestDecodePayloadRefusesWithoutAMessage(t *testing.T) {
	for _, port := range []int{ConfigData, AuthData, MapData, StatData, AccoladesData, KeysetData} {
		m, err := DecodePayload(port, json.RawMessage(`"not this"`))
		if err == nil || m != nil {
			t.Errorf("port %d: %v, %#v", port, err, m)
		}
	}
}
