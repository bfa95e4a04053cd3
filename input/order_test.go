package input

import (
	"slices"
	"testing"
)

func TestOrderCommands(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{ // tanks, in name order as the host's key sets give them
			[]string{"back", "fire", "forward", "gunCenter", "gunLeft", "gunRight", "left", "nextWeapon", "prevWeapon", "right"},
			[]string{"forward", "back", "left", "right", "gunLeft", "gunRight", "gunCenter", "fire", "nextWeapon", "prevWeapon"},
		},
		{ // snakes
			[]string{"boost", "left", "respawn", "right"},
			[]string{"left", "right", "boost", "respawn"},
		},
		{ // the spectator's
			[]string{"prevPlayer", "nextPlayer"},
			[]string{"nextPlayer", "prevPlayer"},
		},
		{ // a game this client does not know
			[]string{"jump", "move_right", "aim-down", "shoot", "move_left", "aim-up", "drop_flag", "crouch"},
			[]string{"move_left", "move_right", "aim-up", "aim-down", "shoot", "crouch", "drop_flag", "jump"},
		},
	} {
		got := OrderCommands(slices.Clone(c.in))
		if !slices.Equal(got, c.want) {
			t.Errorf("OrderCommands(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
