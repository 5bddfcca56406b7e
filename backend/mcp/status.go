package mcp

import (
	"fmt"
	"strings"
)

// StatusText is the /mcp listing: every server with its state, transport,
// tools and, for a failed one, its error and last stderr lines.
func (m *Manager) StatusText() string {
	return m.StatusTextOffering(Offering{})
}

// Offering is what of the servers' tools a session offers the model: those
// Offers takes, by the name the model knows them by (mcp__server__tool);
// By says what leaves the rest out. The zero value offers every tool.
type Offering struct {
	Offers func(tool string) bool
	By     string
}

// StatusTextOffering is StatusText for a session that offers the model
// only some of the servers' tools, as one run as an agent does: a server's
// count and tools are those offered, and the rest are listed apart with
// what leaves them out, so the listing is what the model gets.
func (m *Manager) StatusTextOffering(o Offering) string {
	text := statusText(m.Status(), o)
	m.mu.Lock()
	skipped := m.skipped
	m.mu.Unlock()
	if len(skipped) > 0 {
		text += "\n\nSkipped (fix these and restart tack):\n  " + strings.Join(skipped, "\n  ")
	}
	return text
}

// split is the tools of s o offers, and those it leaves out.
func (o Offering) split(s ServerStatus) (offered, left []string) {
	for _, t := range s.Tools {
		if o.Offers == nil || o.Offers(ToolName(s.Name, t)) {
			offered = append(offered, t)
		} else {
			left = append(left, t)
		}
	}
	return offered, left
}

// NoServersText is the /mcp listing of a session without servers.
const NoServersText = "No MCP servers are configured. Add an [mcp_servers.NAME] table to $TACK_HOME/config.toml, " +
	"a .mcp.json to the project, or a server with claude mcp add."

func statusText(servers []ServerStatus, o Offering) string {
	if len(servers) == 0 {
		return NoServersText
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MCP servers (%d)\n", len(servers))
	for _, s := range servers {
		typed := safeName(s.Name)
		fmt.Fprintf(&b, "\n%s · %s · %s", s.Name, s.State, s.Transport)
		offered, left := o.split(s)
		if s.State == StateReady {
			fmt.Fprintf(&b, " · %s", plural(len(s.Tools), "tool"))
			if len(left) > 0 {
				fmt.Fprintf(&b, ", %d offered", len(offered))
			}
		}
		b.WriteString("\n")
		if len(offered) > 0 {
			b.WriteString("  tools: " + strings.Join(offered, ", ") + "\n")
		}
		if len(left) > 0 {
			b.WriteString("  not offered (" + o.By + "): " + strings.Join(left, ", ") + "\n")
		}
		if s.Error != "" {
			b.WriteString("  error: " + s.Error + "\n")
		}
		for i, l := range s.Stderr {
			lead := "          "
			if i == 0 {
				lead = "  stderr: "
			}
			b.WriteString(lead + l + "\n")
		}
		switch s.State {
		case StateApproval:
			b.WriteString("  the project's server: you are asked to approve it at your next message\n")
		case StateDenied:
			b.WriteString("  not approved for this project; /mcp restart " + typed + " starts it for this session\n")
		case StateFailed:
			b.WriteString("  /mcp restart " + typed + " tries again\n")
		case StateDisabled:
			b.WriteString("  turned off; /mcp restart " + typed + " starts it again\n")
		case StateSignIn:
			if !s.SigningIn {
				b.WriteString("  /mcp login " + typed + " signs in (it opens your browser)\n")
			}
		}
		if s.SigningIn {
			b.WriteString("  signing in: finish in your browser; /mcp login " + typed + " starts over\n")
		}
		b.WriteString("  from " + s.Origin + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
