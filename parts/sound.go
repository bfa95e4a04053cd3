package parts

// SoundID is a sound manager registration (opaque, never reused).
type SoundID uint64

// SoundData is what a part tells the sound manager about one registration:
// the sound, where it plays and how loud.
type SoundData struct {
	X, Y        float64 // world position
	VolumeScale float64 // multiplier on the catalog volume; 0 means 1
	Rate        float64 // playback rate of loops; 0 means 1
	Own         bool    // the local player's own, non-spatial voice
}

// Sounds is the sound manager as parts use it; every method runs on the
// game loop. A nil Sounds in Ctx means silence.
type Sounds interface {
	// Register returns false for an unknown sound name.
	Register(name string, d SoundData) (SoundID, bool)
	// Update returns false when the registration is gone (e.g. after a reset).
	Update(id SoundID, d SoundData) bool
	// Unregister stops the sound at once.
	Unregister(id SoundID)
	// Release drops the registration but lets a playing one-shot finish.
	Release(id SoundID)
}
