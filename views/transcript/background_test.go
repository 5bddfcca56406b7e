package transcript

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/views/theme"
)

// A background learnt after blocks were drawn repaints them: the code in
// the answer takes the light code colours (a Go keyword bold dark blue,
// SGR 34, instead of blue, 94) once visible again.
func TestABackgroundChangeRepaintsTheBlocksDrawn(t *testing.T) {
	tr := build(wide, turnEvents(1, "show me", answer))
	dark := strings.Join(all(tr), "\n")
	s := wide
	s.Background = theme.Light
	tr.SetSettings(s)
	light := strings.Join(all(tr), "\n")
	if dark == light {
		t.Fatal("want the transcript drawn again in the light palette")
	}
	if !strings.Contains(light, "34m") || !strings.Contains(dark, "94m") {
		t.Fatalf("want func in dark blue on light and in blue on dark, got\ndark:  %q\nlight: %q", dark, light)
	}
	if got := strings.Join(all(build(s, turnEvents(1, "show me", answer))), "\n"); got != light {
		t.Fatalf("want the repainted transcript to equal one drawn light from the start:\nrepainted: %q\nfresh:     %q", light, got)
	}
}
