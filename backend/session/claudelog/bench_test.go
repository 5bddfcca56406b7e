package claudelog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/sessiontest"
)

// longSession opens a logged story of 20,000 messages (400 under -short,
// which the CI smoke run uses), and says how many.
func longSession(b *testing.B) (*session.Log, int) {
	messages := 20_000
	b.Helper()
	if testing.Short() {
		messages = 400
	}
	h := session.Header{Version: session.FormatVersion, ID: "20260314-092653-abcdef", Created: t0, Cwd: "/workspace/project", Model: "deepseek-flash"}
	path := filepath.Join(b.TempDir(), h.ID+".jsonl")
	if err := sessiontest.Write(path, h, messages, t0); err != nil {
		b.Fatal(err)
	}
	l, err := session.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	return l, messages
}

// BenchmarkSyncLongSession converts a 20,000-message session whole: what
// the first hook of a long session costs when its transcript is not there
// yet (a session from before tack wrote one, or whose file was removed).
func BenchmarkSyncLongSession(b *testing.B) {
	l, messages := longSession(b)
	var size int64
	for b.Loop() {
		tr := New(l, "bench", nil)
		if err := os.Remove(tr.statePath()); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
		if err := tr.Sync(); err != nil {
			b.Fatal(err)
		}
		size = tr.st.Size
	}
	b.ReportMetric(float64(size)/float64(messages), "bytes/message")
	out, err := os.ReadFile(New(l, "bench", nil).Path())
	if err != nil {
		b.Fatal(err)
	}
	if n := bytes.Count(out, []byte("\n")); n != messages {
		b.Fatalf("the transcript has %d lines, want one for each of the %d messages", n, messages)
	}
}

// BenchmarkSyncOneTurn brings the transcript of a long session up to date
// after one more turn: what each hook costs, which must not grow with the
// session.
func BenchmarkSyncOneTurn(b *testing.B) {
	l, _ := longSession(b)
	tr := New(l, "bench", nil)
	if err := tr.Sync(); err != nil {
		b.Fatal(err)
	}
	n := 1_000_000
	for b.Loop() {
		b.StopTimer()
		for _, d := range sessiontest.Turn(n, "/workspace/project", "deepseek-flash", false) {
			if _, err := l.Append(t0, d); err != nil {
				b.Fatal(err)
			}
		}
		n++
		before := tr.st.Size
		b.StartTimer()
		if err := tr.Sync(); err != nil {
			b.Fatal(err)
		}
		if tr.st.Size == before {
			b.Fatal("Sync wrote nothing of the new turn")
		}
	}
}
