package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// niceness is field 19 of /proc/PID/stat.
func niceness(t *testing.T, stat string) int {
	t.Helper()
	b, err := os.ReadFile(stat)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), ") ") // the command name may hold spaces
	fields := strings.Fields(rest)             // from field 3, the state
	n, err := strconv.Atoi(fields[19-3])
	if err != nil {
		t.Fatalf("read the niceness in %s: %v", stat, err)
	}
	return n
}

func TestBackgroundGitCommandsRunAtALowPriority(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	own := niceness(t, "/proc/self/stat")
	if own >= backgroundNice {
		t.Skipf("the test already runs at niceness %d", own)
	}
	g := &gitRunner{bin: sh, work: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // against a hang only
	defer cancel()
	// The priority is set just after the process started: the command
	// waits for it to change, then prints it.
	nice := "cut -d' ' -f19 /proc/$$/stat"
	script := `while [ "$(` + nice + `)" = ` + strconv.Itoa(own) + ` ]; do :; done; ` + nice
	out, err := g.run(inBackground(ctx), nil, "-c", script)
	if err != nil {
		t.Fatalf("want the background command to see its priority lowered, got %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != strconv.Itoa(backgroundNice) {
		t.Errorf("want a background command at niceness %d, got %s", backgroundNice, got)
	}
	out, err = g.run(ctx, nil, "-c", nice)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != strconv.Itoa(own) {
		t.Errorf("want a foreground command at tack's niceness %d, got %s", own, got)
	}
}
