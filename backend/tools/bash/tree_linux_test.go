package bash

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/procs"
)

// Kill ends every process of a command, not only its group: a child in a
// session of its own (setsid) gets the SIGTERM with the group, and one
// that ignores SIGTERM the SIGKILL after the grace period, in the sandbox
// and unconfined under its supervisor. Both are gone when Done closes,
// well within the command's 300 s.
func TestKillEndsTheWholeTreeOfTheCommand(t *testing.T) {
	for _, off := range []bool{false, true} {
		t.Run(fmt.Sprintf("unconfined=%v", off), func(t *testing.T) {
			f := newConfinedFixture(t, Local{Grace: 200 * time.Millisecond})
			escaped, stubborn := procs.UniqueSleep(301), procs.UniqueSleep(302)
			p, err := f.tools.start(Spec{
				Command: "setsid sleep " + escaped + " & (trap '' TERM; exec sleep " + stubborn + ") & wait",
				Workdir: f.env.Cwd, Sandbox: tools.Sandbox{Off: off}, Env: []string{"PATH=" + os.Getenv("PATH")},
			})
			if err != nil {
				t.Fatal(err)
			}
			fds := []int{procs.Find(t, time.Minute, "sleep", escaped), procs.Find(t, time.Minute, "sleep", stubborn)}
			p.Kill()
			<-p.Done()
			for i, fd := range fds {
				if !procs.Exited(fd, 10*time.Second) {
					t.Errorf("want sleep %s ended with its command, it still runs", []string{escaped, stubborn}[i])
				}
			}
		})
	}
}
