package question

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func single() interact.Question {
	return interact.Question{
		ID: "db", Header: "Database", Question: "Which database should the service use?",
		Options: []interact.Option{
			{Label: "PostgreSQL", Description: "Relational, already used by billing."},
			{Label: "SQLite", Description: "Embedded, no server to run.", Recommended: true},
			{Label: "Redis", Description: "In-memory key-value store."},
		},
		AllowCustom: true,
	}
}

func multi() interact.Question {
	return interact.Question{
		ID: "checks", Header: "CI", Question: "Which checks should run on every push?", MultiSelect: true,
		Options: []interact.Option{
			{Label: "go vet", Recommended: true},
			{Label: "staticcheck", Description: "Slower, catches more."},
			{Label: "race tests"},
		},
		AllowCustom: true,
	}
}

func long() interact.Question {
	q := single()
	q.Header = "Plan review"
	q.Question = "Approve this plan and leave plan mode?"
	var b strings.Builder
	b.WriteString("## Plan\n\n")
	for i := 1; i <= 30; i++ {
		b.WriteString(strconv.Itoa(i) + ". **Step " + string(rune('A'+i%26)) + "**: change one more thing in the code base carefully\n")
	}
	q.Detail = strings.TrimSuffix(b.String(), "\n")
	return q
}

// withPreviews is a question of Claude Code's kind: options with a
// preview of what each gives, shown for the chosen one.
func withPreviews() interact.Question {
	return interact.Question{
		ID: "layout", Header: "Layout", Question: "Which layout should the settings page use?",
		Options: []interact.Option{
			{Label: "Sidebar", Description: "Sections in a left column.", Preview: "┌──────┬──────────┐\n│ Menu │ Content  │\n└──────┴──────────┘"},
			{Label: "Tabs", Description: "Sections as tabs on top.", Preview: "[ General ][ Keys ][ Theme ]\n\tContent of the chosen tab, a line long enough to be cut at the narrow width"},
		},
		AllowCustom: true,
	}
}

func TestPlanUnderReviewShowsAsMarkdown(t *testing.T) {
	q := long()
	out := ansi.Strip(New([]interact.Question{q}, theme.New(true), time.Time{}).View(80, MaxHeight))
	for _, raw := range []string{"## Plan", "**Step"} {
		if strings.Contains(out, raw) {
			t.Fatalf("want the plan rendered, not %q raw, got\n%s", raw, out)
		}
	}
	if !strings.Contains(out, "Plan\n") || !strings.Contains(out, "1. Step B: change one more thing") {
		t.Fatalf("want the heading and the numbered steps, got\n%s", out)
	}
}

func TestGoldenScreens(t *testing.T) {
	tests := []struct {
		name  string
		qs    []interact.Question
		keys  []string
		typed string
	}{
		{"single", []interact.Question{single(), multi()}, nil, ""},
		{"multi", []interact.Question{multi()}, []string{"down", "space"}, ""},
		{"custom", []interact.Question{multi()}, []string{"tab"}, "only on main"},
		{"custom_free_text", []interact.Question{{ID: "name", Question: "What should the binary be called?", AllowCustom: true}}, nil, ""},
		{"validation_select", []interact.Question{multi()}, []string{"space", "enter"}, ""},
		{"validation_empty", []interact.Question{single()}, []string{"c", "enter"}, ""},
		{"paged", []interact.Question{long()}, []string{"pgdown"}, ""},
		{"preview", []interact.Question{withPreviews()}, []string{"down"}, ""},
	}
	for _, tt := range tests {
		for _, size := range [][2]int{{100, 30}, {50, 14}} {
			p := New(tt.qs, th, overlaytest.Epoch())
			p.SetQueued(1)
			p.View(size[0], size[1])
			keys.Press(overlaytest.AfterGuard(p.Update), tt.keys...)
			keys.TypeText(overlaytest.AfterGuard(p.Update), tt.typed)
			name := fmt.Sprintf("%s_%dx%d", tt.name, size[0], size[1])
			golden.View(t, name, p.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestAnswers(t *testing.T) {
	tests := []struct {
		name  string
		qs    []interact.Question
		keys  []string
		typed string
		final []string
		want  []interact.Answer
	}{
		{"arrow and enter picks the option under the cursor", []interact.Question{single()}, []string{"down"}, "", []string{"enter"},
			[]interact.Answer{{ID: "db", Selected: []string{"Redis"}}}},
		{"enter alone takes the recommended option", []interact.Question{single()}, nil, "", []string{"enter"},
			[]interact.Answer{{ID: "db", Selected: []string{"SQLite"}}}},
		{"custom text overrides a single selection", []interact.Question{single()}, []string{"tab"}, "MySQL 8", []string{"enter"},
			[]interact.Answer{{ID: "db", Selected: []string{}, Custom: "MySQL 8"}}},
		{"multi-select returns checked labels and custom text", []interact.Question{multi()}, []string{"down", "down", "space", "c"}, "lint", []string{"enter"},
			[]interact.Answer{{ID: "checks", Selected: []string{"go vet", "race tests"}, Custom: "lint"}}},
		{"digits move the cursor", []interact.Question{single()}, []string{"1"}, "", []string{"enter"},
			[]interact.Answer{{ID: "db", Selected: []string{"PostgreSQL"}}}},
		{"a set is answered question by question", []interact.Question{single(), multi()}, []string{"up", "enter"}, "", []string{"enter"},
			[]interact.Answer{{ID: "db", Selected: []string{"PostgreSQL"}}, {ID: "checks", Selected: []string{"go vet"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(tt.qs, th, overlaytest.Epoch())
			keys.Press(overlaytest.AfterGuard(p.Update), tt.keys...)
			keys.TypeText(overlaytest.AfterGuard(p.Update), tt.typed)
			got := keys.Press(overlaytest.AfterGuard(p.Update), tt.final...)
			if got.Kind != Answered || !reflect.DeepEqual(got.Answers, tt.want) {
				t.Errorf("want answered %+v, got kind %v answers %+v", tt.want, got.Kind, got.Answers)
			}
		})
	}
}

func TestEscInterrupts(t *testing.T) {
	for _, pressed := range [][]string{{"esc"}, {"ctrl+c"}, {"tab", "esc", "esc"}} {
		p := New([]interact.Question{single()}, th, overlaytest.Epoch())
		if got := keys.Press(overlaytest.AfterGuard(p.Update), pressed...); got.Kind != Interrupted {
			t.Errorf("keys %v: want Interrupted, got %v", pressed, got.Kind)
		}
	}
	p := New([]interact.Question{{ID: "x", Question: "Name?", AllowCustom: true}}, th, overlaytest.Epoch())
	if got := keys.Press(overlaytest.AfterGuard(p.Update), "esc"); got.Kind != Interrupted {
		t.Errorf("free-text question: want Esc to interrupt, got %v", got.Kind)
	}
}

func TestEscFromCustomReturnsToOptions(t *testing.T) {
	p := New([]interact.Question{single()}, th, overlaytest.Epoch())
	if got := keys.Press(overlaytest.AfterGuard(p.Update), "tab", "esc"); got.Kind != None {
		t.Fatalf("want the panel open after Esc in custom mode, got %v", got.Kind)
	}
	if got := keys.Press(overlaytest.AfterGuard(p.Update), "enter"); got.Kind != Answered || got.Answers[0].Selected[0] != "SQLite" {
		t.Errorf("want the option answer after leaving custom mode, got %+v", got)
	}
}

func TestValidationMessages(t *testing.T) {
	p := New([]interact.Question{multi()}, th, overlaytest.Epoch())
	keys.Press(overlaytest.AfterGuard(p.Update), "space", "enter")
	if v := ansi.Strip(p.View(100, 30)); !strings.Contains(v, MsgSelectOne) {
		t.Errorf("want %q with nothing checked, got\n%s", MsgSelectOne, v)
	}
	keys.Press(overlaytest.AfterGuard(p.Update), "space")
	if v := ansi.Strip(p.View(100, 30)); strings.Contains(v, MsgSelectOne) {
		t.Errorf("want the message gone after toggling, got\n%s", v)
	}
	q := New([]interact.Question{single()}, th, overlaytest.Epoch())
	if got := keys.Press(overlaytest.AfterGuard(q.Update), "tab", "space", "enter"); got.Kind != None {
		t.Fatalf("want a blank custom answer refused, got %v", got.Kind)
	}
	if v := ansi.Strip(q.View(100, 30)); !strings.Contains(v, MsgEmpty) {
		t.Errorf("want %q, got\n%s", MsgEmpty, v)
	}
}

func TestKeysWithinGuardAreIgnored(t *testing.T) {
	p := New([]interact.Question{single()}, th, overlaytest.Epoch())
	early := overlaytest.Epoch().Add(Guard - time.Millisecond)
	for _, k := range []string{"down", "enter", "esc"} {
		if got := p.Update(keys.Key(k), early); got.Kind != None {
			t.Fatalf("key %s at %v: want ignored, got %v", k, Guard-time.Millisecond, got.Kind)
		}
	}
	// The ignored keys started the wait again: Enter a guard after them answers.
	got := p.Update(keys.Key("enter"), early.Add(Guard))
	if got.Kind != Answered || got.Answers[0].Selected[0] != "SQLite" {
		t.Errorf("want Enter a guard after the ignored keys to answer the untouched default SQLite, got %+v", got)
	}
}

func TestLongQuestionPages(t *testing.T) {
	p := New([]interact.Question{long()}, th, overlaytest.Epoch())
	first := ansi.Strip(p.View(60, 12))
	if !strings.Contains(first, "↓ ") || strings.Contains(first, "↑ ") {
		t.Fatalf("want only a ↓ N more row on the first page, got\n%s", first)
	}
	keys.Press(overlaytest.AfterGuard(p.Update), "pgdown")
	second := ansi.Strip(p.View(60, 12))
	if !strings.Contains(second, "↑ ") {
		t.Errorf("want a ↑ N more row after PgDn, got\n%s", second)
	}
	keys.Press(overlaytest.AfterGuard(p.Update), "pgup", "pgup")
	if again := ansi.Strip(p.View(60, 12)); again != first {
		t.Errorf("want PgUp back at the first page\n%s\ngot\n%s", first, again)
	}
	keys.Press(overlaytest.AfterGuard(p.Update), "down")
	if v := ansi.Strip(p.View(60, 12)); !strings.Contains(v, "› 3. Redis") {
		t.Errorf("want the cursor scrolled into view, got\n%s", v)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	for _, qs := range [][]interact.Question{{single()}, {multi()}, {long()}} {
		p := New(qs, th, overlaytest.Epoch())
		keys.Press(overlaytest.AfterGuard(p.Update), "down", "tab")
		keys.TypeText(overlaytest.AfterGuard(p.Update), strings.Repeat("a long custom answer ", 10))
		keys.Press(overlaytest.AfterGuard(p.Update), "enter")
		for _, size := range overlaytest.Sizes() {
			golden.Fits(t, p.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestExternalTextIsSanitized(t *testing.T) {
	q := single()
	q.Header = "evil\x1b]2;title\x07"
	q.Question = "pick\x1b[2J one"
	q.Options[0].Label = "a\nb"
	p := New([]interact.Question{q}, th, overlaytest.Epoch())
	v := p.View(100, 30)
	for _, bad := range []string{"\x1b]2;", "\x1b[2J", "\x07"} {
		if strings.Contains(v, bad) {
			t.Errorf("want %q escaped, got %q", bad, v)
		}
	}
	if plain := ansi.Strip(v); !strings.Contains(plain, `evil\x1b]2;title\x07`) || !strings.Contains(plain, `1. a\x0ab`) {
		t.Errorf("want controls shown as \\xNN, got\n%s", plain)
	}
}

func TestOptionsStayInViewUnderALongQuestion(t *testing.T) {
	p := New([]interact.Question{long()}, th, overlaytest.Epoch())
	for _, pressed := range [][]string{nil, {"pgdown"}, {"pgdown", "pgdown", "pgdown"}, {"pgup"}} {
		keys.Press(overlaytest.AfterGuard(p.Update), pressed...)
		for _, size := range [][2]int{{100, 30}, {60, 12}, {50, 10}} {
			v := ansi.Strip(p.View(size[0], size[1]))
			if !strings.Contains(v, "› 2. SQLite") {
				t.Errorf("after %v at %dx%d: want the recommended option under the cursor in view, got\n%s", pressed, size[0], size[1], v)
			}
		}
	}
}

func TestPageKeysScrollOptionsWhenTheQuestionFits(t *testing.T) {
	q := single()
	for i := range 12 {
		q.Options = append(q.Options, interact.Option{Label: fmt.Sprintf("Extra %d", i+1), Description: "Another store."})
	}
	p := New([]interact.Question{q}, th, overlaytest.Epoch())
	first := ansi.Strip(p.View(60, 12))
	if !strings.Contains(first, "Which database") || !strings.Contains(first, "↓ ") {
		t.Fatalf("want the question and a ↓ N more row below the options, got\n%s", first)
	}
	keys.Press(overlaytest.AfterGuard(p.Update), "pgdown")
	second := ansi.Strip(p.View(60, 12))
	if !strings.Contains(second, "Which database") || !strings.Contains(second, "↑ ") || second == first {
		t.Errorf("want PgDn to page the options under the question, got\n%s", second)
	}
}

func TestPanelOpensWithTheRecommendedOptionInView(t *testing.T) {
	q := single()
	q.Options[1].Recommended = false
	for i := range 12 {
		q.Options = append(q.Options, interact.Option{Label: fmt.Sprintf("Extra %d", i+1), Recommended: i == 9})
	}
	p := New([]interact.Question{q}, th, overlaytest.Epoch())
	if v := ansi.Strip(p.View(60, 12)); !strings.Contains(v, "› 13. Extra 10") {
		t.Errorf("want the recommended option 13 under the cursor in view, got\n%s", v)
	}
}

func TestTinyPanelsGiveTheRoomToTheOptions(t *testing.T) {
	q := long()
	for i := range q.Options {
		q.Options[i].Description = ""
	}
	p := New([]interact.Question{q}, th, overlaytest.Epoch())
	v := ansi.Strip(p.View(40, 6))
	for _, want := range []string{"1. PostgreSQL", "› 2. SQLite", "3. Redis"} {
		if !strings.Contains(v, want) {
			t.Errorf("want %q in a 6-row panel, got\n%s", want, v)
		}
	}
}
