package audio

import (
	"encoding/json"
	"fmt"
)

// ParseSoundData reads a SOUND_DATA (port 6) payload: a JSON string naming a catalog sound.
func ParseSoundData(payload []byte) (string, error) {
	var name string
	if err := json.Unmarshal(payload, &name); err != nil {
		return "", fmt.Errorf("audio: SOUND_DATA is not a JSON string: %w", err)
	}
	if !validName(name) {
		return "", fmt.Errorf("audio: SOUND_DATA names no usable sound (%q)", clipName(name))
	}
	return name, nil
}

// HandleSoundData plays the system sound a SOUND_DATA payload names. A malformed payload is
// logged and dropped; an unknown name plays nothing.
func (m *Manager) HandleSoundData(payload []byte) {
	name, err := ParseSoundData(payload)
	if err != nil {
		m.log.Warn("audio: dropped SOUND_DATA", "err", err)
		return
	}
	m.PlaySystem(name)
}
