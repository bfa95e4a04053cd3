package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"vimpclient/sameorigin"
)

// RequestTimeout bounds every HTTP request to the master.
const RequestTimeout = 10 * time.Second

// maxBody bounds what is read of one HTTP answer (a full page of rooms is
// a few KiB; a map about 70 KiB).
const maxBody = 4 << 20

// pageLimit is the page size asked for (the older master's maximum).
const pageLimit = 50

// Master is the HTTP side of a lobby master.
type Master struct {
	base *url.URL
	http *http.Client
}

// NewMaster takes the master's address as the player typed it
// (http(s)://host:port, or a bare host:port for http). Its requests follow
// a redirect only within the master's origin: one elsewhere is an error
// that names both addresses.
func NewMaster(addr string, client *http.Client) (*Master, error) {
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("master address %q: want http(s)://host[:port]", addr)
	}
	return &Master{base: &url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimSuffix(u.Path, "/")}, http: sameorigin.Client(client)}, nil
}

// URL is the master's base URL (no trailing slash).
func (m *Master) URL() string { return m.base.String() }

// Home is the master's own origin (scheme://host:port): the one place its
// players' tokens may be sent.
func (m *Master) Home() string { return sameorigin.Of(m.base) }

// Key names the master in the token store: host:port, lower case.
func (m *Master) Key() string { return MasterKey(m.base) }

// MasterKey is the store key of a master URL: its host and port, lower
// case, with the scheme's default port written out.
func MasterKey(u *url.URL) string {
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return strings.ToLower(net.JoinHostPort(host, port))
}

// SignalURL is the signaling WebSocket, at the master's root path.
func (m *Master) SignalURL() string {
	scheme := "ws"
	if m.base.Scheme == "https" {
		scheme = "wss"
	}
	return (&url.URL{Scheme: scheme, Host: m.base.Host, Path: m.base.Path + "/"}).String()
}

// Origin is the Origin the master accepts: always https://host[:port], even
// for a master that serves plain HTTP behind a proxy.
func (m *Master) Origin() string {
	host, port := m.base.Hostname(), m.base.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" || port == "443" {
		return "https://" + host
	}
	return "https://" + host + ":" + port
}

// get fetches path (with query) and returns the body of a 200 answer. A
// transport failure is reported as the master being unreachable; any other
// status with the master's error code in words when it sent one.
func (m *Master) get(ctx context.Context, path string, q url.Values, header http.Header) ([]byte, error) {
	body, _, err := m.getWithHeader(ctx, path, q, header)
	return body, err
}

// getWithHeader is get that also returns the answer's header.
func (m *Master) getWithHeader(ctx context.Context, path string, q url.Values, header http.Header) ([]byte, http.Header, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	u := *m.base
	u.Path = m.base.Path + path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("master %s: %w", u.String(), err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := m.http.Do(req)
	if re, ok := sameorigin.Refused(err); ok {
		return nil, nil, fmt.Errorf("master: %w", re)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, nil, fmt.Errorf("master %s did not answer within %s: %w", m.base.Host, RequestTimeout, err)
		}
		return nil, nil, fmt.Errorf("master %s unreachable: %w", m.base.Host, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, nil, fmt.Errorf("master %s: reading %s: %w", m.base.Host, path, err)
	}
	if len(body) > maxBody {
		return nil, nil, fmt.Errorf("master %s: %s answered over %d bytes", m.base.Host, path, maxBody)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		err := fmt.Errorf("master %s: %s answered HTTP %d", m.base.Host, path, resp.StatusCode)
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			err = fmt.Errorf("master %s: %s: HTTP %d: %w", m.base.Host, path, resp.StatusCode, &MasterError{Code: e.Error})
		}
		if resp.StatusCode == http.StatusNotFound {
			err = notFound{err}
		}
		return nil, nil, err
	}
	return body, resp.Header, nil
}

// ErrNotFound is joined to the error of a request the master answered
// with 404: an older master has no such path, or the thing asked for is
// not there.
var ErrNotFound = errors.New("not found on the master")

// notFound is a 404's error: its words, and ErrNotFound too.
type notFound struct{ err error }

func (e notFound) Error() string   { return e.err.Error() }
func (e notFound) Unwrap() []error { return []error{e.err, ErrNotFound} }

// Query selects rooms: a search (a case-insensitive part of the name, or
// gameId/name) ignores region and paging on the master.
type Query struct {
	Search string
	Region string
	Offset int
	Limit  int
}

func (q Query) values() url.Values {
	v := url.Values{}
	if q.Search != "" {
		v.Set("search", q.Search)
	}
	if q.Region != "" {
		v.Set("region", q.Region)
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	return v
}

// Servers fetches one page of the room list.
func (m *Master) Servers(ctx context.Context, q Query) (ServerPage, error) {
	body, err := m.get(ctx, "/servers", q.values(), nil)
	if err != nil {
		return ServerPage{}, err
	}
	page, _, err := ParseServerPage(body)
	if err != nil {
		return ServerPage{}, fmt.Errorf("master %s: /servers: %w", m.base.Host, err)
	}
	return page, nil
}

// AllServers fetches every page (at most MaxRooms rooms in all). Total is
// the master's count; a master that repeats a page ends the walk.
func (m *Master) AllServers(ctx context.Context, q Query) (ServerPage, error) {
	q.Offset, q.Limit = 0, pageLimit
	var all ServerPage
	seen := map[string]bool{}
	for {
		page, err := m.Servers(ctx, q)
		if err != nil {
			return ServerPage{}, err
		}
		all.Total = page.Total
		all.Unreadable += page.Unreadable
		all.OverLimit += page.OverLimit
		added := 0
		for _, r := range page.Servers {
			if seen[r.ID] {
				continue
			}
			if len(all.Servers) >= MaxRooms {
				all.OverLimit++
				continue
			}
			seen[r.ID] = true
			all.Servers = append(all.Servers, r)
			added++
		}
		q.Offset += len(page.Servers) + page.Unreadable + page.OverLimit // the master pages by what it sent
		if added == 0 || q.Offset >= page.Total || len(all.Servers) >= MaxRooms || q.Search != "" {
			break
		}
	}
	return all, nil
}

// RoomByID asks a newer master for one room (GET /rooms/:id); an older
// master answers 404 for every id.
func (m *Master) RoomByID(ctx context.Context, id string) (Room, error) {
	body, err := m.get(ctx, "/rooms/"+url.PathEscape(id), nil, nil)
	if err != nil {
		return Room{}, err
	}
	return ParseRoom(body)
}

// GameManifest is what this client reads of a game's manifest.
type GameManifest struct {
	ID        string `json:"id"`
	Version   string `json:"version"`
	Title     string `json:"title"`
	EngineAPI *int   `json:"engineApi"`
	// AssetsBase is made absolute against the master's URL.
	AssetsBase string `json:"assetsBase"`
	Maps       struct {
		Version string   `json:"version"`
		List    []string `json:"list"`
	} `json:"maps"`
}

// Manifest fetches /games/:id/manifest.json.
func (m *Master) Manifest(ctx context.Context, gameID string) (GameManifest, error) {
	body, err := m.get(ctx, "/games/"+url.PathEscape(gameID)+"/manifest.json", nil, nil)
	if err != nil {
		return GameManifest{}, err
	}
	var g GameManifest
	if err := json.Unmarshal(body, &g); err != nil {
		return GameManifest{}, fmt.Errorf("master %s: manifest of %q: %w", m.base.Host, gameID, err)
	}
	if g.AssetsBase != "" {
		if ref, err := url.Parse(g.AssetsBase); err == nil {
			base := *m.base
			base.Path += "/"
			if a := base.ResolveReference(ref); a.Scheme == "http" || a.Scheme == "https" {
				g.AssetsBase = a.String()
			} else {
				g.AssetsBase = ""
			}
		} else {
			g.AssetsBase = ""
		}
	}
	return g, nil
}

// Map fetches a map of a game (/games/:id/maps/:name.json) as raw JSON.
func (m *Master) Map(ctx context.Context, gameID, name string) ([]byte, error) {
	return m.get(ctx, "/games/"+url.PathEscape(gameID)+"/maps/"+url.PathEscape(name)+".json", nil, nil)
}

// JWKS fetches the identity service's keys as the master serves them.
func (m *Master) JWKS(ctx context.Context) ([]byte, error) {
	return m.get(ctx, "/auth/jwks", nil, nil)
}
