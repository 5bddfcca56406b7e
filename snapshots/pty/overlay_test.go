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
	// The terminal is read as bytes arrive, so a screen taken mid-frame
	// shows the picker's new rows beside the old transcript's. Only a
	// screen that never clears is a failure.
	screen, _, err := r.WaitScreen(stepLimit, func(s string) bool {
		return containsAll(s, []string{"Select model", "╰"}) && testkit.FrameClear(s) == nil
	})
	if err != nil {
		t.Fatalf("model picker: %v within %v: %v", err, stepLimit, testkit.FrameClear(screen))
	}
}
