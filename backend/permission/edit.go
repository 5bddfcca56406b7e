package permission

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/tools"
)

// Edits run without asking in auto and full-access modes when every file
// they change lies in the workspace, symlinks resolved. An edit outside it
// asks in every mode but full-access; an edit of git's internals, of
// $TACK_HOME or of a shell or git start-up file asks in every mode, since
// each of those runs programs or holds secrets beyond the edit itself.
// Read-only and plan modes refuse every edit.

// place is where an edit writes.
type place struct {
	kind placeKind
	// path is the first file that decided the kind; dir its directory.
	path, dir string
	// why explains a protected path to the user.
	why string
}

type placeKind int

const (
	inWorkspace placeKind = iota
	outsideWorkspace
	protectedFile
)

// authorizeEdit decides a call of an edit tool.
func (p *Policy) authorizeEdit(ctx context.Context, t tools.Tool, call tools.Call, shown card.Card, sub subject, must string, rec recorder) error {
	spec := t.Spec()
	p.mu.Lock()
	mode, planning, tackHome, userHome, dirs := p.mode, p.plan, p.tackHome, p.userHome, p.dirs
	p.mu.Unlock()
	switch {
	case planning:
		return planned(spec, "", rec)
	case mode == ReadOnly:
		d := &Denial{Message: string(mode) + " mode: " + spec.Name + " is not allowed. " +
			"Tell the user what you would change, or ask them to switch modes with /permissions."}
		rec.decided(interact.Deny, d.Message, "", string(mode))
		return d
	}
	cwd := ""
	if call.Env != nil {
		cwd = call.Env.Cwd
	}
	pl := placeOf(t, call, append([]string{cwd}, dirs...), tackHome, userHome)
	a := approval(spec.Name, call, shown, "")
	var allowance string
	switch pl.kind {
	case protectedFile:
		a.Remember, a.Why = "", pl.why+": "+pl.path
	case outsideWorkspace:
		if mode == FullAccess && must == "" {
			rec.decided(interact.Allow, "", "", string(mode))
			return nil
		}
		allowance = "edits in " + pl.dir
		a.Remember, a.Why = allowance, "Outside the workspace: "+pl.path
	default:
		if mode != Ask && must == "" {
			rec.decided(interact.Allow, "", "", string(mode))
			return nil
		}
		allowance = spec.Name
	}
	p.mu.Lock()
	remembered := allowance != "" && p.tools[allowance]
	p.mu.Unlock()
	switch {
	case must != "":
		a.Remember, a.Why = "", strings.TrimSpace(must+" "+a.Why)
	case remembered:
		rec.decided(interact.Allow, "", allowance, byRemembered)
		return nil
	case pl.kind != protectedFile:
		if by, ok := p.allowed(ctx, call, sub); ok {
			rec.decided(interact.Allow, "", "", by)
			return nil
		}
	}
	// The person deciding sees the change in the file as it is now.
	if pv, ok := t.(tools.Previewer); ok && call.Env != nil {
		if c, ok := pv.Preview(call); ok {
			a.Card = &c
		}
	}
	verdict, err := p.ask(ctx, a, rec)
	if err == nil && verdict == interact.AllowSession {
		p.rememberTool(a.Remember)
	}
	return err
}

// placeOf is where call of t writes: the most guarded place any of its
// files lies in. workspace is the session's directory (relative paths
// are from it), then the directories that count as it. A tool that names
// no files edits the workspace.
func placeOf(t tools.Tool, call tools.Call, workspace []string, tackHome, userHome string) place {
	tt, ok := t.(tools.Targeter)
	if !ok {
		return place{}
	}
	cwd := workspace[0]
	var roots []string
	for _, d := range workspace {
		if d != "" {
			roots = append(roots, realPath(d))
		}
	}
	home, th := realPath(userHome), realPath(tackHome)
	best := place{}
	for _, target := range tt.Targets(call) {
		if target == "" {
			continue
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cwd, target)
		}
		path := realPath(target)
		pl := place{path: path, dir: filepath.Dir(path)}
		switch {
		case slices.Contains(strings.Split(path, string(filepath.Separator)), ".git"):
			pl.kind, pl.why = protectedFile, "Inside git's own files, whose hooks and config run programs"
		case th != "" && within(path, th):
			pl.kind, pl.why = protectedFile, "Inside $TACK_HOME (credentials, sessions, settings)"
		case sandbox.StartupFile(path, home):
			pl.kind, pl.why = protectedFile, "A shell or git start-up file, which runs when you open a terminal"
		case !slices.ContainsFunc(roots, func(root string) bool { return within(path, root) }):
			pl.kind = outsideWorkspace
		}
		if pl.kind > best.kind || best.path == "" {
			best = pl
		}
	}
	return best
}

// realPath is p made absolute and clean with the symlinks of its longest
// existing prefix resolved, so that a link out of the workspace counts
// where it leads.
func realPath(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); err == nil {
			if r, err := filepath.EvalSymlinks(dir); err == nil {
				return filepath.Join(r, rest)
			}
			return abs
		}
		if parent := filepath.Dir(dir); parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// Covers reports whether path is root or lies below it, both with their
// symlinks resolved as edits resolve them: whether an edit of path counts
// as one in root.
func Covers(root, path string) bool { return within(realPath(path), realPath(root)) }

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+string(filepath.Separator))
}
