// Package assets fetches what a vimp host serves for a game beside the
// WebSocket: the images parts draw from (img/), the sound files of the
// game's catalog (sounds/), and the map manifest and catalog maps (maps/),
// all under the game's assets base from its manifest.
//
// One Downloader per connection target does it with the connection's own
// HTTP client (the one that trusts an extra CA), so that a development host
// with a self-signed certificate serves its assets as it serves its game.
// Paths are confined under the assets base: no absolute URLs, no ".."
// segments, no other host, not even through a redirect. Every fetch takes a
// context; each kind of file has a size limit, and an image's dimensions are
// read from its header before any pixel is decoded. A few files download at
// once; a file that failed is reported once and not asked for again.
//
// A Cache keeps the files on disk between runs, under the user cache
// directory, in a folder per host and game version, with names that are
// hashes, atomic writes, checksums that catch a damaged entry (fetched
// again), and a size budget kept by evicting the least recently used.
//
// Progress counts what a game's assets need (files done, failed, total) for
// the window's loading bar; Expect counts a load's files before they are
// fetched, so the bar shows a whole catalog from its start.
//
//	client, _ := session.HTTPClient(caFile)
//	cache, _ := assets.OpenCache(dir, 0) // dir "" or "-": no cache
//	d, _ := assets.New(assets.Options{Client: client, Base: target.AssetsBase,
//		Host: target.Host, Version: target.GameVersion, Cache: cache})
//	img, err := d.Image(ctx, "tiles3.png")             // <assetsBase>img/tiles3.png
//	mp3, err := d.Fetch(ctx, assets.Sound, "sounds/shot.mp3")
//	p := d.Progress()                                  // p.Done of p.Total, p.Failed
package assets
