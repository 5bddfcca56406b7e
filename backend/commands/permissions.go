package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// permissionModes are the permission modes, most restrictive first.
func permissionModes() []string { return []string{"read-only", "ask", "auto-edit", "full-access"} }

func permissionsCommand(perms Permissions) Command {
	modes := permissionModes()
	available := strings.Join(modes, ", ")
	return Command{
		Name: "permissions", Description: "Show or set the permission mode",
		Input: Input{Hint: "[mode]"}, WhileRunning: true,
		Handler: func(_ context.Context, inv Invocation) Result {
			args := strings.Fields(inv.RawInput)
			switch {
			case len(args) == 0:
				return Succeed(fmt.Sprintf("Permission mode: %s (available: %s)", perms.Mode(), available))
			case len(args) > 1 || !slices.Contains(modes, args[0]):
				return Failf("Unknown permission mode %q (available: %s)", strings.TrimSpace(inv.RawInput), available)
			}
			if err := perms.SetMode(args[0]); err != nil {
				return Failf("Could not set the permission mode to %s: %v", args[0], err)
			}
			return Succeed(fmt.Sprintf("Permission mode: %s.", args[0]))
		},
	}
}
