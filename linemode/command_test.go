package linemode

import (
	"strings"
	"testing"
)

func TestHelpKeysListLineModesOwnKeys(t *testing.T) {
	cases := []struct {
		name     string
		terminal bool
		want     []string
		wantNot  []string
	}{
		{"terminal", true, []string{"Enter", "steer", "/name", "Ctrl+C", "Ctrl+D", "Up/Down", "approval"}, []string{"EOF", "Ctrl+O", "Esc", "Ctrl+G"}},
		{"piped", false, []string{"Enter", "steer", "/name", "EOF", "question"}, []string{"Ctrl+C", "Ctrl+D", "Up/Down"}},
	}
	for _, c := range cases {
		got := HelpKeys(c.terminal)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: want %q in the key list, got:\n%s", c.name, w, got)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(got, w) {
				t.Errorf("%s: want no %q (not a key here), got:\n%s", c.name, w, got)
			}
		}
	}
}

func TestHelpKeysAlignTheirActions(t *testing.T) {
	rows := strings.Split(HelpKeys(true), "\n")
	col := strings.Index(rows[0], "send")
	for _, r := range rows {
		if len(r) <= col || r[col-1] != ' ' || r[col] == ' ' {
			t.Fatalf("want every action to start at column %d, got %q", col, r)
		}
	}
}
