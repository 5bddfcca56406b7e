package pty

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// TestModelPickerHidesTheTranscriptBehindIt fills the real screen with an
// answer, opens /model over it and reads what the terminal shows: no
// transcript text inside, beside, above or below the picker's frame.
func TestModelPickerHidesTheTranscriptBehindIt(t *testing.T) {
	var answer strings.Builder
	for range 30 {
		answer.WriteString(strings.Repeat("behind ", 14) + "\n\n")
	}
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text(answer.String(), 0)))
	r := start(t, setup{srv: srv})
	r.waitIdle()
	r.script(step{do: both(typed("Fill the screen"), key(vt.KeyEnter))})
	r.waitScreen("answer", []string{"behind behind"}, idleScreen)
	r.script(step{do: both(typed("/model"), key(vt.KeyEnter))})
	screen := r.waitText("model picker", "Select model", "╰")
	if err := testkit.FrameClear(screen); err != nil {
		t.Fatal(err)
	}
}
