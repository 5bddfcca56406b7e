package sandbox

import (
	"path/filepath"
	"strings"
)

// Refusal kinds: what a command would need to get past the sandbox.
const (
	// RefusedNetwork: the command tried the network, which is off.
	RefusedNetwork = "network"
	// RefusedOutside: the command tried to write where the sandbox allows
	// no writes.
	RefusedOutside = "outside"
	// RefusedReadOnly: the command tried to write in a read-only sandbox
	// (read-only or plan mode); only another mode allows it.
	RefusedReadOnly = "read-only"
)

// Refusal is what the sandbox refused a command, as read from the errors
// it printed. Kind is "" when nothing in the output points at the sandbox.
type Refusal struct {
	Kind string
	// Detail says what was refused: "network access (Could not resolve
	// host)", "a write to /etc/hosts".
	Detail string
	// Writable is, for a write refused outside the writable directories,
	// the entry of [sandbox] writable that would allow it ("~/.local/share"):
	// the directory that holds the path. Empty where adding one would not
	// help (a protected path inside a writable directory) or would let
	// every command write too much (the home or the root directory).
	Writable string
}

// networkSigns are what programs print when the network is not there.
var networkSigns = []string{
	"Could not resolve host", "Could not resolve hostname", "Temporary failure in name resolution",
	"Name or service not known", "Network is unreachable", "network is unreachable",
	"No address associated with hostname", "getaddrinfo ENOTFOUND", "getaddrinfo EAI_AGAIN",
	"dial tcp: lookup", "Failed to establish a new connection", "nodename nor servname provided",
}

// writeSigns are what programs print when a write is refused: C's
// strerror, and the lower-case forms Go and Node print ("mkdir
// /home/u/.cache: permission denied"). "Device or resource busy" is a
// rename onto a protected file, which is a mount point.
var writeSigns = []string{
	"Permission denied", "Read-only file system", "Operation not permitted", "Device or resource busy",
	"permission denied", "read-only file system", "operation not permitted",
}

// Refusal reads output (stdout and stderr of a command that failed, run
// in workdir under c) for signs of the sandbox refusing it something.
func (s *Sandbox) Refusal(c Confinement, workdir, output string) Refusal {
	if !c.Network {
		for _, sign := range networkSigns {
			if strings.Contains(output, sign) {
				return Refusal{Kind: RefusedNetwork, Detail: "network access (" + sign + ")"}
			}
		}
	}
	l := s.Layout()
	for _, line := range strings.Split(output, "\n") {
		if !hasAny(line, writeSigns) {
			continue
		}
		for _, p := range pathsIn(line, workdir) {
			if !writableOutside(p) {
				continue // refused outside the sandbox too: not the sandbox's doing
			}
			switch {
			case c.ReadOnly:
				return Refusal{Kind: RefusedReadOnly, Detail: "a write to " + p}
			case !l.writable(p) || l.protects(p):
				return Refusal{Kind: RefusedOutside, Detail: "a write to " + p, Writable: s.writableEntry(p, l)}
			}
		}
	}
	return Refusal{}
}

// writableEntry is Refusal.Writable for a write to path refused outside
// the writable directories of l: path's directory (path itself when it is
// one), written as config.toml takes it, with ~ for the home.
func (s *Sandbox) writableEntry(path string, l Layout) string {
	if l.protects(path) {
		return ""
	}
	dir := path
	if !isDir(path) {
		dir = filepath.Dir(path)
	}
	home := resolved(s.opts.UserHome)
	if dir == string(filepath.Separator) || dir == home {
		return ""
	}
	if home != "" && home != string(filepath.Separator) && within(dir, home) {
		if rel, err := filepath.Rel(home, dir); err == nil {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return dir
}

// protects reports whether path is protected or pinned.
func (l *Layout) protects(path string) bool {
	for _, p := range append(append([]string{}, l.Protected...), l.Pinned...) {
		if within(path, p) {
			return true
		}
	}
	return false
}

func hasAny(s string, signs []string) bool {
	for _, sign := range signs {
		if strings.Contains(s, sign) {
			return true
		}
	}
	return false
}

// pathsIn finds the file names an error line mentions: quoted names
// ('x', "x", `x'), bare absolute paths and the name just before the error,
// made absolute against workdir.
func pathsIn(line, workdir string) []string {
	var out []string
	add := func(p string) {
		p = strings.TrimRight(p, ":,.;)")
		if p == "" || strings.ContainsAny(p, " \t") && !filepath.IsAbs(p) {
			return
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(workdir, p)
		}
		out = append(out, filepath.Clean(p))
	}
	for _, q := range []string{"'", `"`, "`", "‘"} {
		rest := line
		for {
			i := strings.Index(rest, q)
			if i < 0 {
				break
			}
			closer := q
			if q == "‘" {
				closer = "’"
			}
			j := strings.Index(rest[i+len(q):], closer)
			if j < 0 {
				break
			}
			add(rest[i+len(q) : i+len(q)+j])
			rest = rest[i+len(q)+j+len(closer):]
		}
	}
	for _, f := range strings.Fields(line) {
		if strings.HasPrefix(f, "/") {
			add(f)
		}
	}
	// "bash: line 1: ../x: Permission denied", "could not write config
	// file .git/config: Device or resource busy": the name just before the
	// error.
	for _, sign := range writeSigns {
		i := strings.Index(line, ": "+sign)
		if i <= 0 {
			continue
		}
		seg := line[:i]
		if j := strings.LastIndex(seg, ": "); j >= 0 {
			seg = seg[j+2:]
		}
		if f := strings.Fields(seg); len(f) > 0 {
			add(f[len(f)-1])
		}
	}
	return out
}
