package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// brokenLog is a session log whose writes fail from the first event of type
// failFrom on, as on a full disk.
type brokenLog struct {
	*session.Log
	failFrom string
	mu       sync.Mutex
	broken   bool
}

var errDiskFull = errors.New("write s.jsonl: no space left on device")

func (l *brokenLog) Append(now time.Time, d session.Data) (session.Event, error) {
	l.mu.Lock()
	if d.EventType() == l.failFrom {
		l.broken = true
	}
	broken := l.broken
	l.mu.Unlock()
	if broken {
		return session.Event{}, errDiskFull
	}
	return l.Log.Append(now, d)
}

func (l *brokenLog) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken {
		return errDiskFull
	}
	return l.Log.Sync()
}

// runOnBrokenLog sends one prompt to an agent whose log breaks at failFrom
// and returns every event it published until the turn ended.
func runOnBrokenLog(t *testing.T, failFrom string, script []llmtest.Response, ts ...tools.Tool) (*llmtest.Server, []session.Event) {
	t.Helper()
	f := newFixture(t, script)
	f.agent.Close()
	a := agent.New(agent.Config{
		Log: &brokenLog{Log: f.log, failFrom: failFrom}, Provider: llm.NewClient(llm.ClientConfig{BaseURL: f.srv.URL(), APIKey: "test"}),
		System: "You are a test.", Tools: tools.NewRegistry(ts...), Retry: llm.DefaultRetryPolicy(nil),
		Cwd: t.TempDir(), SpillDir: t.TempDir(), Sleep: func(context.Context, time.Duration) error { return nil },
	})
	f.agent = a
	_, sub := a.Subscribe()
	defer sub.Close()
	a.Send("go")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var seen []session.Event
	for {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatalf("the turn never ended after the log broke at %s; saw %v", failFrom, types(seen))
		}
		for _, e := range evs {
			if l, ok := e.(agent.Logged); ok {
				seen = append(seen, l.Event)
				if _, end := l.Data.(session.TurnEnd); end {
					return f.srv, seen
				}
			}
		}
	}
}

func TestLogWriteFailureEndsTheTurnWithAnErrorSayingHowToResume(t *testing.T) {
	srv, seen := runOnBrokenLog(t, "tool/result", []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "echo", `{}`, 1), llmtest.Finish("tool_calls")),
	}, echoTool())
	end := seen[len(seen)-1].Data.(session.TurnEnd)
	if end.Reason != session.StopError || end.Error == nil || end.Error.Kind != "session-log" || end.Turn != 1 {
		t.Fatalf("want turn 1 ended with a session-log error, got %+v", end)
	}
	for _, want := range []string{"no space left on device", "tack --resume test-session"} {
		if !strings.Contains(end.Error.Message, want) {
			t.Errorf("want the error to contain %q, got %q", want, end.Error.Message)
		}
	}
	if got := countType(seen, "tool/result"); got != 1 {
		t.Errorf("want the tool result still published once, got %d", got)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Seq != seen[i-1].Seq+1 {
			t.Fatalf("want contiguous seqs in memory, got %d after %d", seen[i].Seq, seen[i-1].Seq)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("want no model request after the log broke, got %d requests", n)
	}
}

func TestToolDoesNotRunWhenItsCallCannotBeLogged(t *testing.T) {
	ran := false
	tool := testTool{name: "rm", fn: func(context.Context, json.RawMessage) tools.Result {
		ran = true
		return tools.Result{Text: "removed"}
	}}
	_, seen := runOnBrokenLog(t, "tool/call", []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "rm", `{}`, 1), llmtest.Finish("tool_calls")),
	}, tool)
	if ran {
		t.Fatal("want the tool not run once its call could not be made durable")
	}
	var result session.ToolResult
	for _, e := range seen {
		if r, ok := e.Data.(session.ToolResult); ok {
			result = r
		}
	}
	if !result.IsError || !strings.Contains(result.Text, "rm was not run") {
		t.Fatalf("want an error result saying the tool was not run, got %+v", result)
	}
	if end := seen[len(seen)-1].Data.(session.TurnEnd); end.Error == nil || end.Error.Kind != "session-log" {
		t.Fatalf("want the turn ended by the log failure, got %+v", end)
	}
}
