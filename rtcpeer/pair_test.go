package rtcpeer

import (
	"context"
	"io"
	"sync"
	"testing"

	"vimpclient/protocol"
)

// script plays messages, then ends the channel.
type script struct{ msgs []string }

func (s *script) ReadDataChannel(p []byte) (int, bool, error) {
	if len(s.msgs) == 0 {
		return 0, false, io.EOF
	}
	m := s.msgs[0]
	s.msgs = s.msgs[1:]
	return copy(p, m), true, nil
}

// The end of a peer connection carries the close code of the host's last
// TECH_INFORM, so the WebSocket's close policy applies unchanged.
func TestCloseFromTechInform(t *testing.T) {
	for _, tc := range []struct {
		msgs []string
		code int
		stay bool
	}{
		{[]string{`[8,[6,[30]]]`}, protocol.CloseRoomFull, true},
		{[]string{`[8,[4]]`}, protocol.CloseKickMaxLatency, false},
		{[]string{`[8,[5]]`}, protocol.CloseKickMissedPings, false},
		{[]string{`[8,[3]]`}, protocol.CloseKickIdle, false},
		{[]string{`[8,[1]]`}, protocol.CloseAnotherDevice, true},
		{[]string{`[8,[2]]`}, protocol.CloseAbnormal, false},
		{[]string{`[8,[4]]`, `[8,null]`}, protocol.CloseAbnormal, false},
		{[]string{`[0,{}]`}, protocol.CloseAbnormal, false},
	} {
		p := NewPair(nil, true)
		go p.read(&script{msgs: tc.msgs}, false)
		var err error
		for n := 0; n <= len(tc.msgs); n++ {
			if _, err = p.Recv(context.Background()); err != nil {
				break
			}
		}
		ce := p.Ended()
		if err == nil || ce.Code != tc.code || protocol.ClosePolicyStays(ce.Code) != tc.stay {
			t.Errorf("%v: closed %+v (%v), want %d", tc.msgs, ce, err, tc.code)
		}
	}
}

type recWriter struct {
	mu   sync.Mutex
	msgs []string
}

func (w *recWriter) WriteDataChannel(p []byte, _ bool) (int, error) {
	w.mu.Lock()
	w.msgs = append(w.msgs, string(p))
	w.mu.Unlock()
	return len(p), nil
}

// Lossy messages (PONG) go over state; everything else over meta.
func TestSendRoutesByReliability(t *testing.T) {
	meta, state := &recWriter{}, &recWriter{}
	p := NewPair(nil, true)
	p.metaRW, p.stateRW = meta, state
	p.metaBuf, p.stateBuf = func() uint64 { return 0 }, func() uint64 { return 0 }
	_ = p.Send([]byte(`[8,7]`), true, true)
	_ = p.Send([]byte(`[5,"1:down:fire"]`), true, false)
	if len(state.msgs) != 1 || state.msgs[0] != `[8,7]` || len(meta.msgs) != 1 {
		t.Errorf("state %v, meta %v", state.msgs, meta.msgs)
	}
	p.stateBuf = func() uint64 { return maxBuffered + 1 }
	if err := p.Send([]byte(`[8,8]`), true, true); err != nil || len(state.msgs) != 1 {
		t.Errorf("a lossy send under backpressure: %v %v", err, state.msgs)
	}
	p.metaBuf = func() uint64 { return maxBuffered + 1 }
	if err := p.Send([]byte(`[6,"hi"]`), true, false); err == nil {
		t.Error("a reliable send to a peer that does not read went through")
	}
}
