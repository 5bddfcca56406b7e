package launch

import (
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/sandbox"
)

// newSandbox is the session's sandbox from the [sandbox] settings: writes
// in the workspace, the temp directory, the spill directory and the
// configured directories; $TACK_HOME and the configured paths unreadable.
// Its default helper starts in the background at once, so the first command
// does not wait for it.
func newSandbox(o Options, c config.Sandbox, cwd, spill string) *sandbox.Sandbox {
	home, tmp := o.getenv("HOME"), o.getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	so := sandbox.Options{
		Workspace: cwd,
		TempDir:   tmp,
		SpillDir:  spill,
		Writable:  config.ExpandHome(c.Writable, home),
		Home:      o.Home,
		Hidden:    config.ExpandHome(c.DenyRead, home),
		UserHome:  home,
	}
	if c.Enabled != nil && !*c.Enabled {
		so.Disabled = "the sandbox is turned off in config.toml ([sandbox] enabled = false)"
	}
	sb := sandbox.New(so)
	sb.Prewarm()
	return sb
}
