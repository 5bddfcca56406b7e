package agent_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/sessiontest"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// longStory is the story of a long session: turns of sessiontest.Turn,
// with the first half compacted into a summary partway.
func longStory(messages int) []session.Data {
	turns := messages / sessiontest.MessagesPerTurn
	var data []session.Data
	for n := 1; n <= turns; n++ {
		data = append(data, sessiontest.Turn(n, "/w", "deepseek-v4-flash", n == turns)...)
		if n == turns/2 {
			data = append(data, session.UserMessage{Turn: n, Kind: session.KindSummary, Text: "summary of the first half",
				Replace: &session.Span{Start: 0, End: int64(len(data) - 1)}})
		}
	}
	return data
}

// TestLongResumedSessionSendsTheIdenticalRequest: the first process logs
// a long session through its agent and sends the next prompt;
// a second process resumes the log — through an index that covers it, one
// left behind by a crash, a corrupt one or none — and sends the same
// prompt. Its request is the first one, that request's answer and the
// prompt. TACK_HUGE_SESSIONS=1 adds a session of 100,000 messages.
func TestLongResumedSessionSendsTheIdenticalRequest(t *testing.T) {
	sizes := []int{longMessages}
	if os.Getenv("TACK_HUGE_SESSIONS") == "1" {
		sizes = append(sizes, 100_000)
	}
	for _, messages := range sizes {
		t.Run(fmt.Sprintf("messages=%d", messages), func(t *testing.T) { resumedRequestIsIdentical(t, messages) })
	}
}

func resumedRequestIsIdentical(t *testing.T, messages int) {
	srv := llmtest.New(t)
	for range 5 {
		srv.Push(llmtest.ReplyText("Next answer."))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	log, err := session.Create(path, session.Header{Version: 1, ID: "long", Created: time.Unix(0, 0).UTC(), Cwd: dir, Model: "deepseek-v4-flash"})
	if err != nil {
		t.Fatal(err)
	}
	// A first process logs three quarters of the story and closes, which
	// writes the index; the process that resumes it logs the rest.
	story := longStory(messages)
	first := startOn(t, log, srv)
	record(t, first, story[:len(story)*3/4])
	first.Close()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	midIndex := testkit.ReadFile(t, path+".index")
	if log, err = session.Open(path); err != nil {
		t.Fatal(err)
	}
	first = startOn(t, log, srv)
	record(t, first, story[len(story)*3/4:])
	want := sendAndWait(t, first, srv)
	first.Close()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	if len(want) < messages/2 {
		t.Fatalf("want a long request, got %d messages", len(want))
	}
	wantLog := testkit.ReadFile(t, path)

	for name, index := range map[string][]byte{
		"current index": testkit.ReadFile(t, path+".index"),
		"stale index":   midIndex,
		"corrupt index": append([]byte("x"), testkit.ReadFile(t, path+".index")...),
		"no index":      nil,
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.jsonl")
			writeFile(t, p, wantLog)
			if index != nil {
				writeFile(t, p+".index", index)
			}
			log, err := session.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			second := startOn(t, log, srv)
			defer second.Close()
			// The resumed request holds the first one, its answer and the
			// prompt again.
			got := sendAndWait(t, second, srv)
			if len(got) != len(want)+2 || !reflect.DeepEqual(strip(got[:len(want)]), strip(want)) {
				t.Fatalf("want the resumed request to start with the first process's %d messages, got %d messages", len(want), len(got))
			}
			if a := got[len(want)]; a.Role != "assistant" || a.Content != "Next answer." {
				t.Fatalf("want the first process's answer next, got %+v", a)
			}
		})
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("violations: %v", v)
	}
}

func record(t *testing.T, a *agent.Agent, data []session.Data) {
	t.Helper()
	for _, d := range data {
		if _, err := a.Record(d); err != nil {
			t.Fatal(err)
		}
	}
}

func startOn(t *testing.T, log *session.Log, srv *llmtest.Server) *agent.Agent {
	t.Helper()
	return agent.New(agent.Config{
		Log: log, Provider: llm.NewClient(llm.ClientConfig{BaseURL: srv.URL(), APIKey: "test"}),
		System: "You are a test.", Tools: tools.NewRegistry(), Cwd: t.TempDir(), SpillDir: t.TempDir(),
	})
}

// sendAndWait sends the next prompt and returns the messages of the
// request it made.
func sendAndWait(t *testing.T, a *agent.Agent, srv *llmtest.Server) []llmtest.Message {
	t.Helper()
	before := len(srv.Requests())
	a.Send("and the next one?")
	f := &fixture{t: t, agent: a}
	f.waitIdle()
	reqs := srv.Requests()
	if len(reqs) != before+1 {
		t.Fatalf("want one request, got %d", len(reqs)-before)
	}
	return reqs[len(reqs)-1].Messages
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
