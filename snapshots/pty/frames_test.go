package pty

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestATypedKeyIsDrawnWithoutWaitingForTheNextFrame runs tack at a frame
// rate (TACK_FPS) whose paced frames are much further apart than any wait
// here: each key, and the draft leaving the editor on Enter, can only be
// on the screen within the wait because input is drawn as it arrives, not
// on the next frame.
func TestATypedKeyIsDrawnWithoutWaitingForTheNextFrame(t *testing.T) {
	const fps = 0.001
	if interval := time.Duration(float64(time.Second) / fps); interval < 10*stepLimit {
		t.Fatalf("the paced frames (%v apart) must be far further apart than a wait (%v)", interval, stepLimit)
	}
	r := start(t, setup{srv: llmtest.New(t), extraEnv: []string{"TACK_FPS=0.001"}})
	// The first frame is drawn at once; what the session tells the screen
	// after it waits for a frame, or for input.
	r.waitScreen("the first frame", []string{"> Describe a task"}, nil)
	want := ">"
	for _, k := range "tack" {
		r.Type(string(k))
		want += string(k)
		if want == ">t" {
			want = "> t"
		}
		r.waitScreen("the key "+string(k)+" in the editor", nil, func(s string) bool { return hasRow(s, want) })
	}
	r.Key(vt.KeyEnter)
	r.waitScreen("the draft sent by Enter", nil, func(s string) bool { return !hasRow(s, want) })
}
