// Package localfile is how the client reads and writes the files on the
// player's own disk: the stores under the user config directory (recent
// hosts, sign-in tokens, remembered auth answers, settings, key bindings)
// and the files a player names (recordings, token files, frames).
//
// Reading opens regular files only, without blocking on a FIFO or a
// device, and refuses a file over the limit of its kind before reading it,
// and again while reading it should it grow. Writing replaces a file whole
// (a temporary file beside it, then a rename), and a store whose file could
// not be read in full is never written over: the file is set aside first
// as NAME.bad-TIME, so whatever it held is still on the disk for the player.
package localfile
