package game

import (
	"strconv"
	"strings"

	"vimpclient/protocol"
)

// MaxQueue bounds every chat and vote queue: a queue drains one item per
// send tick, so a flood beyond this is dropped rather than buffered.
const MaxQueue = 64

// Enqueue appends items to q while it holds fewer than MaxQueue.
func Enqueue(q []any, items ...any) []any {
	for _, it := range items {
		if len(q) >= MaxQueue {
			break
		}
		q = append(q, it)
	}
	return q
}

// Outbox is the meta a match sends everyone, gathered between send ticks:
// chat and vote items, which go one a tick, and the stat table's changed
// rows, which go together. A match embeds one; what goes to one user
// waits in its Seat.
type Outbox struct {
	chat, votes []any
	statRows    []any
	statHeads   bool
}

// Chat queues chat items for everyone.
func (o *Outbox) Chat(items ...any) { o.chat = Enqueue(o.chat, items...) }

// Vote queues vote items for everyone.
func (o *Outbox) Vote(items ...any) { o.votes = Enqueue(o.votes, items...) }

// StatRow queues a participant's stat row; the team heads are due with it.
func (o *Outbox) StatRow(cells []any) {
	o.statRows = append(o.statRows, cells)
	o.statHeads = true
}

// StatGone queues the null row that takes game id gid off team's table.
func (o *Outbox) StatGone(gid uint8, team int) {
	o.statRows = append(o.statRows, []any{strconv.Itoa(int(gid)), team, nil})
}

// HeadsDue makes the team heads go with the next stat block.
func (o *Outbox) HeadsDue() { o.statHeads = true }

// Take empties what goes to everyone this send tick into a Tick; heads
// are asked for only when they are due.
func (o *Outbox) Take(heads func() []any) Tick {
	return Tick{
		Chat: Next(&o.chat),
		Vote: Next(&o.votes),
		Stat: StatBlock(&o.statRows, &o.statHeads, heads),
	}
}

// Tick is one send tick's meta for everyone; nil parts send nothing.
type Tick struct {
	Stat, Chat, Vote any
}

// Send sends s its panel items (nil: none changed), the tick's stat
// block, then a chat item and a vote item: the tick's for everyone, else
// the next of s's own.
func (t *Tick) Send(o Out, s *Seat, panel []string) {
	if panel != nil {
		o.JSON(s.UID, protocol.PanelData, panel)
	}
	if t.Stat != nil {
		o.JSON(s.UID, protocol.StatData, t.Stat)
	}
	if t.Chat != nil {
		o.JSON(s.UID, protocol.ChatData, t.Chat)
	} else if len(s.Chat) > 0 {
		o.JSON(s.UID, protocol.ChatData, s.Chat[0])
		s.Chat = s.Chat[1:]
	}
	if t.Vote != nil {
		o.JSON(s.UID, protocol.VoteData, t.Vote)
	} else if len(s.Votes) > 0 {
		o.JSON(s.UID, protocol.VoteData, s.Votes[0])
		s.Votes = s.Votes[1:]
	}
}

// ReadChat is a user's chat line as a match takes it: cleaned (CleanChat),
// and split into fields when it is a command ("/..."). ok is false when
// nothing is left.
func ReadChat(text string) (line string, command []string, ok bool) {
	line = CleanChat(text)
	if line == "" {
		return "", nil, false
	}
	if strings.HasPrefix(line, "/") {
		return line, strings.Fields(line), true
	}
	return line, nil, true
}

// Rename answers the chat command "/name <nick>" (f its fields) of the
// user at s, called old: a valid nick, made unique by unique, is returned
// after everyone is told and the user's client is told to keep it;
// otherwise the user is told the nick is not valid and ok is false.
func (o *Outbox) Rename(out Out, s *Seat, old string, f []string, unique func(string) string) (name string, ok bool) {
	if len(f) != 2 || !ValidName(f[1]) {
		s.QueueChat("n:0")
		return "", false
	}
	name = unique(f[1])
	o.Chat("n:1:" + old + "," + name)
	out.JSON(s.UID, protocol.Misc, map[string]string{"key": "localstorageNameReplace", "value": name})
	return name, true
}
