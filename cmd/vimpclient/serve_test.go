package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestRunServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runServe(ctx, []string{"-addr", "127.0.0.1:0", "-bots", "2", "-bot-skill", "hard"}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[2], "http://127.0.0.1:") || !strings.Contains(line, "bots 2, hard") {
		t.Fatalf("unexpected banner %q", line)
	}
	resp, err := http.Get(f[2] + "/config")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	err = json.NewDecoder(resp.Body).Decode(&cfg)
	resp.Body.Close()
	if err != nil || cfg["mode"] != "dedicated" {
		t.Fatalf("/config: %v %v", cfg, err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

func TestRunServeBadFlags(t *testing.T) {
	if code := runServe(context.Background(), []string{"-bots", "-3"}, io.Discard, io.Discard); code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	if code := runServe(context.Background(), []string{"-addr", "127.0.0.1:bad"}, io.Discard, io.Discard); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	var skill strings.Builder
	if code := runServe(context.Background(), []string{"-bot-skill", "insane"}, io.Discard, &skill); code != 2 ||
		!strings.Contains(skill.String(), `no bot skill "insane" (the skills: easy, normal, hard)`) {
		t.Fatalf("-bot-skill insane: exit %d %q", code, skill.String())
	}
	var dialect strings.Builder
	if code := runServe(context.Background(), []string{"-game", "snakes", "-dialect", "0.13"}, io.Discard, &dialect); code != 2 ||
		!strings.Contains(dialect.String(), `Snakes speaks no version "0.13" (it speaks 0.15, 0.6)`) {
		t.Fatalf("-game snakes -dialect 0.13: exit %d %q", code, dialect.String())
	}
	var errb strings.Builder
	if code := runServe(context.Background(), []string{"-addr", "127.0.0.1:0", "-data", t.TempDir()}, io.Discard, &errb); code != 1 || !strings.Contains(errb.String(), "config-data.json") {
		t.Fatalf("-data of an empty directory: exit %d %q", code, errb.String())
	}
}
