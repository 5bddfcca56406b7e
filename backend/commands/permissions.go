package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/permission"
)

// permissionsCommand shows the mode and what it allows, or sets one. A mode
// that drops the sandbox says so with a warning line.
func permissionsCommand(perms Permissions) Command {
	available := permission.ModeNames()
	return Command{
		Name: "permissions", Description: "Show or set the permission mode",
		Input: Input{Hint: "[mode]"}, WhileRunning: true,
		Handler: func(_ context.Context, inv Invocation) Result {
			args := strings.Fields(inv.RawInput)
			if len(args) == 0 {
				return Succeed(fmt.Sprintf("Permission mode: %s (available: %s)", perms.Mode(), available) + rulesText(perms.Rules()))
			}
			m, err := permission.ParseMode(args[0])
			if len(args) > 1 || err != nil {
				return Failf("Unknown permission mode %q (available: %s)", strings.TrimSpace(inv.RawInput), available)
			}
			if err := perms.SetMode(string(m)); err != nil {
				return Failf("Could not set the permission mode to %s: %v", m, err)
			}
			text := fmt.Sprintf("Permission mode: %s — %s.", m, m.Summary())
			if w := m.Warning(); w != "" {
				text += "\n" + w
			}
			return Succeed(text)
		},
	}
}

// rulesText lists the permission rules under the mode, deny first, as
// they take precedence; "" when there are none.
func rulesText(r permission.Rules) string {
	var b strings.Builder
	for _, list := range []struct {
		kind  string
		rules []permission.Rule
	}{{"deny", r.Deny}, {"ask", r.Ask}, {"allow", r.Allow}} {
		for _, rule := range list.rules {
			fmt.Fprintf(&b, "\n  %-5s  %s  (%s", list.kind, rule.Entry, rule.Source)
			if rule.Project && list.kind == "allow" {
				b.WriteString(", once you approve it")
			}
			b.WriteString(")")
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\nRules:" + b.String()
}
