package session

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Messages read one after the other come out whole and as sent, whatever
// their sizes, and a message read earlier is not changed by a later one
// read into the buffers the reader keeps.
func TestWebSocketReadsMessagesOfEverySize(t *testing.T) {
	sizes := []int{10, smallMessage, smallMessage + 1, 2 * smallMessage, bigChunk + smallMessage + 7, 3 * bigChunk, 100, smallMessage + bigChunk, 5}
	msgs := make([][]byte, len(sizes))
	for i, n := range sizes {
		msgs[i] = bytes.Repeat([]byte{byte('a' + i)}, n)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for _, m := range msgs {
			if c.Write(r.Context(), websocket.MessageText, m) != nil {
				return
			}
		}
		_, _, _ = c.Read(r.Context()) // until the client goes
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, err := DialWebSocket(ctx, srv.Client(), "ws"+strings.TrimPrefix(srv.URL, "http"), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	got := make([][]byte, len(msgs))
	for i := range msgs {
		_, m, err := ws.read(ctx)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		got[i] = m
	}
	for i := range msgs {
		if !bytes.Equal(got[i], msgs[i]) {
			t.Errorf("message %d (%d bytes) read as %d bytes, not as sent", i, len(msgs[i]), len(got[i]))
		}
	}
}
