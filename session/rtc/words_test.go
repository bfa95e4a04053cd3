package rtc_test

import (
	"context"
	"strings"
	"testing"

	"vimpclient/host"
	"vimpclient/testkit/fakemaster"
)

// The older master has no host vote: /changehost says so and sends
// nothing; the newer one rates no hosts: /like says so.
func TestCommandsTheMasterLacks(t *testing.T) {
	for _, tc := range []struct {
		dialect       fakemaster.Dialect
		line, want    string
		mustNotSendAs string
	}{
		{fakemaster.Older, "/changehost", "this master has no host vote", "host_vote_start"},
		{fakemaster.Newer, "/like great host", "this master does not rate hosts", "like_host"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		fm := fakemaster.Start(fakemaster.Config{Dialect: tc.dialect, Keys: testKeys(t)})
		hostRoom(t, ctx, fm, "Rig Room", host.Config{Bots: 0}, nil)
		if err := fm.WaitRooms(ctx, 1); err != nil {
			t.Fatal(err)
		}
		p := playingWithFrames(t, ctx, fm, fm.RoomIDs()[0])
		err := p.sess.Chat(tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.line, err)
		}
		for _, l := range fm.Log() {
			if l.Dir == "in" && l.Type == tc.mustNotSendAs {
				t.Errorf("%s went to the master as %s", tc.line, l.Type)
			}
		}
		cancel()
		<-p.done
		fm.Close()
	}
}
