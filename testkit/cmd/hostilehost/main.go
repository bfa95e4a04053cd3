// Command hostilehost serves one hostile scenario on a port, for measuring
// the built client from outside (peak memory, exit time):
//
//	hostilehost -addr 127.0.0.1:3902 -scenario entities &
//	/usr/bin/time -v vimpclient -headless -for 12s -summary http://127.0.0.1:3902
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"

	"vimpclient/testkit/hostile"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:3902", "address to listen on")
	names := make([]string, len(hostile.Scenarios))
	for i, s := range hostile.Scenarios {
		names[i] = string(s)
	}
	scenario := flag.String("scenario", "entities", "one of "+strings.Join(names, ", "))
	flag.Parse()
	h, err := hostile.New(hostile.Scenario(*scenario))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := http.ListenAndServe(*addr, h); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
