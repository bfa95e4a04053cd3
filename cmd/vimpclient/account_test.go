package main

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"vimpclient/lobby"
	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

// `login MASTER` with no -auth signs in with the identity service the
// master's Content-Security-Policy names, and says so; a master that names
// none asks for -auth.
func TestLoginNamesTheMastersIdentityService(t *testing.T) {
	keys := browsertest.Home(t)
	id := fakemaster.StartIdentity(keys)
	defer id.Close()
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, AuthService: id.URL()})
	defer fm.Close()
	var out, errOut bytes.Buffer
	token := keys.Token("4", "Neo")
	code := runLogin(context.Background(), []string{"-no-browser", "-port", browsertest.FreePort(t), fm.URL()}, strings.NewReader(token+"\n"), &out, &errOut)
	want := "Identity service: " + id.URL() + " (from the master's Content-Security-Policy)"
	if code != 0 || !strings.Contains(out.String(), want) || !strings.Contains(out.String(), url.QueryEscape("http://127.0.0.1:")) {
		t.Fatalf("login: %d, want %q and the sign-in address on it\n%s%s", code, want, out.String(), errOut.String())
	}
	store, err := lobby.DefaultTokenStore()
	if err != nil {
		t.Fatal(err)
	}
	if got := store.AuthURL(hostKey(t, fm.URL())); got != id.URL() {
		t.Errorf("stored sign-in came from %q, want %q", got, id.URL())
	}

	bare := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer bare.Close()
	out.Reset()
	errOut.Reset()
	code = runLogin(context.Background(), []string{"-no-browser", "-port", browsertest.FreePort(t), bare.URL()}, strings.NewReader(token+"\n"), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "give -auth URL") {
		t.Fatalf("a master naming no service: %d\n%s", code, errOut.String())
	}
}

func hostKey(t *testing.T, addr string) string {
	t.Helper()
	m, err := lobby.NewMaster(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m.Key()
}
