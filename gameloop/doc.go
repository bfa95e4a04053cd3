// Package gameloop is a client's game loop. Once per tick Loop.Tick drains
// the session's events, routes each to the concern that owns it, feeds the
// tick's player input, and ticks the HUD, the world and the sounds. The
// window and a headless run (RunHeadless) run this same loop; they differ
// only in where input comes from (the keyboard and pointer, or a key
// Script) and in whether anything draws the world afterwards. The loop
// imports no graphics: the window reads its world and HUD after each tick.
//
// Loop only orders the concerns; each is a type of its own:
//
//   - router (router.go) decides who sees each session event, and in what
//     order: a message passes its gates (a team vote the run answers
//     itself, a schema past its limit), then the HUD, then the one
//     handler it is for (handlers.go), which passes it on to a concern.
//   - feedback (feedback.go) is connection feedback: the refusals (a team
//     not offered or full, a full room) as notices and summary errors, the
//     reconnecting screen, and the team and auth answers the run gives
//     again on every new connection (Loop.Unmet, Loop.GaveUp).
//   - display (display.go) is the display state the window needs, kept
//     across connections: reduced motion, the palette, the menu's Settings
//     and server-list entries and whether they were chosen, the player's
//     key bindings and the game's own keys (Loop.SetPalette,
//     Loop.SettingsAsked, Loop.GameKeys, Loop.SetBindings, ...).
//   - report (report.go) and lobbyStory (lobbystory.go) are the summary's
//     observers: errors, the totals of retired cores, undecodable frames
//     and refused rows (each said once per connection), the close, and the
//     lobby room's host changes (Loop.Stats, Summarize). Entities
//     (summary.go) is an Observer counting the ids the frames carried.
//   - gameSounds (sounds.go) is the game's sound: the catalog, its loading
//     once the player is in, the listener following the camera.
//   - Input (input.go) is the tick's player input: the window's keyboard
//     or a Script, handed what they need in an InputTick (the controller,
//     the HUD and its open modes, the world's size), so nothing they do
//     reads back up through the loop.
//
// The client core (clientcore.Core), the world (world.World), the HUD
// model (hud.HUD) and the input controller (input.Controller) are built per
// connection or per CONFIG_DATA (configure.go) and owned by the Loop.
package gameloop
