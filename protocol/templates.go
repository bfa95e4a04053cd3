package protocol

// The engine's texts with {N} placeholders: TECH_INFORM_DATA's list, chat
// templates, vote titles, game informs. One filler serves them all.

// DefaultTechInform returns the engine's TECH_INFORM texts by code: what a
// client shows before CONFIG_DATA's techInformList arrives (a full server
// answers before it).
func DefaultTechInform() []string { return append([]string(nil), defaultTechInform[:]...) }

var defaultTechInform = [...]string{
	"Server is full! Please wait or try again later.\nMax players: {0}\nYou are #{1} in the queue.",
	"Connection closed due to a new login from another device!",
	"Loading...",
	"Kicked for inactivity.",
	"Connection terminated due to high network latency.",
	"Connection terminated due to missed network pings.",
	"Room is full! Max players: {0}. Try again later.",
}

// FillTemplate replaces each {N} of t with params[N]; a placeholder with no
// parameter stays as written. The text stops growing once it is past
// maxBytes (a template of many placeholders and long parameters would
// otherwise multiply them), so a caller that shows it cuts it to its own
// length in runes.
func FillTemplate(t string, params []string, maxBytes int) string {
	maxBytes = max(maxBytes, 1)
	if len(params) == 0 && len(t) <= maxBytes {
		return t
	}
	out := make([]byte, 0, min(len(t), maxBytes))
	for i := 0; i < len(t) && len(out) <= maxBytes; i++ {
		if t[i] == '{' {
			j := i + 1
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(t) && t[j] == '}' {
				n := 0
				for _, c := range t[i+1 : j] {
					n = n*10 + int(c-'0')
					if n > 1<<16 {
						break
					}
				}
				if n < len(params) {
					p := params[n]
					out = append(out, p[:min(len(p), maxBytes+1)]...)
					i = j
					continue
				}
			}
		}
		out = append(out, t[i])
	}
	return string(out)
}
