package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

// consumer is what a Python program driving `tack -p --output-format
// stream-json` does: it reads stdout line by line with json.loads, and,
// when told to, sends SIGINT once the file named in its second argument
// exists. It prints tack's exit status and the last line's type, subtype
// and is_error, or the line Python could not read.
const consumer = `
import json, os, signal, subprocess, sys, time
p = subprocess.Popen([os.environ["TACK"], "-p", "go", "--output-format", "stream-json"],
                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
last = None
for line in p.stdout:
    try:
        last = json.loads(line)
    except ValueError as e:
        print("not JSON:", repr(line), e)
        sys.exit(1)
    if sys.argv[1] == "interrupt" and last.get("subtype") == "init":
        while not os.path.exists(sys.argv[2]):
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
print(p.wait(), last["type"], last.get("subtype"), last.get("is_error"))
`

// Every line of stream-json is JSON to Python's json.loads, and the last
// is the result, with claude -p's subtype and is_error, when the model
// fails or the run is interrupted; the exit status is what the SDKs read.
func TestPythonReadsStreamJSONToTheResultLine(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("this test reads tack's output with Python, and there is no python3: " + err.Error())
	}
	tests := []struct {
		name string
		srv  *llmtest.Server
		want string
	}{
		{"model error", llmtest.New(t, llmtest.HTTPError(400, "bad request")), "1 result error_during_execution True"},
		{"interrupt", llmtest.New(t, llmtest.Reply(llmtest.Text("so far", 0), llmtest.Stall())), "130 result error_during_execution True"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), exitLimit)
			defer cancel()
			mode, flag := "read", filepath.Join(t.TempDir(), "stalled")
			if tt.name == "interrupt" {
				mode = "interrupt"
				go func() {
					select {
					case <-tt.srv.Stalled():
						_ = os.WriteFile(flag, nil, 0o600)
					case <-ctx.Done():
					}
				}()
			}
			cmd := exec.CommandContext(ctx, python, "-c", consumer, mode, flag)
			cmd.Dir, cmd.Env = t.TempDir(), append(tackEnv(tt.srv, t.TempDir()), "TACK="+tackbin.Path(t))
			out, err := cmd.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != tt.want {
				t.Errorf("want Python to print %q, got %q (%v)", tt.want, out, err)
			}
		})
	}
}
