package match

import (
	"os"
	"testing"

	"vimpclient/protocol"
)

// informOut keeps the steps at which one user is told of a round start and
// of a round's end (a victory or a game over).
type informOut struct {
	m      *Match
	uid    int
	starts []int64
	ends   []int64
}

func (o *informOut) JSON(uid int, port int, payload any) {
	if uid != o.uid || port != protocol.GameInformData {
		return
	}
	v, _ := payload.([]any)
	if len(v) == 0 {
		return
	}
	switch v[0] {
	case 1:
		o.starts = append(o.starts, o.m.tick)
	case 0, 2:
		o.ends = append(o.ends, o.m.tick)
	}
}

func (o *informOut) Frame(int, []byte, bool) {}

// roundLengths plays minutes of a match of five bots of skill and an idle
// player who joins team1, on mapName, and returns the lengths in seconds of
// the rounds the player saw start and end (by a wipe or by the timer).
func roundLengths(t *testing.T, skill BotSkill, mapName string, seed uint64, minutes int) []float64 {
	t.Helper()
	m, err := New(Config{Bots: 5, BotSkill: skill, Seed: seed, Map: mapName, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	o := &informOut{m: m, uid: 1}
	m.SetOut(o)
	joinHuman(t, m, 1, "Idle")
	m.Vote(1, []byte(`["teamChange","team1"]`))
	for i := 0; i < minutes*60*TicksPerSecond; i++ {
		m.Step(float64(i) * 1000 / TicksPerSecond)
	}
	var lens []float64
	ei := 0
	for i, s := range o.starts {
		next := int64(-1)
		if i+1 < len(o.starts) {
			next = o.starts[i+1]
		}
		for ei < len(o.ends) && o.ends[ei] < s {
			ei++
		}
		switch {
		case ei < len(o.ends) && (next < 0 || o.ends[ei] < next):
			lens = append(lens, float64(o.ends[ei]-s)/TicksPerSecond)
		case next >= 0:
			lens = append(lens, float64(next-s)/TicksPerSecond)
		}
	}
	return lens
}

func mean(v []float64) float64 {
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return sum / float64(max(len(v), 1))
}

// Against five easy bots an idle player's rounds on the open first map are
// no longer over in seconds: the bots of the old host wiped a team out in
// 2 to 7 s.
func TestEasyRoundsLast(t *testing.T) {
	var all []float64
	for seed := uint64(1); seed <= 2; seed++ {
		all = append(all, roundLengths(t, BotEasy, "yard", seed, 3)...)
	}
	if len(all) == 0 || mean(all) < 10 {
		t.Fatalf("rounds %v: mean %.1f s", all, mean(all))
	}
}

// TestBotRoundFigures prints the mean and shortest round of each skill on
// each generated map, over six 5-minute matches of five bots and an idle
// player (VIMP_BOT_FIGURES=1 runs it; it takes a while).
func TestBotRoundFigures(t *testing.T) {
	if os.Getenv("VIMP_BOT_FIGURES") == "" {
		t.Skip("VIMP_BOT_FIGURES=1 prints the figures")
	}
	for _, skill := range []BotSkill{BotEasy, BotNormal, BotHard} {
		for _, mp := range []string{"yard", "crossing", "maze"} {
			var all []float64
			for seed := uint64(1); seed <= 6; seed++ {
				all = append(all, roundLengths(t, skill, mp, seed, 5)...)
			}
			short := 0.0
			for i, l := range all {
				if i == 0 || l < short {
					short = l
				}
			}
			t.Logf("%v %s: %d rounds, mean %.1f s, shortest %.1f s", skill, mp, len(all), mean(all), short)
		}
	}
}
