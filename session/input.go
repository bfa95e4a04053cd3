package session

import (
	"errors"
	"fmt"

	"vimpclient/protocol"
)

// send queues game input in the input lane.
func (s *Session) send(msg []byte) error {
	s.mu.Lock()
	ob, in := s.ob, s.inGame
	s.mu.Unlock()
	if ob == nil || !in {
		return ErrNotInGame
	}
	if err := ob.push(outMsg{data: msg, reliable: true}, false); err != nil {
		return fmt.Errorf("send: %w", err)
	}
	return nil
}

func (s *Session) nextSeq() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

// Key sends one KEYS_DATA key transition for a command of the current key
// set and returns its input seq, which the client core's prediction takes
// with the same input.
func (s *Session) Key(action protocol.KeyAction, command string) (uint32, error) {
	seq := s.nextSeq()
	return seq, s.send(protocol.KeyMsg(seq, action, command))
}

// Aim sends one pointer message in world coordinates and returns its seq.
func (s *Session) Aim(x, y float64, flags uint8) (uint32, error) {
	seq := s.nextSeq()
	return seq, s.send(protocol.AimMsg(seq, x, y, flags))
}

// Chat sends a chat line; an empty line (after control characters) is
// refused. In a lobby room the platform's commands (/like, /unlike,
// /changehost) go to the master and never reach the host.
func (s *Session) Chat(text string) error {
	s.mu.Lock()
	p := s.platform
	s.mu.Unlock()
	if p != nil {
		if handled, err := p.Command(text); handled {
			return err
		}
	}
	msg, ok := protocol.ChatMsg(text)
	if !ok {
		return errors.New("chat: nothing to send")
	}
	return s.send(msg)
}

// VoteRequest asks the host for a list ("teams", "maps") for the named vote.
func (s *Session) VoteRequest(voteName, what string) error {
	s.mu.Lock()
	s.pendingList = voteName
	s.mu.Unlock()
	return s.send(protocol.VoteRequestMsg(what))
}

// VoteAnswer answers a vote with one of the values offered. An engine vote
// (a name starting with "@") is answered through the platform, never on the
// host's vote port.
func (s *Session) VoteAnswer(voteName, value string) error {
	if IsEngineVote(voteName) {
		s.mu.Lock()
		p := s.platform
		s.mu.Unlock()
		if p == nil {
			return errNoPlatform
		}
		return p.AnswerVote(voteName, value)
	}
	return s.send(protocol.VoteAnswerMsg(voteName, value))
}
