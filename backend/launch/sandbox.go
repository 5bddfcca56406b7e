package launch

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/tools"
)

// newSandbox is the session's sandbox from the [sandbox] settings: writes
// in the workspace, the temp directory, the spill directory, the
// workspace's private build cache in the user's cache directory, the
// configured directories and those added on the command line; $TACK_HOME,
// the configured paths and those Read deny rules name unreadable, and
// those Edit deny rules name read-only. unavailable hears when it turns
// out, after the session started, that the system forbids it.
func newSandbox(o Options, c config.Sandbox, cwd, spill string, deny []permission.Rule, unavailable func(string)) *sandbox.Sandbox {
	home, tmp := o.getenv("HOME"), o.getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	so := sandbox.Options{
		Workspace: cwd,
		TempDir:   tmp,
		SpillDir:  spill,
		Writable:  append(config.ExpandHome(c.Writable, home), o.AddDirs...),
		Caches:    sandbox.CacheRoot(o.getenv),
		Home:      o.Home,
		Hidden:    append(config.ExpandHome(c.DenyRead, home), permission.Hidden(deny, cwd, home)...),
		ReadOnly:  permission.Unwritable(deny, cwd, home),
		UserHome:  home,
		OnUnavailable: func(reason string) {
			unavailable(noSandboxNotice(reason))
		},
	}
	if c.Enabled != nil && !*c.Enabled {
		so.Disabled = "the sandbox is turned off in config.toml ([sandbox] enabled = false)"
	}
	return sandbox.New(so)
}

// announceSandbox tells the user once, as the session starts, that there is
// no sandbox (and what tack does instead), or that full-access runs without
// it; then, once the front door had room for its first frame, starts the
// default helper in the background, so the first command does not wait for
// it (and probes the sandbox, if the front door has not asked yet), and
// removes the private caches of workspaces long unused.
func (s *Session) announceSandbox(mode permission.Mode, now func() time.Time, background <-chan struct{}) {
	announce := func() {
		if st := s.Sandbox.Status(); !st.Active {
			s.notify(noSandboxNotice(st.Reason))
		}
	}
	// While the sandbox's probe is to come, the notice comes when it ends,
	// without holding up the session's start.
	select {
	case <-s.Sandbox.Probed():
		announce()
	default:
		closed := make(chan struct{})
		s.closers = append(s.closers, func() { close(closed) })
		go func() {
			select {
			case <-s.Sandbox.Probed():
				announce()
			case <-closed:
			}
		}()
	}
	if w := mode.Warning(); w != "" {
		s.notify(w)
	}
	stop := inBackground(background, func() {
		s.Sandbox.Prewarm()
		s.Sandbox.TidyCaches(now())
	})
	// Before the sandbox closes: no helper starts after it closed.
	s.closers = append(s.closers, stop)
}

// inBackground runs f once background is closed (firstFrameRoom from now
// when it is nil, see Options.Background) and returns the function that
// calls it off if it has not started.
func inBackground(background <-chan struct{}, f func()) (stop func()) {
	if background == nil {
		t := time.AfterFunc(firstFrameRoom, f)
		return func() { t.Stop() }
	}
	off := make(chan struct{})
	go func() {
		select {
		case <-background:
			select {
			case <-off: // closed as well: off wins
			default:
				f()
			}
		case <-off:
		}
	}()
	return sync.OnceFunc(func() { close(off) })
}

// Probing is the sandbox's state in a permission label while its probe
// has not answered.
const Probing = "…"

// PermissionLabel is the policy's StatusLabel without waiting for the
// sandbox's probe: until it answers, the sandbox's state reads Probing in
// the modes it confines ("auto · …").
func (s *Session) PermissionLabel() string {
	select {
	case <-s.Sandbox.Probed():
	default:
		if label := s.Policy.Label(); s.Policy.Mode() != permission.FullAccess || label == permission.PlanLabel {
			return label + permission.LabelSep + Probing
		}
	}
	return s.Policy.StatusLabel()
}

// ProbeSandbox starts the sandbox's probe unless it has started, and
// returns the policy's StatusLabel once the probe has answered, or "" if
// ctx ends first. A front door calls it once its first frame is out: the
// probe forks a process, which on a loaded machine delays that frame.
func (s *Session) ProbeSandbox(ctx context.Context) string {
	s.Sandbox.Probe()
	select {
	case <-s.Sandbox.Probed():
		return s.Policy.StatusLabel()
	case <-ctx.Done():
		return ""
	}
}

// notify shows text to the user as a warning, once the agent exists.
func (s *Session) notify(text string) {
	if s.Agent != nil {
		s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: text})
	}
}

// noSandboxNotice says there is no sandbox, why, and what tack does.
func noSandboxNotice(reason string) string {
	return "No sandbox: " + reason + ". Every command asks before it runs (as in ask mode), " +
		"and runs with your full permissions once you allow it."
}

// sandboxStatus is /status's account of what commands may do.
type sandboxStatus struct{ s *Session }

// Status lists the mode, what confines commands (or why nothing
// does), the directories added to the workspace (--add-dir, /add-dir),
// where commands may write, what stays read-only or hidden, and the
// network.
func (st sandboxStatus) Status() string {
	s := st.s
	label := s.Policy.StatusLabel()
	mode := permission.ModeOfLabel(label)
	rows := [][2]string{{"Mode", label}}
	if mode != permission.PlanLabel {
		rows[0][1] += " — " + permission.Mode(mode).Summary()
	}
	status := s.Sandbox.Status()
	switch {
	case !status.Active:
		rows = append(rows, [2]string{"Sandbox", "none: " + status.Reason + "; every command asks first"})
	case !s.Policy.Sandboxed():
		rows = append(rows, [2]string{"Sandbox", "off in full-access (" + status.Mechanism + " when on)"})
	default:
		rows = append(rows, [2]string{"Sandbox", status.Mechanism})
	}
	home := ""
	if s.getenv != nil {
		home = s.getenv("HOME")
	}
	if dirs := s.Policy.Dirs(); len(dirs) > 0 {
		rows = append(rows, [2]string{"Added dirs", pathList(dirs, home, "")})
	}
	if status.Active {
		l := s.Sandbox.Layout()
		rows = append(rows,
			[2]string{"Writes", pathList(l.Writable, home, "nowhere")},
			[2]string{"Read-only", pathList(append(append([]string{}, l.Protected...), l.Pinned...), home, "nothing")},
			[2]string{"Hidden", pathList(l.Hidden, home, "nothing")},
			[2]string{"Network", networkText(s.Policy.CommandSandbox())},
		)
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-11s%s\n", r[0], r[1])
	}
	return strings.TrimRight(b.String(), "\n")
}

// networkText says whether sandboxed commands reach the network.
func networkText(g tools.Sandbox) string {
	if g.Network {
		return "on ([sandbox] network = true)"
	}
	return `off; a command asks for it with "sandbox": "network", and the user decides`
}

// pathList joins paths for /status, $HOME shown as ~.
func pathList(paths []string, home, none string) string {
	if len(paths) == 0 {
		return none
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
			p = "~" + strings.TrimPrefix(p, home)
		}
		out[i] = p
	}
	return strings.Join(out, ", ")
}
