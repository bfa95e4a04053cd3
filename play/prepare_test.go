package play

import (
	"strings"
	"testing"
)

// -bot-skill names one of the embedded host's presets; another is a clear
// error before anything starts.
func TestPrepareBotSkill(t *testing.T) {
	if err := (&Config{BotSkill: "hard"}).Prepare(""); err != nil {
		t.Fatalf("hard: %v", err)
	}
	err := (&Config{BotSkill: "insane"}).Prepare("")
	if err == nil || !strings.Contains(err.Error(), "-bot-skill") || !strings.Contains(err.Error(), "easy, normal, hard") {
		t.Fatalf("insane: %v", err)
	}
}
