package linemode

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/launch"
)

func TestRunDropsQueuedLinesWhenTheSessionFailsToStart(t *testing.T) {
	pr, pw := io.Pipe()
	fail := make(chan struct{})
	open := func() (*launch.Session, error) {
		<-fail
		return nil, errors.New("config file broken")
	}
	var stdout, stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- Run(context.Background(), open, Options{IO: testIO(pr, &stdout, &stderr, false)})
	}()
	// A pipe write returns once the reader took the bytes, and the reader
	// takes the next line only after the loop received the previous one: when
	// the blank line is written, both lines are queued.
	for _, line := range []string{"hello\n", "world\n", "\n"} {
		if _, err := io.WriteString(pw, line); err != nil {
			t.Fatal(err)
		}
	}
	close(fail)
	if got := <-code; got != 1 {
		t.Fatalf("want exit 1, got %d", got)
	}
	pw.Close()
	want := "tack: the session failed to start: config file broken; dropped 2 queued line(s)\n"
	if stderr.String() != want {
		t.Errorf("want stderr %q, got %q", want, stderr.String())
	}
	if stdout.String() != "ready.\n> " {
		t.Errorf("want only the banner on stdout, got %q", stdout.String())
	}
}

func TestRunPrintsTheConfiguredWelcome(t *testing.T) {
	var stdout bytes.Buffer
	open := func() (*launch.Session, error) { return nil, errors.New("no key") }
	Run(context.Background(), open, Options{Welcome: "coding agent ready.", IO: testIO(strings.NewReader(""), &stdout, io.Discard, false)})
	if !strings.HasPrefix(stdout.String(), "coding agent ready.\n> ") {
		t.Errorf("want the configured banner, got %q", stdout.String())
	}
}
