package snapshots

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// ptyTack runs the tack binary in a 100×30 pseudo-terminal whose output
// feeds an emulator, and returns the emulator and the process.
func ptyTack(tb testing.TB, bin string, args ...string) (*vt.SafeEmulator, *exec.Cmd, func()) {
	tb.Helper()
	dir := tb.TempDir()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"TACK_HOME=" + filepath.Join(dir, "home"), "HOME=" + dir, "TERM=xterm-256color",
		"DEEPSEEK_API_KEY=x", "DEEPSEEK_BASE_URL=http://127.0.0.1:9", "PATH=/usr/bin:/bin"}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 100, Rows: 30})
	if err != nil {
		tb.Fatalf("start tack in a pty: %v", err)
	}
	em := vt.NewSafeEmulator(100, 30)
	go func() { // terminal replies go back to the program
		b := make([]byte, 256)
		for {
			n, err := em.Read(b)
			if err != nil {
				return
			}
			_, _ = f.Write(b[:n])
		}
	}()
	go func() {
		b := make([]byte, 32<<10)
		for {
			n, err := f.Read(b)
			if err != nil {
				return
			}
			_, _ = em.Write(b[:n])
		}
	}()
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	}
	return em, cmd, stop
}

// rssMB reads a process's resident set size.
func rssMB(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

// BenchmarkPTYFirstFrame is exec to the first full frame (the status row
// drawn) of the real binary in a pseudo-terminal, with its RSS then.
func BenchmarkPTYFirstFrame(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "tack")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/tack").CombinedOutput(); err != nil {
		b.Fatalf("build tack: %v\n%s", err, out)
	}
	var total time.Duration
	var rss float64
	for i := 0; i < b.N; i++ {
		start := time.Now()
		em, cmd, stop := ptyTack(b, bin)
		deadline := start.Add(5 * time.Second)
		for !strings.Contains(em.String(), "context") {
			if time.Now().After(deadline) {
				stop()
				b.Fatalf("want a first frame within 5s, got:\n%s", em.String())
			}
			time.Sleep(time.Millisecond)
		}
		total += time.Since(start)
		rss += rssMB(cmd.Process.Pid)
		stop()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-first-frame")
	b.ReportMetric(rss/float64(b.N), "MB-rss")
}
