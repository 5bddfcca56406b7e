package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// A job asked for once a turn's end is logged (an Agent SDK's request
// right after the result line it read) waits for what the turn still
// does after (here a slow stop_failure hook) rather than being refused
// as if the turn were running.
func TestAJobAskedOnceTheTurnEndedWaitsInsteadOfBeingRefused(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.HTTPError(401, "Authentication Fails, Your api key is invalid")})
	f.agent.Close()
	release := filepath.Join(t.TempDir(), "release")
	hs, problems := hooks.FromConfig(config.Hooks{"StopFailure": {{Hooks: []config.HookHandler{{Type: "command",
		Command: "while [ ! -e " + release + " ]; do sleep 0.02; done"}}}}}, "settings.json", false)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	f.agent = f.startTinyWith(hooks.NewRunner(hooks.Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ()}))
	_, sub := f.agent.Subscribe()
	defer sub.Close()
	f.agent.Send("hello")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ended := false; !ended; {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatalf("the turn did not end: %v", err)
		}
		for _, e := range evs {
			if l, ok := e.(agent.Logged); ok {
				_, ended = l.Event.Data.(session.TurnEnd)
			}
		}
	}
	done := make(chan error, 1)
	go func() { _, err := f.agent.Compact(ctx); done <- err }()
	time.Sleep(50 * time.Millisecond) // the refusal, where there is one, is at once
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil && strings.Contains(err.Error(), "needs an idle agent") {
		t.Errorf("the job was refused: %v", err)
	}
}
