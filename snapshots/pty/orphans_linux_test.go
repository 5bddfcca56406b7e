package pty

import (
	"syscall"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/snapshots/testkit/procs"
)

// The processes tack's tools start die with tack, however it dies: a
// background task, a foreground command's children (one of them in a
// session of its own, out of the command's process group) and a `!`
// command, in the sandbox (auto) and without it (full-access). The oracle
// is the kernel: each sleep, found by its unique command line, is held as
// a pidfd that becomes readable when the process has exited.
func TestToolProcessesDieWhenTackIsKilled(t *testing.T) {
	for _, mode := range []string{"auto", "full-access"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "auto" {
				if st := sandbox.New(sandbox.Options{Workspace: t.TempDir()}).Status(); !st.Active {
					t.Skip("this system cannot confine commands: " + st.Reason)
				}
			}
			bg, fg, escaped, bang := procs.UniqueSleep(3001), procs.UniqueSleep(3002), procs.UniqueSleep(3003), procs.UniqueSleep(3004)
			srv := llmtest.New(t,
				llmtest.Reply(
					llmtest.ToolCall("call_1", "bash", `{"command":"sleep `+bg+`","description":"Sleep in the background","run_in_background":true}`, 1),
					llmtest.ToolCall("call_2", "bash", `{"command":"setsid sleep `+escaped+` & sleep `+fg+` & wait","description":"Sleep twice"}`, 1),
				),
				llmtest.ReplyText("done"))
			r := start(t, setup{srv: srv, args: []string{"--permission-mode", mode}})
			r.waitIdle()
			r.Type("!sleep " + bang + " & wait")
			r.Key('\r')
			pids := []int{procs.Find(t, 4*stepLimit, "sleep", bang)}
			r.Type("sleep please")
			r.Key('\r')
			for _, d := range []string{bg, fg, escaped} {
				pids = append(pids, procs.Find(t, 4*stepLimit, "sleep", d))
			}
			if err := r.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			r.Wait(stepLimit)
			for i, fd := range pids {
				if !procs.Exited(fd, 4*stepLimit) {
					t.Errorf("want sleep %s to die with tack, it still runs", []string{bang, bg, fg, escaped}[i])
				}
			}
		})
	}
}
