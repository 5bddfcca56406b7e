package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
)

func TestNoticesReachLaterSubscribersAndStayOutOfTheLog(t *testing.T) {
	f := newFixture(t, nil)
	f.agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: "bad .mcp.json"})
	_, sub := f.agent.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got []agent.Notice
	for len(got) < 2 {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatalf("notices seen: %+v", got)
		}
		for _, e := range evs {
			if n, ok := e.(agent.Notice); ok {
				got = append(got, n)
			}
		}
		if len(got) == 1 {
			f.agent.Notify(agent.Notice{Tone: agent.NoticeError, Text: "server failed"})
		}
	}
	if got[0].Text != "bad .mcp.json" || got[1].Tone != agent.NoticeError {
		t.Errorf("notices = %+v", got)
	}
	if n := len(f.log.Events()); n != 0 {
		t.Errorf("notices were logged: %d events", n)
	}
}
