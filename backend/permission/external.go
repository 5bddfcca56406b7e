package permission

import "github.com/tack-agent/tack/backend/tools"

// externalRule is the mode table for tools outside tack (MCP servers').
// Their servers run outside the sandbox, so they ask unless the user
// trusts them in the config. A tool's read-only hint is its server's word:
// modes that already run things without asking (auto, full-access)
// take it, and read-only takes it as the only way a tool may run unasked.
func externalRule(m Mode, spec tools.Spec) verdict {
	switch {
	case m == FullAccess:
		return run
	case spec.ReadOnlyHint && m != Ask:
		return run
	case spec.Trusted && m != ReadOnly:
		return run
	}
	return ask
}

// plannedExternal reports whether an external tool may run while planning:
// only one that says it only reads.
func plannedExternal(spec tools.Spec) bool { return spec.ReadOnlyHint }
