package sessionpicker

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/session"
)

// BenchmarkViewOverAThousandSessions draws the picker over 1,000 sessions,
// the frame a user sees while typing a search or moving the cursor.
func BenchmarkViewOverAThousandSessions(b *testing.B) {
	var here []session.Summary
	for i := range 1000 {
		here = append(here, session.Summary{ID: fmt.Sprintf("20261130-%06d-aaaa", i), Cwd: cwd,
			Title: fmt.Sprintf("Session number %d about the lexer", i), Branch: fmt.Sprintf("topic-%d", i%17),
			Turns: i % 40, Messages: 4 * (i % 40), LastActive: now.Add(-time.Duration(i) * time.Hour)})
	}
	p := New(cwd, "/home/ada", "", now, th)
	p.Update(Loaded{Workspace: here, All: here})
	for b.Loop() {
		if v := p.View(120, 40); !strings.Contains(v, "Session number 0 about the lexer") {
			b.Fatalf("want the newest session listed, got\n%s", v)
		}
	}
}
