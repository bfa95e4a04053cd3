package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSessionDataBounds(t *testing.T) {
	got, err := ParseSessionData(json.RawMessage(`{"resumeKey":"00ff","gameId":"3"}`))
	if err != nil || got.Key != "00ff" || string(got.GameID) != `"3"` {
		t.Fatalf("%+v %v", got, err)
	}
	if got, err := ParseSessionData(json.RawMessage(`{"resumeKey":"k","gameId":7}`)); err != nil || string(got.GameID) != "7" {
		t.Fatalf("numeric game id: %+v %v", got, err)
	}
	for _, bad := range []string{
		`{"resumeKey":"` + strings.Repeat("a", MaxResumeKey+1) + `","gameId":"3"}`,
		`{"resumeKey":"","gameId":"3"}`,
		`{"resumeKey":"a\u0001","gameId":"3"}`,
		`{"resumeKey":"a","gameId":{"x":1}}`,
		`{"resumeKey":"a","gameId":"` + strings.Repeat("9", MaxGameID) + `"}`,
		`{"gameId":"3"}`,
		`[1]`,
		`"` + strings.Repeat("x", 1<<20) + `"`,
	} {
		if _, err := ParseSessionData(json.RawMessage(bad)); err == nil {
			t.Errorf("accepted %.60s", bad)
		}
	}
}

func TestResumeResult(t *testing.T) {
	ok, err := ParseResumeResult(json.RawMessage(`{"ok":true,"gameId":"3","epoch":2}`))
	if err != nil || !ok.OK || string(ok.GameID) != `"3"` {
		t.Fatalf("%+v %v", ok, err)
	}
	no, err := ParseResumeResult(json.RawMessage(`{"ok":false,"reason":"unknown"}`))
	if err != nil || no.OK || no.Reason != ResumeUnknown || !strings.Contains(ResumeWords(no.Reason), "no longer holds") {
		t.Fatalf("%+v %v", no, err)
	}
	if _, err := ParseResumeResult(json.RawMessage(`{"reason":"unknown"}`)); err == nil {
		t.Error("a result without ok")
	}
	msg, err := ResumeRequestMsg(json.RawMessage(`"3"`), "k", "tok")
	if err != nil {
		t.Fatal(err)
	}
	var back []json.RawMessage
	if json.Unmarshal(msg, &back) != nil || string(back[0]) != "9" ||
		!strings.Contains(string(back[1]), `"v":1`) || !strings.Contains(string(back[1]), `"gameId":"3"`) ||
		!strings.Contains(string(back[1]), `"resumeKey":"k"`) || !strings.Contains(string(back[1]), `"token":"tok"`) {
		t.Errorf("request %s", msg)
	}
}
