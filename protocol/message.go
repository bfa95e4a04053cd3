package protocol

// Message is one decoded server-to-client JSON message, as DecodePayload
// returns it: a *Config, *AuthForm, AuthVerdict, *MapInfo, *FirstShot,
// Sound, Inform (GAME_INFORM), TechInform, MiscEntry, PingID, ClearScope,
// ConsoleLog, Panel, *Stat, Chat, Vote, Keyset, *Accolades, SessionInfo,
// ResumeAnswer, or Unknown for a port this client does not know.
//
// The set is sealed: the one method is unexported, so only this package's
// types are messages, and a consumer type-switches on them knowing
// MessageKinds holds every case there is.
type Message interface {
	// port is the server-to-client port the message came on.
	port() int
}

// MessageKinds returns one message of each kind DecodePayload returns, in
// port order, Unknown last.
//
// It is what keeps the consumers' type switches whole. A consumer that
// must place every kind (the game loop's router) walks it in a test, which
// fails when a kind is neither handled nor named as left to another
// layer. A visitor interface with a method per kind would have the
// compiler check that instead, but then every consumer would implement a
// method for each of the twenty-odd kinds, most of them empty: each reads
// a few (the session keeps SESSION_DATA and RESUME_RESULT to itself, the
// HUD reads what its overlays show), and the router's interfaces would be
// one wide list again. A sealed set and one list keep each switch to the
// kinds its consumer reads, and a test to the kinds there are.
//
// A pointer kind is a non-nil zero value, so a test can hand it on.
func MessageKinds() []Message {
	return []Message{
		&Config{}, &AuthForm{}, AuthVerdict{}, &MapInfo{}, &FirstShot{},
		Sound(""), Inform{}, TechInform{}, MiscEntry{}, PingID(nil),
		ClearScope{}, ConsoleLog(nil), Panel(nil), &Stat{}, Chat{}, Vote{},
		Keyset(0), &Accolades{}, SessionInfo{}, ResumeAnswer{},
		Unknown{Port: ServerPortCount},
	}
}

func (*Config) port() int      { return ConfigData }
func (*AuthForm) port() int    { return AuthData }
func (AuthVerdict) port() int  { return AuthResult }
func (*MapInfo) port() int     { return MapData }
func (*FirstShot) port() int   { return FirstShotData }
func (Sound) port() int        { return SoundData }
func (Inform) port() int       { return GameInformData }
func (TechInform) port() int   { return TechInformData }
func (MiscEntry) port() int    { return Misc }
func (PingID) port() int       { return Ping }
func (ClearScope) port() int   { return Clear }
func (ConsoleLog) port() int   { return Console }
func (Panel) port() int        { return PanelData }
func (*Stat) port() int        { return StatData }
func (Chat) port() int         { return ChatData }
func (Vote) port() int         { return VoteData }
func (Keyset) port() int       { return KeysetData }
func (*Accolades) port() int   { return AccoladesData }
func (SessionInfo) port() int  { return SessionData }
func (ResumeAnswer) port() int { return ResumeResult }
func (u Unknown) port() int    { return u.Port }
