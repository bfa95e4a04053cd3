package lobby_test

import (
	"context"
	"fmt"

	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

// Listing rooms: a master's /servers is read page by page, and a room is
// picked by its id or, case aside, its exact name.
func ExampleMaster_AllServers() {
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Older})
	defer fm.Close()
	fm.AddListed("Rig Room", "eu", 3, 8)
	fm.AddListed("Quiet Corner", "us", 0, 4)

	m, err := lobby.NewMaster(fm.URL(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	page, err := m.AllServers(context.Background(), lobby.Query{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range page.Servers {
		fmt.Printf("%s: %s on %s, %d/%d players, %s\n", r.Name, r.GameID, r.MapName, r.CurrentPlayers, r.MaxPlayers, r.Region)
	}
	r, err := lobby.FindRoom(page.Servers, "rig room")
	fmt.Println("found:", r.Name, err)
	// Output:
	// Rig Room: tanks on arena, 3/8 players, eu
	// Quiet Corner: tanks on arena, 0/4 players, us
	// found: Rig Room <nil>
}
