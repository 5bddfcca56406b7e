// Package statusrow draws the one-row status line above the editor: where
// the session runs, which model, what it cost, and what is queued.
package statusrow

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Status is everything the row shows. Zero values mean unknown, and an
// unknown piece vanishes with its separator.
type Status struct {
	Cwd, Home string
	Branch    string
	Model     string
	Effort    string
	// Uncached, CacheRead and Output are session token totals.
	Uncached, CacheRead, Output int
	// ContextPct is the share of the context window in use; negative when
	// unknown.
	ContextPct int
	// Cost is in US dollars; zero hides it.
	Cost float64
	// OffPeak says the model's off-peak rate is in force; it follows the
	// cost.
	OffPeak bool
	// Queued counts steering messages waiting for the running turn.
	Queued int
	// Mode is a permission mode badge shown when it is not the default.
	Mode string
	// PlanMode shows a `plan` badge.
	PlanMode bool
}

// Render returns the row at width. The right side (queued count and
// badges) always wins; the left side is clipped to what remains.
func Render(s Status, width int, th theme.Theme) string {
	right := rightSide(s, th)
	rw := ansi.StringWidth(right)
	if rw >= width {
		return ansi.Truncate(right, width, "")
	}
	left := ""
	if lt := leftText(s); lt != "" {
		left = th.Dim.Render(lt)
	}
	room := width - rw
	if right != "" {
		room-- // one column between the sides
	}
	left = ansi.Truncate(left, max(room, 0), "…")
	gap := width - ansi.StringWidth(left) - rw
	if right == "" {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

// leftText is `~/proj (main)  model effort  ↑in ↓out  cache N%  N% context  $cost [off-peak]`.
func leftText(s Status) string {
	var parts []string
	if s.Cwd != "" {
		where := textfmt.SanitizeLine(textfmt.HomeRel(s.Cwd, s.Home))
		if s.Branch != "" {
			where += " (" + textfmt.SanitizeLine(s.Branch) + ")"
		}
		parts = append(parts, where)
	}
	if s.Model != "" {
		m := textfmt.SanitizeLine(s.Model)
		if s.Effort != "" {
			m += " " + textfmt.SanitizeLine(s.Effort)
		}
		parts = append(parts, m)
	}
	if s.Uncached+s.CacheRead+s.Output > 0 {
		parts = append(parts, "↑"+textfmt.Compact(s.Uncached)+" ↓"+textfmt.Compact(s.Output))
		if prompt := s.Uncached + s.CacheRead; prompt > 0 {
			parts = append(parts, "cache "+strconv.Itoa(s.CacheRead*100/prompt)+"%")
		}
	}
	if s.ContextPct >= 0 && (s.ContextPct > 0 || s.Uncached+s.CacheRead > 0) {
		parts = append(parts, strconv.Itoa(s.ContextPct)+"% context")
	}
	if s.Cost > 0 {
		cost := textfmt.Cost(s.Cost)
		if s.OffPeak {
			cost += " off-peak"
		}
		parts = append(parts, cost)
	}
	return strings.Join(parts, "  ")
}

func rightSide(s Status, th theme.Theme) string {
	var parts []string
	if s.PlanMode {
		parts = append(parts, th.Accent.Render("plan"))
	}
	if s.Mode != "" {
		parts = append(parts, th.Warning.Render(textfmt.SanitizeLine(s.Mode)))
	}
	if s.Queued > 0 {
		parts = append(parts, th.Warning.Render(strconv.Itoa(s.Queued)+" queued"))
	}
	return strings.Join(parts, "  ")
}
