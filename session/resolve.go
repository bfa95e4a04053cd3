package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"vimpclient/sameorigin"
)

// Target is where and how to connect.
type Target struct {
	WSURL       string
	Origin      string
	Host        string // host:port, the key remembered auth values are stored under
	GameID      string // from /config; "" when dialled by ws:// URL
	GameVersion string
	// Warning is set when the game manifest announces a plugin contract
	// other than EngineAPI: the client may not understand this game.
	Warning string
	// AssetsBase is the absolute URL of the game's images and sounds, from
	// the game manifest ("" when the host has no manifest).
	AssetsBase string

	// Lobby marks a lobby master: the match is a room reached over WebRTC
	// through the master's signaling, not the WebSocket above (WSURL is
	// empty). Master is its base URL; Origin the https origin it accepts.
	Lobby  bool
	Master string
	// Room and RoomName name the chosen room (set by the lobby resolver).
	Room     string
	RoomName string
	// Token is the identity token sent in AUTH_RESPONSE. Only the lobby
	// resolver sets it, for rooms of the master the token belongs to, so a
	// dedicated host never receives one. It is never logged or recorded.
	Token string
	// TokenHome is the origin (scheme://host:port) of the master Token
	// belongs to; RoomToken refuses the token to a room of any other.
	TokenHome string
}

// ErrTokenNotHere refuses to put an identity token in an AUTH_RESPONSE
// that would go anywhere but a room of the token's own master.
var ErrTokenNotHere = errors.New("the identity token is not sent here")

// RoomToken is the token the room's AUTH_RESPONSE carries: "" when the
// target has none; an error (and no token) for a dedicated host or a room
// reached through a master other than the token's own.
func (t Target) RoomToken() (string, error) {
	if t.Token == "" {
		return "", nil
	}
	if !t.Lobby {
		return "", fmt.Errorf("%w: %s is a dedicated host", ErrTokenNotHere, t.Host)
	}
	if home := sameorigin.Parse(t.Master); t.TokenHome == "" || home != t.TokenHome {
		return "", fmt.Errorf("%w: it belongs to %q, and this room's master is %q", ErrTokenNotHere, t.TokenHome, home)
	}
	return t.Token, nil
}

// EngineAPI is the game plugin contract version this client follows.
const EngineAPI = 3

// Resolve turns what the player typed into a Target: http(s)://host:port (or a
// bare host:port) is probed with GET /config; ws(s)://host:port/path is used
// as is. origin overrides the derived Origin header when not empty.
//
// /config answering mode "dedicated" is a dedicated host; any other answer
// (another mode, an older master's 404, no JSON) is a lobby master, as the
// engine's own client decides. A host that cannot be reached is an error,
// never taken for a lobby. A redirect to another origin is an error too:
// the probe and the manifest follow redirects within the address only.
func Resolve(ctx context.Context, client *http.Client, addr, origin string) (Target, error) {
	client = sameorigin.Client(client)
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil || u.Host == "" {
		return Target{}, fmt.Errorf("address %q: not a URL with a host", addr)
	}
	t := Target{Host: u.Host}
	switch u.Scheme {
	case "ws", "wss":
		t.WSURL = u.String()
		t.Origin = originOf(map[string]string{"ws": "http", "wss": "https"}[u.Scheme], u)
	case "http", "https":
		lobby, err := probe(ctx, client, u, &t)
		if err != nil {
			return Target{}, err
		}
		if lobby {
			// A master accepts only https origins, even when it serves
			// plain HTTP behind a proxy.
			t.Lobby = true
			t.Master = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimSuffix(u.Path, "/")}).String()
			t.Origin = originOf("https", u)
			break
		}
		t.Origin = originOf(u.Scheme, u)
		t.Warning, t.AssetsBase = checkManifest(ctx, client, u, t.GameID)
	default:
		return Target{}, fmt.Errorf("address %q: scheme must be http, https, ws or wss", addr)
	}
	if origin != "" {
		t.Origin = origin
	}
	return t, nil
}

// originOf is scheme://host[:port] with the scheme's default port omitted.
func originOf(scheme string, u *url.URL) string {
	host, port := u.Hostname(), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		return scheme + "://" + host + ":" + port
	}
	return scheme + "://" + host
}

type configProbe struct {
	Mode        string  `json:"mode"`
	GameID      string  `json:"gameId"`
	GameVersion *string `json:"gameVersion"`
	WSPath      string  `json:"wsPath"`
	WSURL       string  `json:"wsUrl"`
}

// probe asks /config which contour base serves; lobby is true for a master.
func probe(ctx context.Context, client *http.Client, base *url.URL, t *Target) (lobby bool, err error) {
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cu := *base
	cu.Path = strings.TrimSuffix(cu.Path, "/") + "/config"
	cu.RawQuery = ""
	req, err := http.NewRequestWithContext(pctx, http.MethodGet, cu.String(), nil)
	if err != nil {
		return false, fmt.Errorf("probe %s: %w", cu.String(), err)
	}
	resp, err := client.Do(req)
	if re, ok := sameorigin.Refused(err); ok {
		return false, fmt.Errorf("probe: %w", re)
	}
	if err != nil {
		return false, fmt.Errorf("probe %s: host unreachable: %w", cu.String(), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return false, fmt.Errorf("probe %s: %w", cu.String(), err)
	}
	var c configProbe
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &c) != nil || c.Mode != "dedicated" {
		return true, nil
	}
	t.GameID = c.GameID
	if c.GameVersion != nil {
		t.GameVersion = *c.GameVersion
	}
	if c.WSURL != "" {
		wu, err := url.Parse(c.WSURL)
		if err != nil || (wu.Scheme != "ws" && wu.Scheme != "wss") {
			return false, fmt.Errorf("probe %s: wsUrl %q is not a ws(s) URL", cu.String(), c.WSURL)
		}
		t.WSURL = wu.String()
		return false, nil
	}
	path := c.WSPath
	if path == "" {
		path = "/game"
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	scheme := "ws"
	if base.Scheme == "https" {
		scheme = "wss"
	}
	t.WSURL = (&url.URL{Scheme: scheme, Host: base.Host, Path: path}).String()
	return false, nil
}

// hostKey normalises a host:port for the remembered-values store.
func hostKey(hostport string) string {
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return strings.ToLower(hostport)
	}
	return strings.ToLower(net.JoinHostPort(h, p))
}

// checkManifest reads /games/manifest.json and returns a warning when the
// game's engineApi differs from EngineAPI, and the game's assetsBase made
// absolute. A missing or unreadable catalog is not an error: nothing on the
// wire needs it.
func checkManifest(ctx context.Context, client *http.Client, base *url.URL, gameID string) (warning, assets string) {
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	mu := *base
	mu.Path = strings.TrimSuffix(mu.Path, "/") + "/games/manifest.json"
	mu.RawQuery = ""
	req, err := http.NewRequestWithContext(pctx, http.MethodGet, mu.String(), nil)
	if err != nil {
		return "", ""
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", ""
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", ""
	}
	var list []struct {
		ID         string `json:"id"`
		EngineAPI  *int   `json:"engineApi"`
		AssetsBase string `json:"assetsBase"`
	}
	if json.Unmarshal(body, &list) != nil {
		return "", ""
	}
	for _, m := range list {
		if m.ID != gameID {
			continue
		}
		if ref, err := url.Parse(m.AssetsBase); err == nil && m.AssetsBase != "" {
			if a := base.ResolveReference(ref); a.Scheme == "http" || a.Scheme == "https" {
				assets = a.String()
			}
		}
		if m.EngineAPI != nil && *m.EngineAPI != EngineAPI {
			warning = fmt.Sprintf("game %q uses plugin contract %d; this client follows %d", gameID, *m.EngineAPI, EngineAPI)
		}
		return warning, assets
	}
	return "", ""
}
