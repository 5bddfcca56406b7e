//go:build unix

package app

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/sessiontest"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/procstat"
)

// resumeSizes are the session lengths, in model messages, that
// BenchmarkResume grows through.
var resumeSizes = []int{1_000, 10_000, 100_000}

// BenchmarkResume is `tack --resume` of a story session of 1,000, 10,000 and
// 100,000 messages, in process: open the log, start the agent, build the
// chat model and draw its first frame, which shows the last answer. It
// reports the time to that frame, the heap the open session holds once it
// is drawn (after a collection), and the most heap used on the way.
func BenchmarkResume(b *testing.B) {
	for _, n := range resumeSizes {
		if testing.Short() && n > 10_000 {
			continue
		}
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			path, _ := writeStory(b, n)
			resume(b, path).close() // a first open may write what later ones read
			var held, peak float64
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				base := procstat.HeapObjects()
				b.StartTimer()
				var r resumed
				start := procstat.CPUTime()
				peak = max(peak, procstat.PeakHeapAbove(base, func() { r = resume(b, path) }))
				cpu += procstat.CPUTime() - start
				b.StopTimer()
				runtime.GC()
				held = float64(procstat.HeapObjects()-base) / (1 << 20)
				r.close()
				b.StartTimer()
			}
			// CPU time is reported beside wall time because a shared
			// machine's load inflates the latter.
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(held, "held-MB")
			b.ReportMetric(peak, "peak-MB")
		})
	}
}

// resumed is an open session and the chat model drawn over it.
type resumed struct {
	log   *session.Log
	agent *agent.Agent
	model *Model
}

func (r resumed) close() {
	r.model.Close()
	r.agent.Close()
	r.log.Close()
}

// writeStory writes a story session s1 of the given number of messages
// and is its path and header.
func writeStory(tb testing.TB, messages int) (path string, h session.Header) {
	tb.Helper()
	path = filepath.Join(tb.TempDir(), "s1.jsonl")
	h = session.Header{ID: "s1", Created: time.Unix(1_795_000_000, 0), Cwd: "/w", Model: "deepseek-v4-flash"}
	if err := sessiontest.Write(path, h, messages, h.Created); err != nil {
		tb.Fatal(err)
	}
	return path, h
}

// resume opens the log at path as tack --resume does and draws the first
// frame, which must show the story's last answer.
func resume(b testing.TB, path string) resumed {
	log, err := session.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	ag := agent.New(agent.Config{Log: log, Provider: llm.NewClient(llm.ClientConfig{BaseURL: "http://127.0.0.1:9", APIKey: "k"}),
		Tools: tools.NewRegistry()})
	be := AgentBackend{Agent: ag}
	m := New(Options{Backend: be, Width: 120, Height: 40, Colour: true, Cwd: "/w", Home: "/home/u", Branch: "main"})
	m.Update(subscription(be))
	if v := m.View(); !strings.Contains(v.Content, sessiontest.LastAnswer) {
		b.Fatalf("want the last answer on the first frame, got\n%s", v.Content)
	}
	return resumed{log, ag, m}
}
