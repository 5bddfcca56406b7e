package linemode

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// An answer carrying terminal control sequences (a title set, an OSC 52
// clipboard write, an OSC 8 link) reaches a terminal with them escaped,
// so no byte below 0x20 but the line feed is printed; a pipe gets the
// answer as it came.
func TestPrintEscapesControlSequencesOnATerminal(t *testing.T) {
	answer := "Done.\x1b]0;pwned\x07 \x1b]52;c;ZWNobyBwd25lZA==\x07 \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\\u009b31m"
	_, stdout, _ := printRun(t, PrintOptions{Task: "do it", Format: FormatText, Terminal: true}, llmtest.ReplyText(answer))
	for _, c := range stdout {
		if c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 && c <= 0x9f {
			t.Fatalf("want no control character on the terminal, got %q in %q", c, stdout)
		}
	}
	if !strings.Contains(stdout, `\x1b]52;c;ZWNobyBwd25lZA==\x07`) {
		t.Errorf("want the clipboard write shown escaped, got %q", stdout)
	}
	_, piped, _ := printRun(t, PrintOptions{Task: "do it", Format: FormatText}, llmtest.ReplyText(answer))
	if piped != answer+"\n" {
		t.Errorf("want a pipe to get the answer as it came, got %q", piped)
	}
}
