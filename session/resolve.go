package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
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
// /config answering mode "dedicated" is a dedicated host and mode "lobby" a
// lobby master. Any other answer (an older master's 404, no JSON, another
// mode) is a lobby master only when GET /servers answers with a room list;
// otherwise the address is no vimp server and the error is marked Stay. A
// host that cannot be reached is an error, never taken for a lobby. A
// redirect to another origin is an error too: the probe, the room list and
// the manifest follow redirects within the address only.
func Resolve(ctx context.Context, client *http.Client, addr, origin string) (Target, error) {
	client = sameorigin.Client(client)
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil || u.Host == "" {
		return Target{}, Stay(fmt.Errorf("address %q: not a URL with a host", addr))
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
		return Target{}, Stay(fmt.Errorf("address %q: scheme must be http, https, ws or wss%s", addr, schemeHint(u)))
	}
	if origin != "" {
		t.Origin = origin
	}
	return t, nil
}

// schemeHint offers the address with the known scheme closest to a
// mistyped one ("htp", "htps", "ww"), when one is a single edit away.
func schemeHint(u *url.URL) string {
	for _, known := range []string{"http", "https", "ws", "wss"} {
		if oneEditApart(strings.ToLower(u.Scheme), known) {
			v := *u
			v.Scheme = known
			return fmt.Sprintf(" (did you mean %q?)", v.String())
		}
	}
	return ""
}

// oneEditApart reports whether a becomes b by inserting, deleting or
// replacing one byte.
func oneEditApart(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 || a == b {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
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
	parsed := resp.StatusCode == http.StatusOK && json.Unmarshal(body, &c) == nil
	switch {
	case parsed && c.Mode == "lobby":
		return true, nil
	case !parsed || c.Mode != "dedicated":
		// Neither of the engine's answers. An older master has no /config
		// but serves its room list; anything else (a plain web server, a
		// proxy's error page) is no vimp server at all, and no retry mends
		// that.
		if listsRooms(pctx, client, base) {
			return true, nil
		}
		return false, Stay(fmt.Errorf("%s: not a vimp host or lobby master (GET /config: %s)",
			originOf(base.Scheme, base), describeAnswer(resp, parsed, c.Mode)))
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

// describeAnswer says in a few words what a /config answer was: its status
// and media type, and the mode when it was JSON with an unknown one.
func describeAnswer(resp *http.Response, parsed bool, mode string) string {
	media, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || media == "" {
		media = "no content type"
	}
	s := strconv.Itoa(resp.StatusCode) + " " + media
	if parsed {
		s += fmt.Sprintf(", mode %.40q", mode)
	}
	return s
}

// listsRooms reports whether base answers GET /servers with a master's room
// page: a JSON object whose "servers" member is an array.
func listsRooms(ctx context.Context, client *http.Client, base *url.URL) bool {
	su := *base
	su.Path = strings.TrimSuffix(su.Path, "/") + "/servers"
	su.RawQuery = "limit=1"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, su.String(), nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	var page struct {
		Servers []json.RawMessage `json:"servers"`
	}
	dec := json.NewDecoder(io.LimitReader(resp.Body, 256<<10))
	return dec.Decode(&page) == nil && page.Servers != nil
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
