package launch

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// TestHandEditedLogsResumeIntoRequestsServersAccept edits a finished
// session's log by hand, as users do (a tool result deleted, a call line
// repeated, an answer deleted), numbering the events again as tack asks
// of a hand edit, resumes it and sends the next prompt: the fake server's
// validation, which knows nothing of tack's repair, must accept the
// request (every call answered under its own id, no orphan result).
func TestHandEditedLogsResumeIntoRequestsServersAccept(t *testing.T) {
	edits := map[string]func(lines []string) []string{
		"a result deleted": func(lines []string) []string {
			return dropLines(lines, func(l string) bool { return strings.Contains(l, `"tool/result"`) && strings.Contains(l, "call_1") })
		},
		"a call's message repeated": func(lines []string) []string {
			for i, l := range lines {
				if strings.Contains(l, `"assistant/message"`) && strings.Contains(l, "call_1") {
					return append(lines[:i+1], lines[i:]...)
				}
			}
			return lines
		},
		"an answer deleted, its results left": func(lines []string) []string {
			return dropLines(lines, func(l string) bool {
				return strings.Contains(l, `"assistant/message"`) && strings.Contains(l, "call_1")
			})
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t,
				llmtest.Reply(llmtest.Reasoning("Look.", 0), llmtest.ToolCall("call_1", "glob", `{"pattern":"*.go"}`, 2), llmtest.ToolCall("call_2", "glob", `{"pattern":"*.md"}`, 2)),
				llmtest.ReplyText("Nothing there."),
				llmtest.ReplyText("Still nothing."),
			)
			home, cwd := t.TempDir(), t.TempDir()
			s := openForTestAt(t, home, cwd, "", srv.URL())
			runTurn(t, s, "find files")
			id, path := s.Agent.SessionID(), s.Log.Path()
			s.Close()
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := renumber(edit(strings.SplitAfter(string(raw), "\n")))
			if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
				t.Fatal(err)
			}
			resumed := openForTestAt(t, home, cwd, id, srv.URL())
			defer resumed.Close()
			runTurn(t, resumed, "look again")
			srv.AssertConsumed(t)
			var last session.TurnEnd
			for _, e := range resumed.Agent.Events() {
				if end, ok := e.Data.(session.TurnEnd); ok {
					last = end
				}
			}
			if last.Reason != session.StopCompleted {
				t.Fatalf("want the resumed turn completed, got %+v", last)
			}
		})
	}
}

func dropLines(lines []string, drop func(string) bool) []string {
	var out []string
	for _, l := range lines {
		if !drop(l) {
			out = append(out, l)
		}
	}
	return out
}

func openForTestAt(t *testing.T, home, cwd, resume, baseURL string) *Session {
	t.Helper()
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": baseURL}
	s, err := Open(Options{
		Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] },
		Now:            func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		PermissionMode: "full-access", Resume: resume,
	})
	if err != nil {
		t.Fatalf("open session: %v", err)
	}
	return s
}

var seqField = regexp.MustCompile(`"seq":\d+`)

// renumber gives the events consecutive seq numbers from the first one's,
// as the log requires of a hand edit.
func renumber(lines []string) []string {
	next := -1
	for i, l := range lines {
		m := seqField.FindString(l)
		if m == "" {
			continue
		}
		if next < 0 {
			next, _ = strconv.Atoi(strings.TrimPrefix(m, `"seq":`))
		}
		lines[i] = strings.Replace(l, m, `"seq":`+strconv.Itoa(next), 1)
		next++
	}
	return lines
}
