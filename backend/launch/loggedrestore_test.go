package launch

import (
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/session"
)

// TestLoggedRestoreFindsTheRewindOfAJournal: a restore cut short is
// completed when its rewind is in the log, this session's (scanned) or
// another one's (read), and rolled back otherwise.
func TestLoggedRestoreFindsTheRewindOfAJournal(t *testing.T) {
	home, cwd, now := t.TempDir(), t.TempDir(), time.Unix(1_795_000_000, 0)
	open := func(id, journal string) *session.Log {
		t.Helper()
		l, err := session.Create(session.PathFor(home, cwd, id), session.Header{ID: id, Created: now, Cwd: cwd, Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		for _, d := range []session.Data{session.TurnStart{Turn: 1}, session.TurnEnd{Turn: 1, Reason: session.StopCompleted},
			session.Rewind{Turn: 1, Back: 0, Files: "c1", Before: "b1", Journal: journal}} {
			if _, err := l.Append(now, d); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Sync(); err != nil {
			t.Fatal(err)
		}
		return l
	}
	s := &Session{Log: open("20261130-090000-aaaaaa", "mine")}
	open("20261130-090000-bbbbbb", "theirs")
	logged := s.loggedRestore(home)
	for _, tc := range []struct {
		id, token string
		want      bool
	}{
		{"20261130-090000-aaaaaa", "mine", true}, {"20261130-090000-aaaaaa", "theirs", false},
		{"20261130-090000-bbbbbb", "theirs", true}, {"20261130-090000-bbbbbb", "mine", false},
		{"20261130-090000-cccccc", "mine", false},
	} {
		if got := logged(tc.id, tc.token); got != tc.want {
			t.Errorf("session %s, journal %s: want logged %v, got %v", tc.id, tc.token, tc.want, got)
		}
	}
}
