package linemode

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/views/iostreams"
)

// screen is a terminal both the front door and the line reader write to.
type screen = testkit.Buffer

// testIO is a terminal seam over the given streams; terminal makes it
// claim a terminal on stdin and stdout.
func testIO(in io.Reader, out, errs io.Writer, terminal bool) *iostreams.IOStreams {
	ios, _, _, _ := iostreams.Test()
	ios.In, ios.Out, ios.ErrOut = in, out, errs
	ios.SetStdinTTY(terminal)
	ios.SetStdoutTTY(terminal)
	return ios
}

// openSession opens a session in a fresh workspace over a scripted model.
// peakClock runs from a Tuesday 10:00 in Beijing, so steps are priced at
// DeepSeek's peak rate whenever the tests run.
func peakClock() func() time.Time {
	start, peak := time.Now(), time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC)
	return func() time.Time { return peak.Add(time.Since(start)) }
}

func openSession(t *testing.T, script ...llmtest.Response) func() (*launch.Session, error) {
	srv := llmtest.New(t, script...)
	home, cwd := t.TempDir(), t.TempDir()
	env := map[string]string{"DEEPSEEK_API_KEY": "test", "DEEPSEEK_BASE_URL": srv.URL()}
	now := peakClock()
	return func() (*launch.Session, error) {
		return launch.Open(launch.Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Now: now})
	}
}

// TestNextPromptIsWrittenBeforeTheTurnItStarts stands in a line reader
// that is slow to print its next prompt (as liner is under load): the
// turn a line starts must not be written before that prompt, or the
// prompt lands inside the turn ("[main turn 1] > Hello").
func TestNextPromptIsWrittenBeforeTheTurnItStarts(t *testing.T) {
	out := &screen{}
	lines := make(chan input)
	go func() {
		prompted := make(chan struct{})
		lines <- input{line: "say hello", prompted: prompted}
		// print the prompt once the turn shows, or after a while
		deadline := time.Now().Add(500 * time.Millisecond)
		for time.Now().Before(deadline) && !strings.Contains(out.String(), "[main turn 1]") {
			time.Sleep(time.Millisecond)
		}
		out.Write([]byte(Prompt))
		close(prompted)
		lines <- input{eof: true}
	}()
	code := run(context.Background(), openSession(t, llmtest.ReplyText("Hello from line mode.")),
		Options{IO: testIO(nil, out, &screen{}, true), Welcome: "ready."}, lines)
	if code != 0 {
		t.Fatalf("want exit 0 at end of input, got %d", code)
	}
	got := out.String()
	prompt, header := strings.Index(got, Prompt), strings.Index(got, "[main turn 1]")
	if prompt < 0 || header < 0 || prompt > header || !strings.Contains(got, "Hello from line mode.") {
		t.Fatalf("want the reader's prompt, then the turn with its answer, got %q", got)
	}
}
