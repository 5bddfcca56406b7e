package approval

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/snapshots/testkit/palette"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func bash() interact.Approval {
	cmd := "git status -s && go test ./..."
	return interact.Approval{
		CallID: "c1", Tool: "bash", Summary: cmd, Details: cmd, Remember: "git status, go test",
		Card: &card.Card{Kind: card.Terminal, Description: "Check the tree and run the tests",
			Terminal: &card.TerminalView{Command: cmd, Cwd: "/work/proj"}},
	}
}

func edit() interact.Approval {
	var lines []card.DiffLine
	for i := 1; i <= 24; i++ {
		op := card.OpContext
		switch i % 4 {
		case 1:
			op = card.OpDelete
		case 2:
			op = card.OpAdd
		}
		lines = append(lines, card.DiffLine{Op: op, Text: fmt.Sprintf("line %d of main.go", i)})
	}
	return interact.Approval{
		CallID: "c2", Tool: "edit", Summary: "Edit main.go", Remember: "edit",
		Card: &card.Card{Kind: card.Diff, Title: "Edit main.go",
			Diffs: []card.FileDiff{{Path: "main.go", Added: 6, Removed: 6, Lines: lines}}},
	}
}

// outside is a command that asks to leave the sandbox, with the model's
// reason after what it wants: both must be readable in a narrow window.
func outside() interact.Approval {
	a := bash()
	a.Why = "Wants to run outside the sandbox (it can change or read anything you can): " +
		"go test needs to write the module cache in ~/go/pkg/mod, which the sandbox keeps read-only"
	return a
}

func TestGoldenScreens(t *testing.T) {
	tests := []struct {
		name  string
		a     interact.Approval
		keys  []string
		typed string
	}{
		{"bash", bash(), nil, ""},
		{"edit", edit(), []string{"down", "down"}, ""},
		{"deny_reason", bash(), []string{"n"}, "use make test"},
		{"outside_with_reason", outside(), nil, ""},
	}
	for _, tt := range tests {
		for _, size := range [][2]int{{100, 30}, {50, 14}} {
			d := New(tt.a, th, overlaytest.Epoch())
			d.View(size[0], size[1])
			keys.Press(overlaytest.AfterGuard(d.Update), tt.keys...)
			for _, k := range keys.Type(tt.typed) {
				d.Update(k, overlaytest.Later())
			}
			name := fmt.Sprintf("%s_%dx%d", tt.name, size[0], size[1])
			golden.View(t, name, d.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestDecisions(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		typed string
		final []string
		want  interact.Decision
	}{
		{"y allows once", nil, "", []string{"y"}, interact.Decision{Verdict: interact.Allow}},
		{"enter confirms the first choice", nil, "", []string{"enter"}, interact.Decision{Verdict: interact.Allow}},
		{"a allows for the session", nil, "", []string{"a"}, interact.Decision{Verdict: interact.AllowSession}},
		{"tab then enter allows for the session", []string{"tab"}, "", []string{"enter"}, interact.Decision{Verdict: interact.AllowSession}},
		{"n then enter denies without a reason", []string{"n"}, "", []string{"enter"}, interact.Decision{Verdict: interact.Deny}},
		{"n, a reason and enter deny with it", []string{"n"}, "  try make test ", []string{"enter"},
			interact.Decision{Verdict: interact.Deny, Reason: "try make test"}},
		{"esc denies", nil, "", []string{"esc"}, interact.Decision{Verdict: interact.Deny}},
		{"ctrl+c denies while typing a reason", []string{"n"}, "x", []string{"ctrl+c"}, interact.Decision{Verdict: interact.Deny}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(bash(), th, overlaytest.Epoch())
			if got := keys.Press(overlaytest.AfterGuard(d.Update), tt.keys...); got.Decided {
				t.Fatalf("want no decision before the final key, got %+v", got)
			}
			for _, k := range keys.Type(tt.typed) {
				d.Update(k, overlaytest.Later())
			}
			got := keys.Press(overlaytest.AfterGuard(d.Update), tt.final...)
			if !got.Decided || got.Decision != tt.want {
				t.Errorf("want decided %+v, got %+v", tt.want, got)
			}
		})
	}
}

func TestAllowForSessionShowsWhatItRemembers(t *testing.T) {
	d := New(bash(), th, overlaytest.Epoch())
	if v := ansi.Strip(d.View(100, 30)); !strings.Contains(v, "Allow for this session (git status, go test)") {
		t.Errorf("want the remembered prefix in the choice, got\n%s", v)
	}
	a := bash()
	a.Remember = ""
	d = New(a, th, overlaytest.Epoch())
	if v := ansi.Strip(d.View(100, 30)); strings.Contains(v, "this session") {
		t.Errorf("want no session choice without a Remember text, got\n%s", v)
	}
	if got := keys.Press(overlaytest.AfterGuard(d.Update), "a"); got.Decided {
		t.Errorf("want a ignored without a Remember text, got %+v", got)
	}
}

func TestEscInReasonReturnsToChoices(t *testing.T) {
	d := New(bash(), th, overlaytest.Epoch())
	keys.Press(overlaytest.AfterGuard(d.Update), "n", "esc")
	if got := keys.Press(overlaytest.AfterGuard(d.Update), "y"); !got.Decided || got.Decision.Verdict != interact.Allow {
		t.Errorf("want y to allow after leaving the reason, got %+v", got)
	}
}

func TestKeysWithinGuardAreIgnored(t *testing.T) {
	d := New(bash(), th, overlaytest.Epoch())
	if got := d.Update(keys.Key("y"), overlaytest.Epoch().Add(Guard-time.Millisecond)); got.Decided {
		t.Fatalf("want y within the guard ignored, got %+v", got)
	}
	// The ignored key started the wait again: a key one guard later decides.
	if got := d.Update(keys.Key("y"), overlaytest.Epoch().Add(2*Guard-2*time.Millisecond)); got.Decided {
		t.Fatalf("want y within the guard of the ignored key ignored too, got %+v", got)
	}
	if got := d.Update(keys.Key("y"), overlaytest.Epoch().Add(3*Guard-2*time.Millisecond)); !got.Decided {
		t.Errorf("want y a guard after the last ignored key to decide, got %+v", got)
	}
}

func TestDiffScrolls(t *testing.T) {
	d := New(edit(), th, overlaytest.Epoch())
	first := ansi.Strip(d.View(60, 14))
	if !strings.Contains(first, "↓ ") {
		t.Fatalf("want a ↓ N more row for a long diff, got\n%s", first)
	}
	keys.Press(overlaytest.AfterGuard(d.Update), "pgdown")
	if v := ansi.Strip(d.View(60, 14)); !strings.Contains(v, "↑ ") || v == first {
		t.Errorf("want PgDn to scroll the diff, got\n%s", v)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	for _, a := range []interact.Approval{bash(), edit()} {
		d := New(a, th, overlaytest.Epoch())
		keys.Press(overlaytest.AfterGuard(d.Update), "n")
		for _, size := range overlaytest.Sizes() {
			golden.Fits(t, d.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestBlankRowBeforeTheChoicesOnlyWhenTheBodyFits(t *testing.T) {
	tests := []struct {
		name      string
		a         interact.Approval
		height    int
		wantBlank bool
	}{
		{"short command, roomy", bash(), 30, true},
		{"long diff, scrolling", edit(), 14, false},
	}
	for _, tt := range tests {
		rows := strings.Split(ansi.Strip(New(tt.a, th, overlaytest.Epoch()).View(60, tt.height)), "\n")
		blank := false
		for i, r := range rows {
			if (strings.Contains(r, "Allow once")) && i > 0 {
				blank = strings.TrimSpace(strings.Trim(rows[i-1], "│")) == ""
			}
		}
		if blank != tt.wantBlank {
			t.Errorf("%s: want a blank row above the choices %v, got %v in\n%s", tt.name, tt.wantBlank, blank, strings.Join(rows, "\n"))
		}
	}
}

func TestChoicesTakeOneRowWhenRowsAreScarce(t *testing.T) {
	v := ansi.Strip(New(bash(), th, overlaytest.Epoch()).View(40, 8))
	if !strings.Contains(v, "Once    Session    Deny") || !strings.Contains(v, "$ git status") {
		t.Fatalf("want the choices on one row and the command in view at 40×8, got\n%s", v)
	}
}

func TestChoicesShortenToStayOnOneRow(t *testing.T) {
	tests := []struct {
		name  string
		a     interact.Approval
		width int
		want  []string // the rows holding the choices
	}{
		{"roomy", edit(), 100, []string{"Allow once    Allow for this session (edit)    Deny"}},
		{"cramped, short labels fit", edit(), 50, []string{"Allow once    This session (edit)    Deny"}},
		{"cramped, too long even short", bash(), 50, []string{"Allow once", "Allow for this session (git status, go test)", "Deny"}},
	}
	for _, tt := range tests {
		v := ansi.Strip(New(tt.a, th, overlaytest.Epoch()).View(tt.width, 14))
		for _, w := range tt.want {
			if !strings.Contains(v, "│  "+w+" ") {
				t.Errorf("%s: want a row %q, got\n%s", tt.name, w, v)
			}
		}
	}
}

func TestTheDialogSaysWhatTheCallWantsBeyondTheSandbox(t *testing.T) {
	a := bash()
	a.Why = "Wants network access from the sandbox: to download modules"
	if v := ansi.Strip(New(a, th, overlaytest.Epoch()).View(100, 30)); !strings.Contains(v, a.Why) {
		t.Errorf("want the reason shown above the command, got\n%s", v)
	}
}

// The hint names only keys that do something: no "a" without a session
// choice, no scrolling when the body fits.
func TestHintNamesOnlyKeysThatApply(t *testing.T) {
	once := bash()
	once.Remember = ""
	tests := []struct {
		name          string
		a             interact.Approval
		width, height int
		want, notWant string
	}{
		{"no session choice, narrow", once, 30, 12, "y n Tab ↵ Esc", " a "},
		{"no session choice, roomy", once, 100, 30, "y allow • n deny • Tab choose", "a session"},
		{"body fits", edit(), 100, 30, "Enter confirm • Esc deny", "scroll"},
		{"body scrolls", edit(), 100, 14, "PgUp/PgDn scroll", ""},
	}
	for _, tt := range tests {
		v := ansi.Strip(New(tt.a, th, overlaytest.Epoch()).View(tt.width, tt.height))
		hint := ""
		for _, r := range strings.Split(v, "\n") {
			if strings.Contains(r, "y allow") || strings.Contains(r, "│ y ") {
				hint = r
			}
		}
		if !strings.Contains(hint, tt.want) || (tt.notWant != "" && strings.Contains(hint, tt.notWant)) {
			t.Errorf("%s: want a hint with %q and without %q, got %q in\n%s", tt.name, tt.want, tt.notWant, hint, v)
		}
	}
}

// What a call asks beyond the sandbox is a warning; that it stays inside
// is a fact, faint.
func TestWhyIsAWarningOnlyWhenTheCallLeavesTheSandbox(t *testing.T) {
	for _, c := range []struct {
		why      string
		confined bool
		want     string
	}{{"Wants network access from the sandbox", false, "‹33›"}, {"Runs in the sandbox.", true, "‹2›"}} {
		a := bash()
		a.Why, a.Confined = c.why, c.confined
		lines := strings.Split(New(a, th, overlaytest.Epoch()).View(100, 30), "\n")
		found := false
		for _, l := range lines {
			if strings.Contains(ansi.Strip(l), c.why) {
				found = true
				if got := palette.StyleDump(l); !strings.Contains(got, c.want+c.why) {
					t.Errorf("%q: want it %s, got %s", c.why, c.want, got)
				}
			}
		}
		if !found {
			t.Errorf("want %q in the dialog", c.why)
		}
	}
}
