package sandbox

import (
	"strings"
)

// SeatbeltProfile is the macOS sandbox-exec profile that confines a command
// as the Linux sandbox does: everything denied unless allowed; reads
// everywhere but the hidden paths (the exposed ones inside them excepted);
// writes in the writable roots but not the protected or pinned paths, and
// none at all for a read-only command; network only when allowed (macOS
// cannot give a command a loopback of its own, so without network even the
// host's loopback is out of reach). Later rules take precedence over
// earlier ones, so each exception follows the rule it narrows.
//
// It is generated here on every platform so that its text is tested where
// the tests run; only macOS runs it.
func SeatbeltProfile(l Layout, c Confinement) string {
	var b strings.Builder
	b.WriteString(seatbeltBase)
	b.WriteString("\n; reads\n(allow file-read*)\n")
	rule(&b, "deny file-read*", "subpath", l.Hidden)
	rule(&b, "allow file-read*", "subpath", l.Exposed)
	b.WriteString("\n; writes\n")
	if !c.ReadOnly {
		rule(&b, "allow file-write*", "subpath", l.Writable)
		rule(&b, "deny file-write*", "subpath", l.Protected)
		rule(&b, "deny file-write*", "literal", l.Pinned)
	}
	b.WriteString(`(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty"))` + "\n")
	if c.Network {
		b.WriteString("\n; network\n(allow network*)\n(allow system-socket)\n")
	}
	return b.String()
}

// seatbeltBase is what every program needs to start and look around:
// forking and running programs (which inherit the profile), signalling and
// inspecting its own processes, reading system settings and the user
// database, semaphores (Python's multiprocessing) and pseudo-terminals.
const seatbeltBase = `(version 1)
(deny default)
(allow process-exec process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow sysctl-read)
(allow user-preference-read)
(allow mach-host*)
(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))
`

// rule writes one rule over paths, each matched by filter: "subpath" for
// the subtree below a path, "literal" for exactly the path.
func rule(b *strings.Builder, action, filter string, paths []string) {
	if len(paths) == 0 {
		return
	}
	b.WriteString("(" + action)
	for _, p := range paths {
		b.WriteString(" (" + filter + " " + sbString(p) + ")")
	}
	b.WriteString(")\n")
}

// sbString quotes s as an SBPL string literal.
func sbString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
