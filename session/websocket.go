package session

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"vimpclient/protocol"
	"vimpclient/sameorigin"

	"vimpclient/internal/localfile"
)

// MaxIncomingMessage is the hard cap on one server message. MAP_DATA of the
// reference games is about 66 KB, above the library's 32 KiB default; a few
// MiB leaves room for larger maps while bounding memory per message.
const MaxIncomingMessage = 4 << 20

// HTTPClient builds the client used for the /config probe and the WebSocket
// dial. Certificates are always verified; caFile, when set, adds one PEM CA
// bundle to the system roots (for self-signed development hosts). It
// follows a redirect only within the origin asked for (a WebSocket dial
// follows none): what the player typed is where the client goes.
func HTTPClient(caFile string) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if caFile != "" {
		pem, err := localfile.Read(caFile, localfile.CALimit, "CA file")
		if err != nil {
			return nil, fmt.Errorf("read CA file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA file %s: no PEM certificates found", caFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return sameorigin.Client(&http.Client{Transport: tr, Timeout: 0}), nil
}

// WebSocket is the Transport over github.com/coder/websocket.
type WebSocket struct {
	conn *websocket.Conn
	// small is read's buffer for the messages of a usual size, used by the
	// one reading goroutine.
	small [smallMessage]byte
	// big is read's first chunk past small, kept for the next long
	// message: a flood of messages a little past small then costs the
	// collector their copy only, not a chunk each besides.
	big []byte
}

// smallMessage is the size up to which a message is read into the
// transport's own buffer; a longer one is read in chunks of bigChunk.
const (
	smallMessage = 64 << 10
	bigChunk     = 256 << 10
)

// DialWebSocket opens the game WebSocket with the Origin header the host
// checks, and raises the read limit to MaxIncomingMessage. The upgrade
// follows no redirect, as a browser's WebSocket.
func DialWebSocket(ctx context.Context, client *http.Client, wsURL, origin string) (*WebSocket, error) {
	if origin == "" {
		return nil, errors.New("dial: an Origin is required (hosts drop connections without one)")
	}
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	h := http.Header{}
	h.Set("Origin", origin)
	conn, resp, err := websocket.Dial(dctx, wsURL, &websocket.DialOptions{HTTPClient: sameorigin.WebSocketClient(client), HTTPHeader: h})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if re, ok := sameorigin.Refused(err); ok {
		return nil, fmt.Errorf("dial: %w", re)
	}
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", wsURL, err)
	}
	conn.SetReadLimit(MaxIncomingMessage)
	return &WebSocket{conn: conn}, nil
}

// Recv implements Transport.
func (w *WebSocket) Recv(ctx context.Context) (Message, error) {
	typ, data, err := w.read(ctx)
	if err != nil {
		if code := websocket.CloseStatus(err); code != -1 {
			var ce websocket.CloseError
			errors.As(err, &ce)
			return Message{}, &CloseError{Code: int(code), Reason: ce.Reason}
		}
		if ctx.Err() != nil {
			return Message{}, &CloseError{Code: protocol.CloseAbnormal, Err: ctx.Err()}
		}
		return Message{}, &CloseError{Code: protocol.CloseAbnormal, Err: err}
	}
	return Message{Binary: typ == websocket.MessageBinary, Data: data}, nil
}

// read reads one message and returns a copy of exactly its size: the
// queue's byte budget counts a message's length, and a buffer grown by
// doubling would hold up to twice that. A message longer than the reused
// buffer is read in chunks and joined once, so a map of megabytes costs it
// twice its size while it is read (not the three times of a growing buffer)
// and nothing once it is returned.
func (w *WebSocket) read(ctx context.Context) (websocket.MessageType, []byte, error) {
	typ, r, err := w.conn.Reader(ctx)
	if err != nil {
		return 0, nil, err
	}
	n, err := io.ReadFull(r, w.small[:])
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return typ, bytes.Clone(w.small[:n]), nil
	}
	if err != nil {
		return 0, nil, err
	}
	chunks, total := [][]byte{w.small[:n]}, n
	for {
		var c []byte
		if len(chunks) == 1 {
			if w.big == nil {
				w.big = make([]byte, bigChunk)
			}
			c = w.big
		} else {
			c = make([]byte, bigChunk)
		}
		k, err := io.ReadFull(r, c)
		chunks, total = append(chunks, c[:k]), total+k
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return 0, nil, err
		}
	}
	msg := make([]byte, 0, total)
	for _, c := range chunks {
		msg = append(msg, c...)
	}
	return typ, msg, nil
}

// Send implements Transport; every client message is a text frame.
func (w *WebSocket) Send(ctx context.Context, text []byte, _ bool) error {
	if err := w.conn.Write(ctx, websocket.MessageText, text); err != nil {
		return fmt.Errorf("websocket write: %w", err)
	}
	return nil
}

// CloseNow drops the connection without a close handshake.
func (w *WebSocket) CloseNow() error { return w.conn.CloseNow() }

// Close implements Transport.
func (w *WebSocket) Close(code int, reason string) error {
	return w.conn.Close(websocket.StatusCode(code), reason)
}
