package snapshots

import (
	"testing"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/theme"
)

// TestLightBackgroundAnswerWithCode draws an answer with Markdown and Go
// code, a failed command and the status row on a light background; the
// golden's style dump shows no yellow, cyan or white text, which vanish on
// white.
func TestLightBackgroundAnswerWithCode(t *testing.T) {
	for _, size := range []struct{ w, h int }{{100, 30}, {60, 20}} {
		f := NewFake(header())
		tt := start(t, f, size.w, size.h, func(o *app.Options) { o.Background = theme.Light })
		var l log
		f.Push(events(running(), turnOpening(&l, 1, "Write a hello world in Go"),
			bashCall(&l, 1, 1, "c0", "go vet ./...", "vet: bad", 1), l.live(
				session.AssistantMessage{Turn: 1, Step: 2, Text: "## Done\n\nHere is `main.go`, see [the docs](https://go.dev):\n\n```go\n// main greets\nfunc main() {\n\tfmt.Println(\"hello\", 42)\n}\n```", Finish: "stop"},
				session.TurnEnd{Turn: 1, Reason: session.StopCompleted}), []agent.Event{agent.StatusChanged{Status: agent.StatusIdle}})...)
		tt.WaitText(t, "fmt.Println", "Describe a task") // the answer, and the editor idle again
		tt.Golden(t, "light_answer_"+sizeName(size.w, size.h))
	}
}
