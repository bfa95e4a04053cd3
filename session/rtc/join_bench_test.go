package rtc_test

import (
	"context"
	"os"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/lobby"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/session/rtc"
	"vimpclient/testkit/fakemaster"
)

// BenchmarkJoinToConfig is joining a listed room on loopback, from the
// request (the /config probe, the room list, signaling, the offer) to
// CONFIG_DATA from the room's host. It runs against the fake master and
// the embedded host, or against a running master when VIMP_BENCH_MASTER,
// VIMP_BENCH_ROOM and VIMP_BENCH_TOKEN name one.
func BenchmarkJoinToConfig(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	master, room, token := os.Getenv("VIMP_BENCH_MASTER"), os.Getenv("VIMP_BENCH_ROOM"), os.Getenv("VIMP_BENCH_TOKEN")
	if master == "" {
		k, err := fakemaster.NewKeys("bench")
		if err != nil {
			b.Fatal(err)
		}
		fm := fakemaster.Start(fakemaster.Config{Keys: k})
		defer fm.Close()
		srv, err := host.Start(ctx, host.Config{Bots: 2, Log: testLog()})
		if err != nil {
			b.Fatal(err)
		}
		r, err := lobbyroomOpen(ctx, srv, fm.URL(), "Bench Room", k.Token("1", "Hoster"))
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = r.Run(ctx) }()
		master, room, token = fm.URL(), "Bench Room", k.Token("2", "Bencher")
	}
	b.ResetTimer()
	for range b.N {
		sess := session.New(session.Options{AutoTeam: true, Logger: testLog()})
		d := rtc.NewDialer(rtc.Config{Addr: master, Room: room, Tokens: lobby.TokenSources{Flag: token, FlagMaster: master}, Session: sess, Log: testLog()})
		sess.SetPlatform(d)
		rctx, rcancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			r := &session.Runner{Session: sess, Resolve: d.Resolve, Dial: d.Dial}
			_, _ = r.Run(rctx)
		}()
		deadline := time.NewTimer(10 * time.Second)
		var evs []session.Event
		got := false
		for !got {
			select {
			case <-sess.Queue().Ready():
			case <-deadline.C:
				b.Fatal("no CONFIG_DATA within 10 s")
			}
			evs = sess.Queue().Drain(evs)
			for _, e := range evs {
				if e.Kind == session.EventMessage && e.Port == protocol.ConfigData {
					got = true
				}
			}
		}
		deadline.Stop()
		b.StopTimer()
		rcancel()
		<-done
		_ = d.Close()
		b.StartTimer()
	}
}
