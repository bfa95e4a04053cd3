package session_test

import (
	"context"
	"fmt"

	"vimpclient/protocol"
	"vimpclient/session"
)

// script is a Transport that plays a host's side of a join from a list and
// prints what the client answers: the shape any transport has (a WebSocket,
// a pair of WebRTC data channels, a recording).
type script struct {
	msgs []string
	next int
}

func (s *script) Recv(ctx context.Context) (session.Message, error) {
	if s.next == len(s.msgs) {
		return session.Message{}, &session.CloseError{Code: protocol.CloseRoomFull}
	}
	s.next++
	return session.Message{Data: []byte(s.msgs[s.next-1])}, nil
}

func (s *script) Send(_ context.Context, text []byte, _ bool) error {
	fmt.Printf("client: %s\n", text)
	return nil
}

func (s *script) Close(int, string) error { return nil }

// Lockstep makes the session answer each message before reading the next,
// so this example prints in a fixed order.
func (s *script) Lockstep() bool { return true }

// A session runs the client side of the handshake by itself — CONFIG_READY,
// the auth answer from its values, MODULES_READY, MAP_READY, PONG — and
// hands the game loop typed events through its queue.
func ExampleSession_Run() {
	t := &script{msgs: []string{
		`[0,{"snapshot":{"version":5,"port":5,"keys":{}}}]`,
		`[1,{"params":[{"name":"name","value":"","options":{"required":true}}]}]`,
		`[2,null]`,
		`[3,{"setId":"c1"}]`,
		`[10,7]`,
	}}
	s := session.New(session.Options{Auth: session.AuthValues{Nick: "Ann"}})
	info := s.Run(context.Background(), t, session.Target{Host: "example"})
	fmt.Println("closed:", info.Code, "reconnect:", info.Reconnect)
	for _, ev := range s.Queue().Drain(nil) {
		if ev.Kind == session.EventMessage {
			fmt.Printf("event: port %d %T\n", ev.Port, ev.Msg)
		}
	}
	// Output:
	// client: [0,null]
	// client: [1,{"name":"Ann"}]
	// client: [2,null]
	// client: [3,null]
	// client: [8,7]
	// closed: 4006 reconnect: false
	// event: port 0 *protocol.Config
	// event: port 1 *protocol.AuthForm
	// event: port 2 protocol.AuthVerdict
	// event: port 3 *protocol.MapInfo
}
