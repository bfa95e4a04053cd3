// Package hud holds the state of every overlay drawn over the game: the auth
// form, the panel, the scoreboard, the chat, the votes (the host's and the
// platform's), the two informers, the notices, and the reconnecting,
// host-change and connecting screens. Each model is plain Go, updated from
// the session's typed messages with explicit times, so it is tested without
// a display; the Ebiten views in hud/view only read these models.
//
// Wiring, once per connection and once per frame (now = monotonic ms):
//
//	on session.EventOpen:   h := hud.New(target.Host, target.GameID, authStore)
//	                        h.HostListsRequested(true) // the session asks for vote lists itself
//	on EventMessage:        h.Handle(ev.Msg, now)
//	    *protocol.Config:   cfg, _ := input.ConfigFrom(v); cfg, _ = cfg.WithBindings(userBindings)
//	                        ctrl := input.NewController(cfg, h, core, renderer.ScreenToWorld)
//	                        ctrl.SetSender(sess)
//	    *protocol.AuthForm: if ev.Err == nil { h.DismissAuth(ev.Answer) } // answered from -nick/-set/store
//	    TechInform:         ctrl.SetEnabled(v.Hide, now)
//	    protocol.Keyset:    ctrl.SetKeySet(int(v), now); core.SetActive(v == 1)
//	on EventClosed:         h.Disconnected(ev.Close.Reason); ctrl.SetEnabled(false, now)
//	every Update:           if h.AuthOpen() { reader.UpdateForm(h, w, ht) } else { reader.Update(ctrl, h.Modes(), h, now) }
//	                        for _, o := range h.Outgoing() { /* OutAuth -> sess.SubmitAuth, OutChat -> sess.Chat,
//	                           OutVoteRequest -> sess.VoteRequest, OutVoteAnswer -> sess.VoteAnswer */ }
//	                        h.Update(now)
//	every Draw, after the world: hudView.SetNetGraph(graphView.Visible, netview.Width, netview.Height)
//	                        hudView.Draw(screen, h, now, deviceScale) // reads h, writes nothing into it
//	                        at := hudView.Layout().NetGraph // a corner the HUD leaves free
//	                        graphView.DrawAt(screen, at.X, at.Y, deviceScale)
//
// What the wiring tells the HUD besides the messages:
//
//	h.Notice(text, kind)        a one-line reason over the game: NoticeError stays
//	                            (frames that cannot be decoded), NoticeWarning and
//	                            NoticeInfo go after a while (a refused or full team);
//	                            the same text again shows once
//	h.Reconnecting(reason, at, attempt)
//	                            the reconnecting screen until h.Reconnected(); at is
//	                            when attempt starts (monotonic ms); while it is shown
//	                            pass key presses to h.ReconnectKey(code): Esc queues
//	                            an OutGiveUp in Outgoing, the wiring then stops
//	h.Self(nick, gameID)        who the local player is, for the leaderboard's own row
//	                            and the accolades banner's "You"
//	h.SetFixed(rects)           the renderer's fixed canvases (the radar), when it
//	                            knows them better than CONFIG_DATA's sizes
//	h.SetPalette(name)          the team colours (PaletteColorBlind: safe with any
//	                            common colour blindness); h.SetReducedMotion(on)
//	h.SettingsEntry(true)       Settings at the end of the M menu: an OutSettings
//	h.BrowserEntry(label)       the server list at the end of the M menu: an OutBrowser
//
// In a lobby room the platform's events come too:
//
//	h.EngineVote(v, now)        an engine vote ('@' name, @changeHost) with the
//	                            client's template; it waits behind a host vote and a
//	                            host vote waits behind it; its answer is an
//	                            OutEngineAnswer for Session.VoteAnswer, never VOTE_DATA
//	h.EngineEnded(name, id, r, now)  its result: the window closes, a notice says how
//	h.EngineStarted(name, now)  the player started one (and counts as yes)
//	h.HostChanging(text, now)   the host-change screen, until the new host's HUD;
//	                            h.HostChanged(now) when the master named the new host;
//	                            keys go to h.HostChangeKey(code): Esc is an OutGiveUp
//	h.AdoptPlatform(old, now)   a new connection's HUD keeps the old one's engine votes
//
// The server browser, the start screen and the settings overlay outlive
// connections, so the window owns them rather than the HUD; their models
// have packages of their own (hud/serverbrowser, hud/startscreen,
// hud/settingsmenu). A match being connected from the start screen shows a
// Connecting screen, which Follows the match HUD's Reconnect and is told
// when the attempts stopped (End); hudView.DrawConnecting draws it.
//
// With the renderer's Layout in device pixels, set reader.Scale and pass
// deviceScale to Draw so clicks, aims and text use logical pixels. With the
// HUD on screen the session's AutoTeam should be off (the player answers the
// team vote in the vote window), or the window stays open after the answer.
package hud
