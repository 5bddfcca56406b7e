//go:build unix

package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/snapshots/testkit/procstat"
)

// benchText is n bytes cut from a repeated sample.
func benchText(sample string, n int) string {
	return strings.ToValidUTF8(strings.Repeat(sample, n/len(sample)+1)[:n], "")
}

// proseSample is model prose: paragraphs, inline code and quotes, as
// reasoning and answers are written.
const proseSample = "The quick brown fox jumps over the lazy dog, so `go test` runs again. " +
	"It said \"want 3, got 2\" — the loop stops early.\n\n"

// outputSample is tool output: short lines with tabs and quotes, which
// the log stores escaped, and a non-ASCII mark.
const outputSample = "=== RUN   TestParse\n--- FAIL: TestParse (0.01s)\n\tparse_test.go:42: want \"a<b>\", got \"a&b\"\n" +
	"✓ ok  \tgithub.com/tack-agent/tack/backend/llm\t0.12s\n"

// syntheticTurn is one realistic turn of about 27 events and 12 KB: a
// prompt, four tool steps with reasoning, a final answer and a todo list.
// Texts carry newlines, tabs, quotes and non-ASCII runes, as real ones do.
func syntheticTurn(turn int) []Data {
	prose := func(n int) string { return benchText(proseSample, n) }
	output := func(n int) string { return benchText(outputSample, n) }
	out := []Data{
		TurnStart{Turn: turn},
		UserMessage{Turn: turn, Kind: KindPrompt, Text: prose(200)},
	}
	for step := 1; step <= 4; step++ {
		id := fmt.Sprintf("call_%d_%d", turn, step)
		args := `{"command":"go test ./backend/... -run TestSomething -count=1"}`
		exit := 1
		out = append(out,
			StepStart{Turn: turn, Step: step, Model: "deepseek-v4-pro", Effort: llm.EffortHigh},
			AssistantMessage{Turn: turn, Step: step, Text: prose(150), Reasoning: prose(500), Finish: llm.FinishToolCalls,
				ToolCalls: []llm.ToolCall{{ID: id, Name: "bash", Arguments: args}},
				Usage:     llm.Usage{Input: 300, CacheRead: 20000, Output: 180, Reasoning: 120}},
			ToolCall{Turn: turn, Step: step, CallID: id, Name: "bash", Arguments: args,
				Card: card.Card{Kind: card.Terminal, Title: "go test", Terminal: &card.TerminalView{Command: "go test ./backend/..."}}},
			ToolResult{Turn: turn, Step: step, CallID: id, Name: "bash", Text: output(1200),
				Card: &card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: "go test", Output: output(300), ExitCode: &exit}}},
			StepEnd{Turn: turn, Step: step, Timing: StepTiming{ModelWait: 300, Thinking: 2000, Response: 800, Tools: 1500}},
		)
	}
	return append(out,
		StepStart{Turn: turn, Step: 5, Model: "deepseek-v4-pro", Effort: llm.EffortHigh},
		AssistantMessage{Turn: turn, Step: 5, Text: prose(700), Finish: llm.FinishStop, Usage: llm.Usage{Input: 400, CacheRead: 24000, Output: 250}},
		StepEnd{Turn: turn, Step: 5},
		TodoWrite{Turn: turn, Todos: []card.TodoItem{{Content: prose(60), Status: "completed"}, {Content: prose(60), Status: "pending"}}},
		TurnEnd{Turn: turn, Reason: StopCompleted},
	)
}

func syntheticSession(n int) []Data {
	var out []Data
	for turn := 1; len(out) < n; turn++ {
		out = append(out, syntheticTurn(turn)...)
	}
	return out[:n]
}

// short is n, or small under -short: the CI smoke runs each benchmark
// once to see it still works, not to measure it.
func short[T int | int64](n, small T) T {
	if testing.Short() {
		return small
	}
	return n
}

func BenchmarkAppend(b *testing.B) {
	l, err := Create(filepath.Join(b.TempDir(), "s1.jsonl"), testHeader("s1"))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	data := syntheticTurn(1)
	i := 0
	cpu := procstat.CPUTime()
	for b.Loop() {
		if _, err := l.Append(t0, data[i%len(data)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if l.NextSeq() != int64(i) {
		b.Fatalf("want %d events logged, the log is at seq %d", i, l.NextSeq())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	// Beside the wall-clock rate, the rate per second of CPU, which a
	// loaded machine does not stretch.
	b.ReportMetric(float64(b.N)/(procstat.CPUTime()-cpu).Seconds(), "events/cpu-s")
}

// BenchmarkLoad is opening a 100,000-event session (10,000 under -short)
// as resume does: with no index (the whole log is read and folded, as on
// the first open of a log written before indexes, or after its index was
// lost) and through the index Close wrote. Each open ends with closing the
// log.
func BenchmarkLoad(b *testing.B) {
	n := short(100_000, 10_000)
	path := filepath.Join(b.TempDir(), "s1.jsonl")
	createLog(b, path, syntheticSession(n)...)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	index, err := os.ReadFile(indexPath(path))
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"rebuild", "index"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(info.Size())
			open := func() {
				if mode == "rebuild" {
					os.Remove(indexPath(path))
				} else if err := os.WriteFile(indexPath(path), index, 0o600); err != nil {
					b.Fatal(err)
				}
				l, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				// Open closes the turn the last event left open.
				if p := l.Projection(); p.Usage().Turns == 0 || l.NextSeq() < int64(n) {
					b.Fatalf("want %d events of turns, got %d events, %d turns", n, l.NextSeq(), p.Usage().Turns)
				}
				l.Close()
			}
			cpu := procstat.CPUTime()
			for b.Loop() {
				open()
			}
			// CPU time is reported beside wall time because a shared
			// machine's load inflates the latter.
			b.ReportMetric(float64((procstat.CPUTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(info.Size())/(1<<20), "log-MB")
			b.ReportMetric(peakHeapMB(open), "peak-heap-MB")
		})
	}
}

// BenchmarkRepairTornLine is opening a log whose last line was torn by a
// crash, at 1 MB and at 100 MB (8 MB under -short): through the index,
// both cost the same.
func BenchmarkRepairTornLine(b *testing.B) {
	for _, size := range []int64{1 << 20, short[int64](100<<20, 8<<20)} {
		b.Run(fmt.Sprintf("MB=%d", size>>20), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "s1.jsonl")
			l, err := Create(path, testHeader("s1"))
			if err != nil {
				b.Fatal(err)
			}
			for turn := 1; l.st.size < size; turn++ {
				for _, d := range syntheticTurn(turn) {
					if _, err := l.Append(t0, d); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := l.Close(); err != nil {
				b.Fatal(err)
			}
			clean, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			torn := append(clean, `{"type":"turn/start","seq":1,"ti`...)
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				writeSynced(b, path, torn)
				b.StartTimer()
				start := procstat.CPUTime()
				l, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if info, err := os.Stat(path); err != nil || info.Size() != int64(len(clean)) {
					b.Fatalf("want the torn line cut, the log back at %d bytes, got %v (%v)", len(clean), info, err)
				}
				b.StartTimer()
				l.Close()
				cpu += procstat.CPUTime() - start
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// writeSynced writes a file and syncs it, as a log is on disk when the
// process that wrote it is gone.
func writeSynced(b *testing.B, path string, data []byte) {
	f, err := os.Create(path)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
}

// peakHeapMB runs f once and returns the most heap the process held in
// objects meanwhile above what it held before.
func peakHeapMB(f func()) float64 {
	runtime.GC()
	return procstat.PeakHeapAbove(procstat.HeapObjects(), f)
}

// writeSparseLog writes a log of size bytes from a head and a tail of
// encoded events; the middle is a hole, which List never reads.
func writeSparseLog(b testing.TB, path string, h Header, tail []Data, size int64) {
	var head, end bytes.Buffer
	line, _ := encodeHeader(h)
	head.Write(line)
	enc := newLineEncoder()
	for i, d := range []Data{TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "first prompt " + h.ID}} {
		line, _ := enc.encode(Event{Type: d.EventType(), Seq: int64(i), Time: h.Created, Data: d})
		head.Write(line)
	}
	end.WriteByte('\n')
	for i, d := range tail {
		line, _ := enc.encode(Event{Type: d.EventType(), Seq: int64(1000 + i), Time: h.Created.Add(time.Duration(i) * time.Minute), Data: d})
		end.Write(line)
	}
	f, err := os.Create(path)
	if err == nil {
		_, err = f.Write(head.Bytes())
	}
	if err == nil {
		_, err = f.WriteAt(end.Bytes(), size-int64(end.Len()))
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
}

// manySessions writes 1,000 session logs (100 under -short) in workspace
// cwd under home, of 1 MB, and every tenth of 100 MB: sparse files whose
// middle is a hole, which List reads only within its counting budget, so
// they take no room. It returns how many it wrote.
func manySessions(b *testing.B, home, cwd string) int {
	sessions := short(1000, 100)
	if err := os.MkdirAll(Dir(home, cwd), 0o700); err != nil {
		b.Fatal(err)
	}
	// A tail of about 64 KB: the last turn's events, one retitle among them.
	tail := syntheticTurn(40)
	tail = append(tail[:10:10], append([]Data{Title{Title: "Retitled", Source: "model"}}, tail[10:]...)...)
	for i := range sessions {
		h := testHeader(fmt.Sprintf("20261130-%06d-abcdef", i))
		h.Created = t0.Add(time.Duration(i) * time.Hour)
		size := int64(1 << 20)
		if i%10 == 0 {
			size = 100 << 20
		}
		writeSparseLog(b, PathFor(home, cwd, h.ID), h, tail, size)
	}
	return sessions
}

// BenchmarkList is the session picker over 1,000 sessions (100 under
// -short), a tenth of them of 100 MB.
func BenchmarkList(b *testing.B) {
	home, cwd := b.TempDir(), "/work/proj"
	n := manySessions(b, home, cwd)
	cpu := procstat.CPUTime()
	for b.Loop() {
		list, err := List(home, cwd, false)
		if err != nil || len(list) != n || list[0].Title != "Retitled" || list[len(list)-1].Size != 100<<20 {
			b.Fatalf("want %d titled sessions, the oldest of 100 MB, got %d (%v)", n, len(list), err)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time per op since cpu beside the wall time,
// which a loaded machine inflates.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64((procstat.CPUTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkListIndexed is the session picker over 1,000 sessions (100
// under -short) of a few turns, each closed, so indexed, and each with a turn logged after
// its index: List reads every index's head and counts what follows it.
func BenchmarkListIndexed(b *testing.B) {
	home, cwd := b.TempDir(), "/work/proj"
	if err := os.MkdirAll(Dir(home, cwd), 0o700); err != nil {
		b.Fatal(err)
	}
	turn := syntheticTurn(1)
	n := short(1000, 100)
	for i := range n {
		path := PathFor(home, cwd, fmt.Sprintf("20261130-%06d-abcdef", i))
		createLog(b, path, turn...)
		// Logged by a process killed before it wrote the index again.
		appendLines(b, path, len(turn), syntheticTurn(2)...)
	}
	p, err := ReadProjection(PathFor(home, cwd, "20261130-000000-abcdef"))
	if err != nil {
		b.Fatal(err)
	}
	want := p.Usage().Messages
	cpu := procstat.CPUTime()
	for b.Loop() {
		list, err := List(home, cwd, false)
		if err != nil || len(list) != n || list[0].Messages != want {
			b.Fatalf("want %d sessions of %d messages, got %d (%v), the first of %d", n, want, len(list), err, list[0].Messages)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkLatest is finding the session tack -c continues among 1,000
// sessions (100 under -short), a tenth of them of 100 MB.
func BenchmarkLatest(b *testing.B) {
	home, cwd := b.TempDir(), "/work/proj"
	n := manySessions(b, home, cwd)
	want := PathFor(home, cwd, fmt.Sprintf("20261130-%06d-abcdef", n-1))
	cpu := procstat.CPUTime()
	for b.Loop() {
		if path, err := Latest(home, cwd); err != nil || path != want {
			b.Fatalf("want %s, got %s (%v)", want, path, err)
		}
	}
	reportCPU(b, cpu)
}
