package pty

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/sandbox"
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
			bg, fg, escaped, bang := sleepFor(1), sleepFor(2), sleepFor(3), sleepFor(4)
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
			pids := []int{waitForSleep(t, bang)}
			r.Type("sleep please")
			r.Key('\r')
			for _, d := range []string{bg, fg, escaped} {
				pids = append(pids, waitForSleep(t, d))
			}
			if err := r.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			r.Wait(stepLimit)
			for i, fd := range pids {
				waitForExit(t, fd, []string{bang, bg, fg, escaped}[i])
			}
		})
	}
}

// sleepFor is a duration no other sleep on the machine has, so that its
// process can be told apart by its command line.
func sleepFor(n int) string {
	return fmt.Sprintf("%d.%d%d", 3000+n, os.Getpid(), time.Now().UnixNano()%1_000_000)
}

// waitForSleep finds the process running sleep for duration, as a pidfd.
func waitForSleep(t *testing.T, duration string) int {
	t.Helper()
	want := "sleep\x00" + duration + "\x00"
	deadline := time.Now().Add(4 * stepLimit)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); string(b) == want {
				fd, err := unix.PidfdOpen(pid, 0)
				if err != nil {
					t.Fatalf("pidfd_open %d: %v", pid, err)
				}
				t.Cleanup(func() { _ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0); unix.Close(fd) })
				return fd
			}
		}
		<-time.After(20 * time.Millisecond)
	}
	t.Fatalf("no process sleep %s appeared", duration)
	return -1
}

// waitForExit waits until the process behind pidfd has exited.
func waitForExit(t *testing.T, pidfd int, duration string) {
	t.Helper()
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(4*stepLimit/time.Millisecond))
	if err != nil || n != 1 {
		t.Errorf("want sleep %s to die with tack, it still runs (poll: %d %v)", duration, n, err)
	}
}
