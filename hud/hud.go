package hud

import (
	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/settings"
)

// HUD gathers the overlays, routes the session's typed messages to them and
// answers the input controller's questions about open modes. It is owned by
// the game loop.
type HUD struct {
	Config UIConfig
	Chat   *Chat
	Panel  *Panel
	Stat   *Stat
	Vote   *Vote
	Game   *GameInform
	Tech   *TechInform
	Auth   *AuthForm // nil until AUTH_DATA, and after the host accepted it
	// Accolades is the last ACCOLADES_DATA and its banner.
	Accolades *Accolades
	// Reconnect is the reconnecting screen (see Reconnecting).
	Reconnect Reconnect
	// HostChange is the lobby room's host-change screen (see HostChanging).
	HostChange HostChange
	// Crash is the game's result card (see GameLook).
	Crash CrashCard
	// Watching is the nick of the player the camera follows while the
	// local player is dead or spectating ("" when none): see SetWatching.
	Watching string

	host, game string
	store      Store
	title      string
	out        []Out
	Problems   []string
	authHidden *AuthForm // answered by the session on its own; shown again if rejected
	reduced    bool
	menu       menuOptions
	palette    string
	// ModulesReady is set once the host accepted the form: the game UI
	// exists from then on.
	ModulesReady bool

	now        float64 // the last now seen by Update or Handle
	haveNow    bool
	notices    []Notice
	self       localPlayer
	fixedRects []Rect
}

// Team palettes for SetPalette: the engine's colours, or colours told apart
// with any common colour blindness.
const (
	PaletteStandard   = settings.PaletteStandard
	PaletteColorBlind = settings.PaletteColorBlind
)

// SetPalette sets the team colours the views draw names and tables in (a
// user setting); it survives CONFIG_DATA.
func (h *HUD) SetPalette(name string) { h.palette = name }

// Palette is the team palette (PaletteStandard unless set).
func (h *HUD) Palette() string {
	if h.palette == "" {
		return PaletteStandard
	}
	return h.palette
}

// SetReducedMotion turns off the title wave and the bar refill (a user
// setting); it survives CONFIG_DATA.
func (h *HUD) SetReducedMotion(on bool) {
	h.reduced = on
	h.Panel.ReducedMotion = on
}

// Reveals reports whether the game UI element id ("panel", "chat") is shown:
// after the form is accepted, when initIdList names it (every element when
// the game sends no list).
func (h *HUD) Reveals(id string) bool {
	if !h.ModulesReady {
		return false
	}
	if h.Config.InitIDs == nil {
		return true
	}
	for _, x := range h.Config.InitIDs {
		if x == id {
			return true
		}
	}
	return false
}

// SettingsEntry puts the client's Settings entry at the end of the M menu
// (see Vote.SettingsEntry); it survives CONFIG_DATA.
func (h *HUD) SettingsEntry(on bool) {
	h.menu.settings = on
	h.Vote.SettingsEntry(on)
}

// BrowserEntry puts the client's entry leaving the match for the server
// list at the end of the M menu, labelled label ("": none); it survives
// CONFIG_DATA.
func (h *HUD) BrowserEntry(label string) {
	h.menu.browser = label
	h.Vote.BrowserEntry(label)
}

// SetAbout sets the M menu's About line: the game recognised and how its
// parts are drawn (see VoteWindow.About); it survives CONFIG_DATA.
func (h *HUD) SetAbout(text string) {
	h.menu.about = text
	h.Vote.SetAbout(text)
}

// HostListsRequested tells the overlays that the session itself requests
// the value list of a vote the host opens (see Vote.HostListsRequested); it
// survives CONFIG_DATA.
func (h *HUD) HostListsRequested(on bool) {
	h.menu.hostLists = on
	h.Vote.HostListsRequested(on)
}

// menuOptions are the M menu's entries and switches of the client's own,
// which the wiring sets once per connection: CONFIG_DATA makes a new Vote,
// and each is given them again.
type menuOptions struct {
	hostLists bool   // the session requests a host vote's value list itself
	settings  bool   // the menu ends with the client's Settings entry
	browser   string // then the server list's, so labelled ("": none)
	about     string // the About line
}

// applyTo gives v the options.
func (o menuOptions) applyTo(v *Vote) {
	v.HostListsRequested(o.hostLists)
	v.SettingsEntry(o.settings)
	v.BrowserEntry(o.browser)
	v.SetAbout(o.about)
}

// OutKind tells what an Out asks the session to send.
type OutKind uint8

const (
	OutAuth        OutKind = iota // AUTH_RESPONSE: Values
	OutChat                       // CHAT_DATA: Text
	OutVoteRequest                // VOTE_DATA list request: Text ("teams", "maps") for Vote
	OutVoteAnswer                 // VOTE_DATA answer: [Vote, Text]
	OutGiveUp                     // the player gave up reconnecting: stop the session
	OutSettings                   // the player chose Settings in the M menu: open the overlay
	// OutEngineAnswer answers an engine vote ('@' name): [Vote, Text] for
	// the platform, never a VOTE_DATA message (Msg is nil).
	OutEngineAnswer
	// OutBrowser: the player chose the server list in the M menu: leave
	// the match for it.
	OutBrowser
)

// Out is one message the overlays want sent. Msg is its exact wire text;
// the other fields let the wiring use the session's typed senders instead.
type Out struct {
	Kind   OutKind
	Vote   string
	Text   string
	Values map[string]string
	Msg    []byte
}

// New makes the overlays with the engine defaults, for a connection to host
// running game id game; store remembers auth values (nil: nothing kept).
func New(host, game string, store Store) *HUD {
	h := &HUD{host: host, game: game, store: store, Tech: NewTechInform(), Accolades: &Accolades{}}
	h.configure(DefaultUIConfig())
	return h
}

func (h *HUD) configure(c UIConfig) {
	h.Config = c
	h.Chat = NewChat(c.Chat)
	h.Panel = NewPanel(c.Panel)
	h.Panel.ReducedMotion = h.reduced
	if h.title != "" {
		h.Panel.SetTitle(h.title)
	}
	h.Stat = NewStat(c.Stat)
	old := h.Vote
	h.Vote = NewVote(c.Vote)
	h.menu.applyTo(h.Vote)
	h.Vote.adopt(old, h.now) // the platform's votes outlive the game's configuration
	h.Game = NewGameInform(c.Game)
	h.Tech.SetList(c.Tech)
	h.refreshLeaderboard()
}

// tick records the time the HUD was last fed.
func (h *HUD) tick(now float64) {
	h.now, h.haveNow = now, true
}

// Handle applies one server message (a session EventMessage's Msg).
// Messages for other layers are ignored.
func (h *HUD) Handle(m protocol.Message, now float64) {
	h.tick(now)
	switch v := m.(type) {
	case *protocol.Config:
		u := UIConfigFrom(v)
		h.Problems = append(h.Problems[:0], u.Problems...)
		h.configure(u)
		h.Crash = CrashCard{} // no card until the game is known: SetGameLook
	case *protocol.AuthForm:
		h.title = v.Title
		h.Panel.SetTitle(v.Title)
		h.Auth = NewAuthForm(v, h.host, h.game, h.store)
		h.Crash.reset()
		h.authHidden = nil
	case protocol.AuthVerdict:
		if h.Auth == nil && h.authHidden != nil && !v.OK {
			h.Auth, h.authHidden = h.authHidden, nil // the automatic answer was rejected
		}
		if v.OK {
			h.authHidden = nil
			h.ModulesReady = true
		}
		if h.Auth != nil {
			if err := h.Auth.Result(v); err != nil {
				h.Problems = append(h.Problems, err.Error())
			}
			if h.Auth.Done {
				h.Auth = nil
			}
		}
	case protocol.Inform:
		h.Game.Receive(v, now)
		if v.Code == 1 {
			h.Panel.RoundStart(now)
		}
	case protocol.TechInform:
		h.Tech.Receive(v)
	case protocol.Panel:
		h.Panel.Apply(v, now)
		h.Crash.apply(v, h.Config.Panel.Keys)
	case *protocol.Stat:
		h.Stat.Apply(v)
	case protocol.Chat:
		h.Chat.Receive(v, now)
		if v.Kind == protocol.ChatPlayer {
			if c, ok := ParseCSSColor(v.NameColor); ok {
				h.Stat.NoteNameColour(cleanText(v.Author), c)
			}
		}
	case protocol.Vote:
		h.Vote.Receive(v, now)
	case *protocol.Accolades:
		h.applyAccolades(v, now)
	}
}

// Disconnected shows the close reason on the black screen (unless a
// terminal text is already shown) and closes the command line.
func (h *HUD) Disconnected(reason string) {
	h.Tech.Disconnected(reason)
	h.Chat.Escape()
}

// Update runs every overlay timer at now (monotonic ms). Call once a frame.
func (h *HUD) Update(now float64) {
	h.tick(now)
	h.updateNotices(now)
	h.Accolades.update(now)
	h.Chat.Update(now)
	h.Panel.Update(now)
	h.Vote.Update(now)
	h.Game.Update(now)
}

// DismissAuth hides the form the session answered on its own (from -nick,
// -set or remembered values) with sent; a rejection brings it back with the
// errors and the rejected values in their fields, for the player to correct.
func (h *HUD) DismissAuth(sent map[string]string) {
	if h.Auth != nil {
		h.Auth.fill(sent)
		h.authHidden, h.Auth = h.Auth, nil
	}
}

// Outgoing returns the messages the overlays want sent (chat, vote requests
// and answers, the auth answer) and forgets them.
func (h *HUD) Outgoing() []Out {
	out := append(h.out, h.Vote.Outgoing()...)
	h.out = nil
	return out
}

// SubmitAuth submits the auth form (Enter or a click on Start).
func (h *HUD) SubmitAuth() {
	if h.Auth == nil {
		return
	}
	if msg := h.Auth.Submit(); msg != nil {
		values := h.Auth.Submitted()
		h.self.formNick = cleanText(values["name"])
		h.out = append(h.out, Out{Kind: OutAuth, Values: values, Msg: msg})
	}
}

// ModeOpen reports whether mode m is open.
func (h *HUD) ModeOpen(m input.Mode) bool {
	switch m {
	case input.ModeChat:
		return h.Chat.Open()
	case input.ModeVote:
		return h.Vote.Open()
	case input.ModeStat:
		return h.Stat.Visible
	}
	return false
}

// Modes is the set of modes open now, which the loop hands the input
// controller with each frame's input.
func (h *HUD) Modes() input.Modes {
	return input.ModesOf(h.Chat.Open(), h.Vote.Open(), h.Stat.Visible)
}

// OpenMode implements input.UI.
func (h *HUD) OpenMode(m input.Mode, now float64) input.Modes {
	switch m {
	case input.ModeChat:
		h.Chat.OpenInput()
	case input.ModeVote:
		h.Vote.OpenMenu(now)
	case input.ModeStat:
		h.Stat.Visible = true
	}
	return h.Modes()
}

// CloseStat implements input.UI.
func (h *HUD) CloseStat() input.Modes {
	h.Stat.Visible = false
	return h.Modes()
}

// ChatCommand implements input.UI: Enter sends the command line, Escape drops it.
func (h *HUD) ChatCommand(c input.Cmd, _ float64) input.Modes {
	switch c {
	case input.CmdEnter:
		if text, msg := h.Chat.Enter(); msg != nil {
			h.out = append(h.out, Out{Kind: OutChat, Text: text, Msg: msg})
		}
	case input.CmdEscape:
		h.Chat.Escape()
	}
	return h.Modes()
}

// VoteKey implements input.UI.
func (h *HUD) VoteKey(code int, now float64) input.Modes {
	h.Vote.Key(code, now)
	return h.Modes()
}

// ChatText implements the text sink of the Ebiten input layer.
func (h *HUD) ChatText(r []rune) { h.Chat.Type(r) }

// ChatBackspace implements the text sink of the Ebiten input layer: the
// last character goes, or with Ctrl held the last word.
func (h *HUD) ChatBackspace(word bool) {
	if word {
		h.Chat.DeleteWord()
	} else {
		h.Chat.Backspace()
	}
}

// ChatClear implements the text sink of the Ebiten input layer (Ctrl+A).
func (h *HUD) ChatClear() { h.Chat.Clear() }

// AuthKey handles a navigation key on the auth form (see AuthForm.Key);
// Enter submits.
func (h *HUD) AuthKey(code int, shift bool) {
	if h.Auth != nil && h.Auth.Key(code, shift) {
		h.SubmitAuth()
	}
}

// AuthInput applies one frame of keyboard input to the auth form: typed
// text first (a slow frame may hold the last characters and the Enter after
// them), then Backspace, then the navigation keys (DOM codes; Backspace's own
// press is carried by backspace, with repeat). With ctrl held Backspace
// deletes the last word and A clears the focused field.
func (h *HUD) AuthInput(pressed []int, shift, ctrl bool, chars []rune, backspace bool) {
	if h.Auth == nil {
		return
	}
	if len(chars) > 0 {
		h.Auth.Type(chars)
	}
	if backspace {
		if ctrl {
			h.Auth.DeleteWord()
		} else {
			h.Auth.Backspace()
		}
	}
	for _, code := range pressed {
		switch {
		case code == 8:
		case code == keyCodeA && ctrl:
			h.Auth.Clear()
		default:
			h.AuthKey(code, shift)
		}
	}
}

// AuthType types into the focused auth field.
func (h *HUD) AuthType(r []rune) {
	if h.Auth != nil {
		h.Auth.Type(r)
	}
}

// AuthClick handles a mouse press at (x, y) in a w×h window (logical px).
func (h *HUD) AuthClick(w, ht, x, y float64) {
	if h.Auth != nil && h.Auth.Click(w, ht, x, y) {
		h.SubmitAuth()
	}
}

// AuthOpen reports whether the auth form is on screen.
func (h *HUD) AuthOpen() bool { return h.Auth != nil }

// EscapeFree reports whether nothing on the HUD takes Esc itself (no chat
// line, vote, reconnecting or host-change screen), so Esc leaves the match.
// The auth form does not take Esc: a player who does not want to give a
// name leaves with it, as from any other screen of the match.
func (h *HUD) EscapeFree() bool {
	return !h.Chat.Open() && !h.Vote.Open() && !h.Reconnect.Shown && !h.HostChange.Shown
}

// SetWatching names the player the camera shows while the local player
// does not play (dead, or a spectator): "" when it is the player's own
// view or nobody the scoreboard knows.
func (h *HUD) SetWatching(name string) { h.Watching = name }
