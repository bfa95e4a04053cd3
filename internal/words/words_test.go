package words

import "testing"

func TestCountAgreesInNumber(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 crystals"}, {1, "1 crystal"}, {2, "2 crystals"}, {-1, "-1 crystals"}, {11, "11 crystals"}} {
		if got := Count(c.n, "crystal", "crystals"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if Noun(1.5, "crystal", "crystals") != "crystals" || Noun(1, "room", "rooms") != "room" {
		t.Error("Noun: a fraction is plural, exactly one singular")
	}
}
