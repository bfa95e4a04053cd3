// Package audio is the client's sound director: the game's sound catalog, system sounds, world
// sources with the engine's 30-voice ranking, the spatial model applied per voice, and the output
// to the sound card (or to a WAV file, or to nothing) through the project's own mixer.
//
// The Manager belongs to the game loop and is not safe for concurrent use; it talks to the mixer
// (audio/mix), which is. Samples arrive from background loading at any time.
//
// Wiring, in the order a session meets it:
//
//	mx := mix.New(mix.Options{})                                   // once per process
//	out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{WAVPath: flagAudioOut, Silent: headless})
//	defer out.Close()                                              // finishes the WAV
//	sm := audio.NewManager(mx, audio.Options{Logger: log})
//
//	// CONFIG_DATA (port 0): keep the catalog
//	cat, warns, err := audio.CatalogFromConfig(payload)            // log each warning
//	// AUTH_RESULT null: start loading, then send MODULES_READY at once (never wait)
//	sm.Init(sessionCtx, cat, downloader.Sounds())                  // paths under assetsBase
//	// SOUND_DATA (port 6)
//	sm.HandleSoundData(payload)
//	// parts: Register / Update / Unregister / Release / SoundConfig
//	// every camera application: sm.SetListener(camX, camY) (raw camera point)
//	// canvas scale change: sm.SetZoom(audio.ListenerZoom(currentScale, cameraZoom, baseScale))
//	// once per render tick, after frames, parts and camera: sm.Tick()
//	// CLEAR (port 11), after the parts were removed: sm.Reset()
//	// window hidden / shown: sm.SetMuted(true / false)
//	// settings: sm.SetEffectsVolume(v), sm.SetHRTFVariant(spatial.HRTFBrowser), sm.SetITD(true)
//	// disconnect: sm.Destroy()
//
// The embedded host serves the project's own effects encoded as mp3 and webm (package
// host/sounds: host.Config{Sound: sounds.File}); its catalog lists webm then mp3, as a real
// tanks host does, and the client picks mp3 (it decodes mp3 and wav; webm is not decodable in
// pure Go). synth.Handler serves the effects as wav.
//
// To hear the model without a session, render the scripted scene of scene_test.go:
//
//	VIMP_AUDIO_SCENE=/tmp/scene.wav go test -run Scene ./audio/
package audio
