package agent

import (
	"context"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

const (
	titleTimeout   = 60 * time.Second
	titleMaxTokens = 64
	titleMaxRunes  = 60
	titlePrompt    = "Write a title of at most five words for the conversation that starts with the message below. Answer with the title alone: no quotes, no punctuation at the end.\n\n<message>\n%s\n</message>"
)

// maybeRefineTitle starts one cheap request for a better title after the
// session's first completed turn. Failures are ignored: the title from the
// first prompt stays.
func (a *Agent) maybeRefineTitle(ctx context.Context, firstPrompt string) {
	a.mu.Lock()
	if !a.cfg.RefineTitle || a.titled {
		a.mu.Unlock()
		return
	}
	a.titled = true
	a.mu.Unlock()
	model, _ := a.Model()
	if len(firstPrompt) > 4096 {
		firstPrompt = strings.ToValidUTF8(firstPrompt[:4096], "")
	}
	req := llm.Request{
		Model: model, Effort: llm.EffortOff, MaxTokens: titleMaxTokens, Purpose: llm.PurposeTitle,
		SessionID: a.SessionID(),
		Messages:  []llm.Message{{Role: llm.RoleUser, Content: strings.Replace(titlePrompt, "%s", firstPrompt, 1)}},
	}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		ctx, cancel := context.WithTimeout(ctx, titleTimeout)
		defer cancel()
		answer, err := a.Aside(ctx, req)
		if err != nil {
			return
		}
		if t := cleanTitle(answer.Content); t != "" {
			a.recordTitle(session.Title{Title: t, Source: session.TitleModel})
		}
	}()
}

// Rename names the session, as Claude Code's /rename does: /resume lists
// it by the name, tack --resume finds it by its words, and status lines
// read it as session_name. Titles tack makes later do not replace it.
func (a *Agent) Rename(name string) error {
	a.mu.Lock()
	a.titled = true
	a.mu.Unlock()
	_, err := a.record(session.Title{Title: name, Source: session.TitleUser})
	return err
}

// recordTitle records a title tack made unless the user has named the
// session meanwhile: the check and the record are one step, so a title
// asked for before a /rename never lands after it.
func (a *Agent) recordTitle(t session.Title) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if a.proj.UserNamed() {
		return
	}
	_, _ = a.recordLocked(t)
}

// cleanTitle keeps the first line, without quotes or trailing punctuation.
func cleanTitle(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, "\"'`*# ")
	s = strings.TrimRight(s, ".!?:;,")
	if r := []rune(s); len(r) > titleMaxRunes {
		s = string(r[:titleMaxRunes])
	}
	return strings.TrimSpace(s)
}
