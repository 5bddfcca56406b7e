//go:build linux

package permission

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/bash"
)

// The bypass table, run for real: every form goes through the
// policy of auto mode (with ls, git status and go test remembered, in the
// sandbox and out of it) and the bash tool over the sandboxed executor,
// plainly and asking to leave the sandbox. The oracles are outside tack:
// the file system outside the workspace (and git's hooks and config and
// the shell's start-up file), a loopback listener the test opens, and the
// bytes a command printed. The same table in full-access must show every
// effect, so the table cannot pass by forms that do nothing here.

// effect is what a form would achieve unconfined.
type effect int

const (
	writes   effect = iota // changes a file outside the workspace or a protected one
	reads                  // prints a secret
	connects               // reaches the test's loopback listener
)

// bypass is one form. In form, OUT is a fresh path outside the workspace,
// VICTIM an existing file outside it, PORT the listener's port, TESTPID
// the test process, and NAME the base name of OUT.
type bypass struct {
	form  string
	does  effect
	needs string // a program the form needs, besides bash
	// hidden marks the forms of hiddenForms, some of which a given bash
	// version does not run (bypass_test.go reports them).
	hidden bool
}

func unhidden(form string, does effect, needs string) bypass {
	return bypass{form: form, does: does, needs: needs}
}

func bypassTable() []bypass {
	var table []bypass
	for _, f := range hiddenForms {
		table = append(table, bypass{form: strings.ReplaceAll(f, "CMD", "touch OUT"), does: writes, hidden: true})
	}
	return append(table,
		unhidden(`git -c core.fsmonitor='touch OUT #' status`, writes, "git"),
		unhidden(`git -c alias.x='!touch OUT' x`, writes, "git"),
		unhidden(`git log -1 --output=OUT`, writes, "git"),
		unhidden(`GIT_EDITOR='touch OUT #' git commit -q --allow-empty`, writes, "git"),
		unhidden(`go test -toolexec 'sh -c "touch OUT" --' .`, writes, "go"),
		unhidden(`go build -toolexec 'sh -c "touch OUT" --' .`, writes, "go"),
		unhidden(`find . -maxdepth 0 -exec sh -c 'touch OUT' \;`, writes, "find"),
		unhidden(`find VICTIM -delete`, writes, "find"),
		unhidden(`sed -n 's|x|touch OUT|e' <<< x`, writes, "sed"),
		unhidden(`sed -n '1e touch OUT' <<< x`, writes, "sed"),
		unhidden(`sed -n 'w OUT' <<< x`, writes, "sed"),
		unhidden(`sed -i s/a/b/ VICTIM`, writes, "sed"),
		unhidden(`awk 'BEGIN{system("touch OUT")}'`, writes, "awk"),
		unhidden(`awk 'BEGIN{print "touch OUT" | "sh"}'`, writes, "awk"),
		unhidden(`python3 -c 'import os; os.system("touch OUT")'`, writes, "python3"),
		unhidden(`tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='touch OUT' .`, writes, "tar"),
		unhidden(`echo x > ../NAME`, writes, ""),
		unhidden(`echo x > OUT`, writes, ""),
		unhidden(`ln -sf OUT link-NAME && echo x > link-NAME`, writes, ""),
		unhidden(`echo 'touch OUT' >> ~/.bashrc`, writes, ""),
		unhidden(`echo 'touch OUT' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`, writes, ""),
		unhidden(`git config core.fsmonitor 'touch OUT #'`, writes, "git"),
		// A harmless variable (LANG, NODE_ENV) beside one that runs code,
		// or set to what a substitution prints.
		unhidden(`LANG=C GIT_CONFIG_PARAMETERS="'core.fsmonitor'='touch OUT #'" git status`, writes, "git"),
		unhidden(`NODE_ENV=$(touch OUT) ls`, writes, ""),
		// /proc/$PPID/environ, and on up: an unconfined command's parent is
		// the supervisor, whose environment is empty; tack is one above.
		unhidden(`p=$PPID; while [ "$p" -gt 0 ]; do cat /proc/$p/environ; p=$(cut -d' ' -f4 /proc/$p/stat); done`, reads, ""),
		unhidden(`cat /proc/TESTPID/environ`, reads, ""),
		unhidden(`cat "$TACK_HOME/credentials"`, reads, ""),
		unhidden(`ls $(( '$(cat "$TACK_HOME/credentials" >&2)' ))`, reads, ""),
		unhidden(`ls </dev/tcp/127.0.0.1/PORT`, connects, ""),
		unhidden(`echo hi >/dev/tcp/127.0.0.1/PORT`, connects, ""),
		unhidden(`ls $(( '$(echo x >/dev/tcp/127.0.0.1/PORT)' ))`, connects, ""),
		unhidden(`python3 -c 'import socket; socket.create_connection(("127.0.0.1", PORT))'`, connects, "python3"),
	)
}

const credential = "sk-bypass-credential-7d1f"

// bypassWorld is one session: a workspace that is a git repository and a
// Go module, inside a root directory whose other entries are outside it;
// a private temp directory, $TACK_HOME with credentials, $HOME with a
// .bashrc, and a loopback listener.
type bypassWorld struct {
	root, ws, tmp, tackHome, userHome string
	env                               []string
	policy                            *Policy
	bash                              tools.Tool
	sb                                *sandbox.Sandbox
	ln                                net.Listener
	accepted                          chan string
	n                                 int
}

func newBypassWorld(t *testing.T, mode Mode) *bypassWorld {
	t.Helper()
	root := t.TempDir()
	w := &bypassWorld{root: root, ws: filepath.Join(root, "ws"), tmp: filepath.Join(root, "tmp"),
		tackHome: filepath.Join(root, "tack-home"), userHome: filepath.Join(root, "home"), accepted: make(chan string, 64)}
	for _, d := range []string{w.ws, w.tmp, w.tackHome, w.userHome} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(w.tackHome, "credentials"), []byte("DEEPSEEK_API_KEY="+credential+"\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(w.userHome, ".bashrc"), []byte("# rc\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(w.ws, "go.mod"), []byte("module bypass\n\ngo 1.21\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(w.ws, "p.go"), []byte("package p\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(w.ws, "p_test.go"), []byte("package p\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {}\n"), 0o644))

	path := "/usr/local/bin:/usr/bin:/bin"
	if g, err := exec.LookPath("go"); err == nil {
		path = filepath.Dir(g) + ":" + path
	}
	w.env = []string{"PATH=" + path, "HOME=" + w.userHome, "TMPDIR=" + w.tmp, "TACK_HOME=" + w.tackHome,
		"GOCACHE=" + filepath.Join(w.tmp, "gocache"), "GOPATH=" + filepath.Join(w.tmp, "gopath"),
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	if _, err := exec.LookPath("git"); err == nil {
		git := exec.Command("bash", "-c", "git init -q && git add -A && git commit -q -m init")
		git.Dir, git.Env = w.ws, w.env
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}

	var err error
	if w.ln, err = net.Listen("tcp4", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.ln.Close() })
	go func() {
		for {
			c, err := w.ln.Accept()
			if err != nil {
				return
			}
			w.accepted <- c.RemoteAddr().String()
			c.Close()
		}
	}()

	w.sb = sandbox.New(sandbox.Options{Workspace: w.ws, TempDir: w.tmp, SpillDir: filepath.Join(w.tackHome, "spill", "s"),
		Home: w.tackHome, UserHome: w.userHome})
	t.Cleanup(w.sb.Close)
	w.policy = NewPolicy(mode, interact.NewBroker())
	w.policy.SetSandbox(w.sb, false)
	w.policy.SetHomes(w.tackHome, w.userHome)
	ts := bash.New(bash.Local{Sandbox: w.sb}, bash.Options{Environ: w.env, Sandbox: w.sb, Escalator: w.policy})
	t.Cleanup(ts.Close)
	w.bash = ts.All()[0]
	return w
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// requireConfinement skips, saying why, where this system cannot confine
// commands: it runs one command to find out.
func (w *bypassWorld) requireConfinement(t *testing.T) {
	t.Helper()
	if st := w.sb.Status(); !st.Active {
		t.Skip("this system cannot confine commands: " + st.Reason)
	}
	res := w.run(t, "true", "")
	if st := w.sb.Status(); !st.Active {
		t.Skip("this system cannot confine commands: " + st.Reason)
	}
	if res.IsError {
		t.Fatalf("want a sandboxed true to run, got %q", res.Text)
	}
}

// remember allows, for the session, ls, git status and go test in the
// sandbox, with network and outside it, as a user who answered "allow for
// this session" to each would have.
func (w *bypassWorld) remember(t *testing.T) {
	t.Helper()
	defer w.answer(interact.AllowSession)()
	ctx := context.Background()
	for _, command := range []string{"ls", "git status", "go test ./..."} {
		for _, esc := range []string{"", tools.EscalateNetwork, tools.EscalateOutside} {
			if _, err := w.policy.Authorize(ctx, w.bash, w.call(command, esc)); err != nil {
				t.Fatalf("remember %q (%q): %v", command, esc, err)
			}
		}
	}
	w.policy.mu.Lock()
	defer w.policy.mu.Unlock()
	for _, esc := range []string{tools.EscalateNetwork, tools.EscalateOutside} {
		if got := w.policy.prefixes[allowKey{"bash", esc}]; len(got) != 3 {
			t.Fatalf("want ls, git status and go test remembered with %q, got %q", esc, got)
		}
	}
}

// answer answers every question of the policy with verdict until the
// returned function is called; then what asks is denied again.
func (w *bypassWorld) answer(verdict interact.Verdict) (stop func()) {
	b := interact.NewBroker()
	w.policy.broker = b
	unmount := b.Mount()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		var last int64
		for r := nextAfter(ctx, b, last); r != nil; r = nextAfter(ctx, b, last) {
			last = r.ID
			r.Decide(interact.Decision{Verdict: verdict})
		}
	}()
	return func() {
		cancel()
		unmount()
		w.policy.broker = interact.NewBroker()
	}
}

func (w *bypassWorld) call(command, esc string) tools.Call {
	args := map[string]string{"command": command, "description": "bypass form"}
	if esc != "" {
		args["sandbox"], args["justification"] = esc, "the test asks"
	}
	raw, _ := json.Marshal(args)
	w.n++
	return tools.Call{ID: "call-" + strconv.Itoa(w.n), Args: raw, Env: &tools.Env{SessionID: "s", Cwd: w.ws,
		SpillDir: filepath.Join(w.tackHome, "spill", "s"), Record: func(session.Data) error { return nil }}}
}

// run authorizes command as the agent does and runs it when allowed. The
// broker has no answerer: what asks is denied.
func (w *bypassWorld) run(t *testing.T, command, esc string) tools.Result {
	t.Helper()
	call := w.call(command, esc)
	grant, err := w.policy.Authorize(context.Background(), w.bash, call)
	if err != nil {
		return tools.Result{Text: err.Error(), IsError: true}
	}
	call.Sandbox = grant
	return w.bash.Run(context.Background(), call)
}

// instantiate fills in a form for its i-th use.
func (w *bypassWorld) instantiate(b bypass, i int) string {
	name := fmt.Sprintf("pwned-%02d", i)
	victim := filepath.Join(w.root, "victim-"+strconv.Itoa(i))
	r := strings.NewReplacer("OUT", filepath.Join(w.root, name), "NAME", name, "VICTIM", victim,
		"PORT", strconv.Itoa(w.ln.Addr().(*net.TCPAddr).Port), "TESTPID", strconv.Itoa(os.Getpid()))
	return r.Replace(b.form)
}

// plant makes the victim files of the forms, outside the workspace.
func (w *bypassWorld) plant(t *testing.T, n int) {
	for i := range n {
		must(t, os.WriteFile(filepath.Join(w.root, "victim-"+strconv.Itoa(i)), []byte("a\n"), 0o644))
	}
}

// outside is the state of everything a command must not change: the root
// without the workspace and the temp directory, plus git's hooks and
// config inside the workspace. Each path maps to its content's digest.
func (w *bypassWorld) outside(t *testing.T) map[string]string {
	t.Helper()
	state := map[string]string{}
	skip := map[string]bool{w.ws: true, w.tmp: true}
	err := filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if skip[p] {
			return filepath.SkipDir
		}
		state[p] = digest(p, d)
		return nil
	})
	must(t, err)
	for _, p := range []string{".git/config", ".git/hooks"} {
		_ = filepath.WalkDir(filepath.Join(w.ws, p), func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				state[p] = digest(p, d)
			}
			return nil
		})
	}
	return state
}

func digest(p string, d fs.DirEntry) string {
	if d.Type()&fs.ModeSymlink != 0 {
		l, _ := os.Readlink(p)
		return "link " + l
	}
	if d.IsDir() {
		return "dir"
	}
	b, _ := os.ReadFile(p)
	fi, _ := d.Info()
	return fmt.Sprintf("%x %v", sha256.Sum256(b), fi.Mode())
}

func changes(before, after map[string]string) []string {
	var out []string
	for p, a := range after {
		if b, ok := before[p]; !ok {
			out = append(out, "created "+p)
		} else if a != b {
			out = append(out, "changed "+p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, "removed "+p)
		}
	}
	return out
}

// connections is how many connections reached the listener since the
// last look: the test connects once itself and counts the ones accepted
// before its own, which the kernel queued in order.
func (w *bypassWorld) connections(t *testing.T) int {
	t.Helper()
	c, err := net.Dial("tcp4", w.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mine := c.LocalAddr().String()
	n := 0
	for addr := range w.accepted {
		if addr == mine {
			return n
		}
		n++
	}
	return n
}

// secrets are byte strings no confined command may print: the credential,
// and entries of this process's environment that commands do not get.
func (w *bypassWorld) secrets(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/environ")
	must(t, err)
	given := map[string]bool{}
	for _, e := range w.env {
		given[e] = true
	}
	out := []string{credential}
	for _, e := range strings.Split(string(raw), "\x00") {
		if len(e) >= 6 && !given[e] && !strings.HasPrefix(e, "PWD=") && !strings.HasPrefix(e, "SHLVL=") {
			out = append(out, e)
		}
	}
	if len(out) == 1 {
		t.Fatal("this test process has no environment of its own to look for")
	}
	return out
}

// leaked is the first secret out shows, or "".
func leaked(out string, secrets []string) string {
	for _, s := range secrets {
		if strings.Contains(out, s) {
			return s
		}
	}
	return ""
}

// achieved says what form achieved, in the words of a failure.
func (w *bypassWorld) achieved(t *testing.T, b bypass, before map[string]string, out string, secrets []string) string {
	t.Helper()
	var got []string
	if c := changes(before, w.outside(t)); len(c) > 0 {
		got = append(got, strings.Join(c, ", "))
	}
	if s := leaked(out, secrets); s != "" {
		got = append(got, "printed the secret "+s)
	}
	if n := w.connections(t); n > 0 {
		got = append(got, fmt.Sprintf("%d connection(s) to the listener", n))
	}
	return strings.Join(got, "; ")
}

func present(t *testing.T, b bypass) bool {
	if b.needs == "" {
		return true
	}
	if _, err := exec.LookPath(b.needs); err != nil {
		t.Logf("skipping %q: %s is not installed", b.form, b.needs)
		return false
	}
	return true
}

func TestBypassFormsAchieveNothingInTheSandbox(t *testing.T) {
	w := newBypassWorld(t, Auto)
	w.requireConfinement(t)
	w.remember(t)
	table := bypassTable()
	w.plant(t, len(table))
	secrets := w.secrets(t)
	for i, b := range table {
		if !present(t, b) {
			continue
		}
		command := w.instantiate(b, i)
		for _, esc := range []string{"", tools.EscalateOutside, tools.EscalateNetwork} {
			before := w.outside(t)
			res := w.run(t, command, esc)
			if got := w.achieved(t, b, before, res.Text, secrets); got != "" {
				t.Errorf("%q (sandbox %q): want nothing achieved in the sandbox, got: %s\nresult: %s", command, esc, got, res.Text)
			}
		}
	}
}

// The ways out of the sandbox work once the user allows them: the model's
// sandbox argument, "outside" or "network", and Claude Code's
// dangerouslyDisableSandbox.
func TestAnEscalationTheUserAllowsLeavesTheSandbox(t *testing.T) {
	w := newBypassWorld(t, Auto)
	w.requireConfinement(t)
	defer w.answer(interact.Allow)()
	out := filepath.Join(w.root, "escaped")
	if res := w.run(t, "touch "+out, tools.EscalateOutside); res.IsError || !exists(out) {
		t.Errorf("sandbox outside, allowed: want %s written, got %q", out, res.Text)
	}
	claude := filepath.Join(w.root, "escaped-claude")
	call := w.call("touch "+claude, "")
	call.Args = json.RawMessage(`{"command":"touch ` + claude + `","description":"Mark the run","dangerouslyDisableSandbox":true}`)
	grant, err := w.policy.Authorize(context.Background(), w.bash, call)
	if err != nil || !grant.Off {
		t.Fatalf("dangerouslyDisableSandbox: want the user asked and the sandbox off, got %+v, %v", grant, err)
	}
	call.Sandbox = grant
	if res := w.bash.Run(context.Background(), call); res.IsError || !exists(claude) {
		t.Errorf("dangerouslyDisableSandbox, allowed: want %s written, got %q", claude, res.Text)
	}
	port := strconv.Itoa(w.ln.Addr().(*net.TCPAddr).Port)
	if res := w.run(t, "echo hi >/dev/tcp/127.0.0.1/"+port, tools.EscalateNetwork); res.IsError || w.connections(t) == 0 {
		t.Errorf("sandbox network, allowed: want a connection, got %q", res.Text)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func TestBypassFormsAchieveTheirEffectInFullAccess(t *testing.T) {
	w := newBypassWorld(t, FullAccess)
	table := bypassTable()
	w.plant(t, len(table))
	secrets := w.secrets(t)
	idle := 0
	for i, b := range table {
		if !present(t, b) {
			continue
		}
		command := w.instantiate(b, i)
		before := w.outside(t)
		res := w.run(t, command, "")
		got := w.achieved(t, b, before, res.Text, secrets)
		want := map[effect]string{writes: "created|changed|removed", reads: "printed the secret", connects: "connection"}[b.does]
		switch {
		case matchesAny(got, strings.Split(want, "|")):
		case b.hidden:
			idle++
			t.Logf("this bash does not run the hidden command of %q: %s", command, res.Text)
		default:
			t.Errorf("%q: want it to %s unconfined (the sandbox, not an accident, stops it), got %q\nresult: %s", command, want, got, res.Text)
		}
	}
	if idle > len(hiddenForms)/4 {
		t.Errorf("want most hidden forms to run their command in real bash, %d of %d did not", idle, len(hiddenForms))
	}
}

func matchesAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
