package snapshots

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A status line script as Claude Code's users write them (jq over the
// documented fields, tput-style colours) draws its rows above the status
// row; what else it prints (a title, a clear of the screen) reaches
// neither the screen nor the title.
func TestStatusLineScriptOnScreen(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the script is sh")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (apt-get install jq): the script under test is written with it")
	}
	script := filepath.Join(t.TempDir(), "statusline.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
input=$(cat)
model=$(echo "$input" | jq -r '.model.display_name')
pct=$(echo "$input" | jq -r '.context_window.used_percentage // 0' | cut -d. -f1)
printf '\033]0;pwned\007\033[2J\033[H'
printf '\033[35m[%s]\033[0m ctx %s%%\n' "$model" "$pct"
echo "$input" | jq -r '"session \(.session_id) · \(.output_style.name)"'
`), 0o755)
	f := NewFake(header())
	f.StatusCommand = script
	tt := start(t, f, 80, 14)
	screen := tt.WaitText(t, "session "+sessionID+" · default")
	if !strings.Contains(screen, "ctx 0%") {
		t.Errorf("want the first row, got:\n%s", screen)
	}
	if strings.Contains(tt.Title(), "pwned") {
		t.Errorf("the script set the title: %q", tt.Title())
	}
	tt.Golden(t, "statusline_80x14")
}
