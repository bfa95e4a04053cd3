package synth

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"vimpclient/audio/wav"
)

func TestHandlerServesEveryCatalogFile(t *testing.T) {
	var cat struct {
		CodecList []string `json:"codecList"`
		Sounds    map[string]struct {
			File string `json:"file"`
			Loop bool   `json:"loop"`
		} `json:"sounds"`
	}
	if err := json.Unmarshal([]byte(TanksCatalog), &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Sounds) != 13 || len(cat.CodecList) != 1 || cat.CodecList[0] != "wav" {
		t.Fatalf("catalog %+v", cat)
	}
	srv := httptest.NewServer(http.StripPrefix("/games/tanks/sounds/", &Handler{}))
	defer srv.Close()
	for name, s := range cat.Sounds {
		if s.Loop != Loop(s.File) {
			t.Errorf("%s: loop flag %v but effect loop %v", name, s.Loop, Loop(s.File))
		}
		resp, err := srv.Client().Get(srv.URL + "/games/tanks/sounds/" + s.File + ".wav")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d", s.File, resp.StatusCode)
		}
		if _, err := wav.Decode(body); err != nil {
			t.Fatalf("%s: %v", s.File, err)
		}
	}
	for _, p := range []string{"nope.wav", "shot.mp3", "../shot.wav"} {
		resp, err := srv.Client().Get(srv.URL + "/games/tanks/sounds/" + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
	}
}
