package help

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/complete"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func commands() []complete.Command {
	return []complete.Command{
		{Name: "compact", Description: "Summarize older history to free context"},
		{Name: "details", Hint: "[collapsed|expanded|hidden] [reasoning [on|off]]", Description: "Tool card and reasoning visibility"},
		{Name: "model", Hint: "[[provider/]model]", Description: "Pick the model; applies from the next step"},
		{Name: "resume", Hint: "[id]", Description: "Resume a session"},
	}
}

func TestGoldenScreens(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {50, 14}} {
		h := New(DefaultKeys(), commands(), th)
		golden.View(t, fmt.Sprintf("help_%dx%d", size[0], size[1]), h.View(size[0], size[1]), size[0], size[1])
	}
}

func TestScrollsToTheCommands(t *testing.T) {
	h := New(DefaultKeys(), commands(), th)
	if v := ansi.Strip(h.View(60, 12)); strings.Contains(v, "/resume") {
		t.Fatalf("want the commands below the first page, got\n%s", v)
	}
	for range 5 {
		h.Update(keys.Key("pgdown"))
	}
	if v := ansi.Strip(h.View(60, 12)); !strings.Contains(v, "/resume [id] — Resume a session") {
		t.Errorf("want the commands after paging down, got\n%s", v)
	}
	if got := h.Update(keys.Key("esc")); !got.Closed {
		t.Errorf("want Esc to close, got %+v", got)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	h := New(DefaultKeys(), commands(), th)
	for _, size := range overlaytest.Sizes() {
		golden.Fits(t, h.View(size[0], size[1]), size[0], size[1])
	}
}
