package config

import (
	"strings"
	"testing"
)

// Claude Code's env values are strings, but its settings files carry
// numbers and booleans too ("MAX_THINKING_TOKENS": 1024), which it
// takes as written; anything else is a problem that names the file.
func TestClaudeSettingsEnvTakesScalarsAsWritten(t *testing.T) {
	s, err := ParseClaudeSettings("settings.json", []byte(`{"env": {"A": "one", "B": 1024, "C": true, "D": 0.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Scalar{"A": "one", "B": "1024", "C": "true", "D": "0.5"}
	for k, v := range want {
		if s.Env[k] != v {
			t.Errorf("env %s: want %q, got %q", k, v, s.Env[k])
		}
	}
	_, err = ParseClaudeSettings("settings.json", []byte(`{"env": {"A": ["x"]}}`))
	if err == nil || !strings.Contains(err.Error(), `settings.json: env values should be strings, numbers or true or false, not ["x"]; fix it`) {
		t.Errorf("want a problem that names the file and says what a value may be, got %v", err)
	}
}
