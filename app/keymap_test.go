package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

func TestEveryBindingHasHelpTextAndAHome(t *testing.T) {
	seen := map[string]string{}
	for _, b := range keyTable() {
		if b.label == "" || b.help == "" {
			t.Errorf("binding %q (keys %v): want a label and help text, got label %q, help %q", b.label, b.keys, b.label, b.help)
		}
		if (b.context == inChat) != (b.run != nil) {
			t.Errorf("binding %q: want an action exactly when the chat screen dispatches it (context %d)", b.label, b.context)
		}
		if b.context == inChat && len(b.keys) == 0 {
			t.Errorf("binding %q: want the keys it is dispatched on", b.label)
		}
		for _, k := range b.keys {
			if other, dup := seen[k]; dup {
				t.Errorf("key %q is bound twice: %q and %q", k, other, b.label)
			}
			seen[k] = b.label
		}
	}
}

func TestHelpListsTheKeysTheScreenAnswers(t *testing.T) {
	m, _ := newTestModel(nil)
	m.Update(keys.Key("?"))
	if m.ov.help == nil {
		t.Fatal("want ? in an empty draft to open help")
	}
	view := ansi.Strip(m.ov.help.View(120, 60))
	for _, b := range keyTable() {
		if !strings.Contains(view, b.label) || !strings.Contains(view, b.help) {
			t.Errorf("want help to list %q — %q, got:\n%s", b.label, b.help, view)
		}
	}
	for _, label := range []string{"Ctrl+Y", "!command", "Home/End"} {
		if !strings.Contains(view, label) {
			t.Errorf("want help to list %s, got:\n%s", label, view)
		}
	}
}

func TestHomeAndEndScrollOnlyWithAnEmptyDraft(t *testing.T) {
	m, _ := newTestModel(nil)
	m.Update(eventsMsg{events: paragraphs(1, 40)})
	m.Update(keys.Key("home"))
	if m.scroll == 0 || m.scroll != m.maxScroll() {
		t.Fatalf("want Home in an empty draft to scroll to the top (%d rows), got %d", m.maxScroll(), m.scroll)
	}
	m.Update(keys.Key("end"))
	if m.scroll != 0 {
		t.Fatalf("want End to return to the bottom, got %d rows up", m.scroll)
	}
	keys.TypeText(keys.Into(m), "draft")
	m.Update(keys.Key("home"))
	if m.scroll != 0 || m.editor.CursorOffset() != 0 {
		t.Fatalf("want Home in a draft to move the cursor, not scroll; scroll %d, cursor %d", m.scroll, m.editor.CursorOffset())
	}
	m.Update(keys.Key("ctrl+home"))
	if m.scroll != m.maxScroll() {
		t.Fatalf("want Ctrl+Home to scroll even in a draft, got %d of %d", m.scroll, m.maxScroll())
	}
}
