package game

import (
	"strings"
	"unicode/utf8"
)

// MaxChatRunes is the longest chat line a match relays, in runes.
const MaxChatRunes = 60

// CleanChat is a player's chat line as a match relays it: control
// characters, DEL and undecodable bytes dropped, cut to MaxChatRunes. ""
// means nothing is left to send.
func CleanChat(text string) string {
	text = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, text)
	if r := []rune(text); len(r) > MaxChatRunes {
		text = string(r[:MaxChatRunes])
	}
	return text
}

// Next takes the first of a queue of messages sent to everyone, one a tick;
// nil when the queue is empty.
func Next(queue *[]any) any {
	if len(*queue) == 0 {
		return nil
	}
	v := (*queue)[0]
	*queue = (*queue)[1:]
	return v
}

// StatBlock is the tick's STAT_DATA for everyone, [rows, heads], and
// empties rows; heads are asked for only when head is set. nil when there is
// nothing to send.
func StatBlock(rows *[]any, head *bool, heads func() []any) any {
	if len(*rows) == 0 && !*head {
		return nil
	}
	h := []any{}
	if *head {
		h = heads()
	}
	out := []any{*rows, h}
	*rows, *head = nil, false
	return out
}
