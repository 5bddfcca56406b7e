package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/procs"
)

func TestMain(m *testing.M) {
	ServeIfHelper()
	if d := os.Getenv(doomedParentEnv); d != "" {
		doomedParent(d, os.Getenv(doomedDirEnv))
	}
	os.Exit(m.Run())
}

// doomedParentEnv makes the test binary a stand-in for tack that starts,
// sandboxed and unconfined, a sleep in the command's group and one in a
// session of its own, and waits to be killed. Its workspace is in
// doomedDirEnv, a directory of the test's, which outlives the stand-in.
const (
	doomedParentEnv = "TACK_SANDBOX_TEST_DOOMED_PARENT"
	doomedDirEnv    = "TACK_SANDBOX_TEST_DOOMED_DIR"
)

func doomedParent(duration, dir string) {
	sb := New(Options{Workspace: dir, TempDir: dir})
	bash, _ := exec.LookPath("bash")
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	for i, start := range []func(Command) (Process, error){sb.Start, sb.StartUnconfined} {
		script := fmt.Sprintf("sleep %[1]s%[2]d1 & setsid sleep %[1]s%[2]d2 & wait", duration, i)
		if _, err := start(Command{Path: bash, Args: []string{"bash", "-c", script}, Dir: dir,
			Env: []string{"PATH=" + os.Getenv("PATH")}, Stdout: devnull, Stderr: devnull}); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
	}
	fmt.Println("started")
	select {}
}

// world is one session's directories, each in its own temp directory so
// that only the ones the sandbox is told about are writable.
type world struct {
	ws, tmp, home, spill, outside string
	sb                            *Sandbox
}

// newWorld makes the directories and the sandbox, with options changed by
// each of with.
func newWorld(t *testing.T, with ...func(w *world, o *Options)) *world {
	t.Helper()
	w := &world{ws: t.TempDir(), tmp: t.TempDir(), home: t.TempDir(), outside: t.TempDir()}
	w.spill = filepath.Join(w.home, "spill", "s1")
	if err := os.WriteFile(filepath.Join(w.home, "credentials"), []byte("DEEPSEEK_API_KEY=sk-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Workspace: w.ws, TempDir: w.tmp, SpillDir: w.spill, Home: w.home}
	for _, f := range with {
		f(w, &o)
	}
	w.sb = New(o)
	t.Cleanup(w.sb.Close)
	requireSandbox(t, w.sb)
	return w
}

// requireSandbox skips the test, saying why, where this system cannot set
// the sandbox up; it starts the default helper to find out.
func requireSandbox(t testing.TB, sb *Sandbox) {
	t.Helper()
	if st := sb.Status(); !st.Active {
		t.Skip("this system cannot confine commands: " + st.Reason)
	}
	if _, err := sb.helper(Confinement{}); err != nil {
		var se *setupError
		if errors.As(err, &se) {
			t.Skip("this system cannot confine commands: " + err.Error())
		}
		t.Fatal(err)
	}
}

type ran struct {
	stdout, stderr string
	exit           Exit
}

// run runs script with bash -c in the sandbox and waits for it.
func (w *world) run(t *testing.T, c Confinement, script string, env ...string) ran {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	p, err := w.sb.Start(Command{
		Path: bash, Args: []string{"bash", "-c", script}, Dir: w.ws,
		Env:    append([]string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + w.tmp, "HOME=" + w.ws}, env...),
		Stdout: outW, Stderr: errW, Confinement: c,
	})
	outW.Close()
	errW.Close()
	if err != nil {
		t.Fatalf("start %q: %v", script, err)
	}
	var out, errb bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&errb, errR); close(done) }()
	io.Copy(&out, outR)
	<-done
	r := ran{stdout: out.String(), stderr: errb.String(), exit: p.Wait()}
	p.Release()
	return r
}

// start starts script with bash -c in the default sandbox and leaves it
// running; out is what it writes, stdout and stderr together.
func (w *world) start(t *testing.T, script string) (Process, io.Reader) {
	t.Helper()
	bash, _ := exec.LookPath("bash")
	outR, outW, _ := os.Pipe()
	p, err := w.sb.Start(Command{Path: bash, Args: []string{"bash", "-c", script}, Dir: w.ws,
		Env: []string{"PATH=" + os.Getenv("PATH")}, Stdout: outW, Stderr: outW})
	outW.Close()
	if err != nil {
		t.Fatal(err)
	}
	return p, outR
}

func TestCommandRunsAndReportsItsExit(t *testing.T) {
	w := newWorld(t)
	r := w.run(t, Confinement{}, "echo out; echo err >&2; pwd; exit 3")
	if r.stdout != "out\n"+w.ws+"\n" || r.stderr != "err\n" || r.exit != (Exit{Code: 3}) {
		t.Fatalf("want out and the workspace on stdout, err on stderr, exit 3; got %+v", r)
	}
	r = w.run(t, Confinement{}, "kill -TERM $$")
	if r.exit != (Exit{Code: -1, Signal: syscall.SIGTERM}) {
		t.Fatalf("want death by SIGTERM, got %+v", r.exit)
	}
}

func TestWritesStayInsideTheWritableDirectories(t *testing.T) {
	w := newWorld(t)
	// The spill directory appears after the helper started, as when a
	// command's output first spills: the next command sees it.
	if err := os.MkdirAll(w.spill, 0o700); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, Confinement{}, `touch ws-file && touch "$TMPDIR/tmp-file" && touch "$SPILL/spill-file" && echo ok`, "SPILL="+w.spill)
	if r.stdout != "ok\n" {
		t.Fatalf("want writes in the workspace, temp and spill directories to work, got %+v", r)
	}
	r = w.run(t, Confinement{}, `touch "$OUT/pwned"; echo x > "$OUT/pwned2"; mkdir "$OUT/d"; ln -s /etc "$OUT/l"; true`, "OUT="+w.outside)
	if entries, _ := os.ReadDir(w.outside); len(entries) != 0 {
		t.Fatalf("want nothing written outside, got %v (%+v)", entries, r)
	}
	if !strings.Contains(r.stderr, "Permission denied") {
		t.Fatalf("want the refusal reported as permission denied, got %q", r.stderr)
	}
}

func TestTackHomeIsHiddenButTheSpillDirectoryIsNot(t *testing.T) {
	w := newWorld(t)
	if err := os.MkdirAll(w.spill, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.spill, "out.log"), []byte("spilled\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, Confinement{}, `cat "$H/credentials"; ls "$H"; cat "$H/spill/s1/out.log"`, "H="+w.home)
	if strings.Contains(r.stdout, "sk-secret") || strings.Contains(r.stdout, "credentials") {
		t.Fatalf("want the credentials unreadable and unlisted, got %+v", r)
	}
	if !strings.Contains(r.stdout, "spilled") {
		t.Fatalf("want the spill file readable, got %+v", r)
	}
}

func TestGitInternalsAreReadOnly(t *testing.T) {
	w := newWorld(t)
	git := filepath.Join(w.ws, ".git")
	for _, d := range []string{"hooks", "objects", "refs"} {
		if err := os.MkdirAll(filepath.Join(git, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(git, "config"), []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, Confinement{}, `echo evil > .git/hooks/pre-commit; printf '[core]\n\tfsmonitor = touch pwned\n' >> .git/config;
		mv .git .git-old; rm -rf .git/hooks; echo ok > .git/objects/written && echo objects-writable`)
	if _, err := os.Stat(filepath.Join(git, "hooks", "pre-commit")); err == nil {
		t.Fatalf("want no hook written, got one (%+v)", r)
	}
	if b, _ := os.ReadFile(filepath.Join(git, "config")); string(b) != "[core]\n" {
		t.Fatalf("want .git/config unchanged, got %q", b)
	}
	if _, err := os.Stat(filepath.Join(w.ws, ".git-old")); err == nil {
		t.Fatal("want .git impossible to rename, it was renamed")
	}
	if !strings.Contains(r.stdout, "objects-writable") {
		t.Fatalf("want the rest of .git writable, got %+v", r)
	}
}

func TestNoNetworkReachesOutside(t *testing.T) {
	w := newWorld(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	sock := filepath.Join(w.ws, "s.sock")
	uln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer uln.Close()

	r := w.run(t, Confinement{}, `echo hi > /dev/tcp/127.0.0.1/`+port+` && echo tcp-connected;
		python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("`+sock+`"); print("unix-connected")' 2>/dev/null;
		echo done`)
	if strings.Contains(r.stdout, "connected") || len(accepted) > 0 {
		t.Fatalf("want no connection out of the sandbox, got %+v", r)
	}
	r = w.run(t, Confinement{Network: true}, `echo hi > /dev/tcp/127.0.0.1/`+port+` && echo tcp-connected`)
	if !strings.Contains(r.stdout, "tcp-connected") {
		t.Fatalf("want the network allowed to connect, got %+v", r)
	}
	<-accepted
}

func TestLoopbackInsideTheSandboxWorks(t *testing.T) {
	w := newWorld(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	r := w.run(t, Confinement{}, `python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
c = socket.create_connection(s.getsockname()); print("loopback-ok")'`)
	if r.stdout != "loopback-ok\n" {
		t.Fatalf("want a local server inside the sandbox reachable, got %+v", r)
	}
}

func TestOnlyTheSandboxsProcessesAreVisible(t *testing.T) {
	w := newWorld(t)
	me := strconv.Itoa(os.Getpid())
	r := w.run(t, Confinement{}, `ls /proc | grep -E '^[0-9]+$' | tr '\n' ' '; cat /proc/`+me+`/environ /proc/1/environ 2>/dev/null | tr '\0' '\n' | grep -c TEST_SECRET`,
		"IGNORED=1")
	if strings.Contains(" "+r.stdout, " "+me+" ") {
		t.Fatalf("want the test process (pid %s) invisible, got %+v", me, r)
	}
	if !strings.HasSuffix(r.stdout, "0\n") {
		t.Fatalf("want no environment of another process readable, got %+v", r)
	}
}

func TestReadOnlySandboxWritesNothing(t *testing.T) {
	w := newWorld(t)
	r := w.run(t, Confinement{ReadOnly: true}, `touch ws-file; echo scratch > "$TMPDIR/t" && cat "$TMPDIR/t"; cat <<EOF
$(head -c 100000 /dev/zero | tr '\0' x)
EOF
`)
	if _, err := os.Stat(filepath.Join(w.ws, "ws-file")); err == nil {
		t.Fatalf("want no write in the workspace, got one (%+v)", r)
	}
	if entries, _ := os.ReadDir(w.tmp); len(entries) != 0 {
		t.Fatalf("want the real temp directory untouched, got %v", entries)
	}
	if !strings.HasPrefix(r.stdout, "scratch\nxxx") {
		t.Fatalf("want a private temp directory (and big here-documents) to work, got %q", r.stdout[:min(len(r.stdout), 40)])
	}
}

func TestSignalReachesTheCommandsGroup(t *testing.T) {
	w := newWorld(t)
	p, outR := w.start(t, "sleep 30 & echo started; wait")
	line := make([]byte, 8)
	if _, err := io.ReadFull(outR, line); err != nil || string(line) != "started\n" {
		t.Fatalf("want started, got %q %v", line, err)
	}
	if !p.Signal(syscall.SIGKILL) {
		t.Fatal("want the group signalled")
	}
	if e := p.Wait(); e.Signal != syscall.SIGKILL {
		t.Fatalf("want death by SIGKILL, got %+v", e)
	}
	io.Copy(io.Discard, outR) // returns once the sleep, holding the pipe, died with the group
	p.Release()
}

// BenchmarkSandbox measures what the sandbox adds to starting a command:
// bash -c true confined (the helper already running, as after Prewarm)
// against the same command started directly. The confined command also
// tries to write outside the workspace, which must be refused.
func BenchmarkSandbox(b *testing.B) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		b.Skip("bash is not installed")
	}
	ws, outside := b.TempDir(), b.TempDir()
	b.Run("confined", func(b *testing.B) {
		sb := New(Options{Workspace: ws, TempDir: b.TempDir(), Home: b.TempDir()})
		defer sb.Close()
		requireSandbox(b, sb) // a helper waits for the probe that Status starts
		devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer devnull.Close()
		for b.Loop() {
			p, err := sb.Start(Command{Path: bash, Args: []string{"bash", "-c", `true 2>/dev/null >"$OUT/probe"; true`}, Dir: ws,
				Env: []string{"OUT=" + outside}, Stdout: devnull, Stderr: devnull})
			if err != nil {
				b.Fatal(err)
			}
			if e := p.Wait(); e.Code != 0 {
				b.Fatalf("want exit 0, got %+v", e)
			}
			p.Release()
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			b.Fatalf("want nothing written outside the workspace, got %v", entries)
		}
	})
	// helper-start is the one-time cost per session and kind of
	// confinement, the probe with it, which Prewarm takes off the first
	// command's path.
	b.Run("helper-start", func(b *testing.B) {
		for b.Loop() {
			sb := New(Options{Workspace: ws, TempDir: ws, Home: b.TempDir()})
			requireSandbox(b, sb)
			sb.Close()
		}
	})
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(bash, "-c", "true")
			cmd.Dir = ws
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCommandsDieWhenTackIsKilled kills a stand-in for tack with SIGKILL:
// the sandboxed and the unconfined commands it started die too, with the
// processes that left their group.
func TestCommandsDieWhenTackIsKilled(t *testing.T) {
	requireSandbox(t, newWorld(t).sb)
	duration := fmt.Sprintf("%d.%d", 1000+os.Getpid()%1000, time.Now().UnixNano()%1_000_000)
	parent, out := testkit.StartSelf(t, "^$", doomedParentEnv+"="+duration, doomedDirEnv+"="+t.TempDir())
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "started\n" {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("want the stand-in to start a sandboxed sleep, got %q", line)
	}
	var sleeps []int
	for _, suffix := range []string{"01", "02", "11", "12"} {
		sleeps = append(sleeps, procs.Find(t, 10*time.Second, "sleep", duration+suffix))
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	for _, fd := range sleeps {
		if !procs.Exited(fd, time.Minute) {
			t.Fatal("want the sandboxed sleep to die with its parent within a minute")
		}
	}
}

func TestCommandsMaySignalEachOther(t *testing.T) {
	w := newWorld(t)
	victim, outR := w.start(t, "echo $$; exec sleep 300")
	defer victim.Release()
	pid, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if r := w.run(t, Confinement{}, "kill -TERM "+strings.TrimSpace(pid)); r.exit.Code != 0 {
		t.Fatalf("want one command able to signal another, as on one machine; got %+v", r)
	}
	if e := victim.Wait(); e.Signal != syscall.SIGTERM {
		t.Fatalf("want the victim dead by SIGTERM, got %+v", e)
	}
}

// A session that ends while its helper is still starting (Prewarm has
// just begun) does not wait for it: Close returns at once, and the helper
// that comes up afterwards is closed instead of kept.
func TestCloseDoesNotWaitForAHelperStillStarting(t *testing.T) {
	sb := New(Options{Workspace: t.TempDir()})
	sl := &slot{}
	sb.p.slots = map[helperKind]*slot{{}: sl}
	sl.mu.Lock() // as helperOf holds it while a helper starts
	closed := make(chan struct{})
	go func() { sb.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("want Close to return while a helper is starting, it waits for it")
	}
	if sb.setHelper(sl, &helperProc{}) {
		t.Fatal("want a helper that came up after Close refused")
	}
	sl.mu.Unlock()
	if _, err := sb.helper(Confinement{}); !errors.Is(err, errClosed) {
		t.Fatalf("want no helper started after Close, got %v", err)
	}
}

// A prewarm's goroutine may run only after the session closed the
// sandbox; it then starts no helper, and makes no cache directory in a
// home its owner may be removing.
func TestAClosedSandboxStartsNoHelperAndMakesNoCache(t *testing.T) {
	caches := filepath.Join(t.TempDir(), "caches")
	sb := New(Options{Workspace: t.TempDir(), Caches: caches, Disabled: "not needed"})
	sb.Close()
	if _, err := sb.helper(Confinement{}); !errors.Is(err, errClosed) {
		t.Errorf("want the closed sandbox to refuse a helper, got %v", err)
	}
	if _, err := os.Stat(caches); !os.IsNotExist(err) {
		t.Errorf("want no cache directory made after Close, got %v", err)
	}
}
