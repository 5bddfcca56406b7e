package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// findGit resolves the git binary: name as a path, or looked up in the
// PATH getenv gives.
func findGit(name string, getenv func(string) string) (string, bool) {
	if name == "" {
		name = "git"
	}
	if strings.ContainsRune(name, filepath.Separator) {
		fi, err := os.Stat(name)
		return name, err == nil && !fi.IsDir()
	}
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, true
		}
		if p += ".exe"; runtime.GOOS == "windows" && fileExists(p) {
			return p, true
		}
	}
	return "", false
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// gitSettings are passed on every command line (GIT_CONFIG_COUNT), so they
// hold even if the shadow repository's config is damaged: no fsmonitor
// daemon, no hooks, no automatic gc in the foreground, and ownership
// checks off for a repository that only tack uses.
var gitSettings = [][2]string{
	{"safe.directory", "*"},
	{"core.fsmonitor", "false"},
	{"core.hooksPath", os.DevNull},
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
	{"core.autocrlf", "false"},
	{"core.safecrlf", "false"},
	{"core.untrackedCache", "true"},
	// Status lists untracked files one by one (-uall); git keeps its
	// untracked cache for that mode only when this setting asks for it,
	// else it reads every directory again (350 ms at 100,000 files).
	{"status.showUntrackedFiles", "all"},
	{"core.preloadIndex", "true"},
	{"core.logAllRefUpdates", "false"},
	{"commit.gpgSign", "false"},
	{"index.version", "4"},
	// A large index is rewritten by every update-index and write-tree; a
	// split index writes only what changed (5 times less work at 100,000
	// files).
	{"core.splitIndex", "true"},
}

// attributes, in the shadow repository's info/attributes, override the
// workspace's .gitattributes: snapshots hold the bytes on disk, with no
// line-ending conversion, filter or keyword expansion.
const attributes = "* -text -filter -ident -working-tree-encoding\n"

// passEnv are the variables git may need from tack's environment. Nothing
// else passes: no GIT_* variable of the user's shell reaches the shadow
// repository.
var passEnv = []string{"PATH", "SYSTEMROOT", "TMPDIR", "TMP", "TEMP"}

// gitEnv is the whole environment of a git command on the shadow
// repository dir with work tree work.
func gitEnv(dir, work string, getenv func(string) string) []string {
	env := []string{
		"GIT_DIR=" + dir,
		"GIT_WORK_TREE=" + work,
		"GIT_INDEX_FILE=" + filepath.Join(dir, "index"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=tack", "GIT_AUTHOR_EMAIL=tack@localhost",
		"GIT_COMMITTER_NAME=tack", "GIT_COMMITTER_EMAIL=tack@localhost",
		// No user-level config, ignore or attributes file from the home
		// directory.
		"HOME=" + dir, "XDG_CONFIG_HOME=" + dir,
		"LC_ALL=C",
		"GIT_CONFIG_COUNT=" + strconv.Itoa(len(gitSettings)),
	}
	for i, kv := range gitSettings {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	for _, k := range passEnv {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// gitRunner runs git on one shadow repository.
type gitRunner struct {
	bin, dir, work string
	env            []string
}

// gitError is a failed git command, with what it printed.
type gitError struct {
	args   []string
	err    error
	stderr string
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		return fmt.Sprintf("git %s: %v", e.args[0], e.err)
	}
	return fmt.Sprintf("git %s: %s", e.args[0], msg)
}

func (e *gitError) Unwrap() error { return e.err }

// run runs git with args, stdin fed from in, and returns its stdout.
func (g *gitRunner) run(ctx context.Context, in []byte, args ...string) ([]byte, error) {
	return g.runEnv(ctx, in, nil, args...)
}

// runEnv is run with extra environment variables.
func (g *gitRunner) runEnv(ctx context.Context, in []byte, extra []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, g.bin, args...)
	cmd.Env = append(g.env[:len(g.env):len(g.env)], extra...)
	cmd.Dir = g.work // paths in and out are relative to the workspace root
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if in != nil {
		cmd.Stdin = bytes.NewReader(in)
	}
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Start()
	if err == nil {
		if ctx.Value(backgroundKey{}) != nil {
			lowerPriority(cmd.Process.Pid)
		}
		err = cmd.Wait()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &gitError{args: args, err: err, stderr: stderr.String()}
	}
	return out.Bytes(), nil
}

// backgroundKey marks a context whose git commands are background work
// (priming the store while the user types): they run at a low CPU
// priority (backgroundNice), so that they yield to the key path. On a
// loaded 2-core machine the priming's git init, status and write-tree,
// 150 ms after the start, delayed the echo of the key typed then by
// 2-27 ms.
type backgroundKey struct{}

// inBackground marks ctx's git commands as background work.
func inBackground(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

// line runs git and returns its output's first line.
func (g *gitRunner) line(ctx context.Context, in []byte, args ...string) (string, error) {
	out, err := g.run(ctx, in, args...)
	if err != nil {
		return "", err
	}
	s, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(s), nil
}

// isGitError reports whether err came from git itself, not from ctx.
func isGitError(err error) bool {
	var ge *gitError
	return errors.As(err, &ge)
}
