package testkit

import (
	"io"
	"os"
	"os/exec"
	"testing"
)

// StartSelf starts the running test binary again as a helper process of
// the test: it runs the tests that match run ("^$" runs none, for a
// TestMain that turns into the helper when it sees its variable), with env
// ("NAME=value") added to this process's environment. out is the helper's
// standard output; the caller waits for the helper or kills it.
func StartSelf(tb testing.TB, run string, env ...string) (cmd *exec.Cmd, out io.Reader) {
	tb.Helper()
	cmd = exec.Command(os.Args[0], "-test.run="+run)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	return cmd, out
}
