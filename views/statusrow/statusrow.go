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
	// Mode is the permission badge: the mode and the sandbox's state
	// ("auto · sandboxed").
	Mode string
	// PlanMode draws the badge as plan mode's; Unconfined as a warning
	// (no sandbox).
	PlanMode, Unconfined bool
}

// Render returns the row at width. The right side (queued count and
// badges) always wins; the left side gives up its least useful pieces
// until it fits in what remains (the cache share, the token totals, the
// path and branch, the off-peak mark, the effort, the model), keeping the
// context share and the cost longest, and is clipped past that.
func Render(s Status, width int, th theme.Theme) string {
	right := rightSide(s, th)
	rw := ansi.StringWidth(right)
	if rw >= width {
		return ansi.Truncate(right, width, "")
	}
	room := width - rw
	if right != "" {
		room -= 2 // two columns between the sides, as between the parts
	}
	left := ""
	if lt := fit(leftParts(s), max(room, 0)); lt != "" {
		left = th.Dim.Render(lt)
	}
	left = ansi.Truncate(left, max(room, 0), "…")
	gap := width - ansi.StringWidth(left) - rw
	if right == "" {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

// part is one piece of the left side; the piece of the lowest rank goes
// first when the row is too narrow.
type part struct {
	text string
	rank int
}

const (
	rankCache = iota
	rankTokens
	rankWhere
	rankOffPeak
	rankEffort
	rankModel
	rankCost
	rankContext
)

// fit joins the parts in order, leaving out the lowest-ranked ones until
// the text is at most width wide; the last one left may still be wider.
func fit(parts []part, width int) string {
	for {
		text := join(parts)
		if ansi.StringWidth(text) <= width || len(parts) <= 1 {
			return text
		}
		low := 0
		for i, p := range parts {
			if p.rank < parts[low].rank {
				low = i
			}
		}
		parts = append(parts[:low:low], parts[low+1:]...)
	}
}

// join is the parts separated by two spaces; the off-peak mark and the
// effort follow what they qualify after one.
func join(parts []part) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			if p.rank == rankOffPeak || p.rank == rankEffort {
				b.WriteString(" ")
			} else {
				b.WriteString("  ")
			}
		}
		b.WriteString(p.text)
	}
	return b.String()
}

// leftParts are `~/proj (main)  model effort  ↑in ↓out  cache N%  N% context  $cost [off-peak]`.
func leftParts(s Status) []part {
	var parts []part
	if s.Cwd != "" {
		where := textfmt.SanitizeLine(textfmt.HomeRel(s.Cwd, s.Home))
		if s.Branch != "" {
			where += " (" + textfmt.SanitizeLine(s.Branch) + ")"
		}
		parts = append(parts, part{where, rankWhere})
	}
	if s.Model != "" {
		parts = append(parts, part{textfmt.SanitizeLine(s.Model), rankModel})
		if s.Effort != "" {
			parts = append(parts, part{textfmt.SanitizeLine(s.Effort), rankEffort})
		}
	}
	if s.Uncached+s.CacheRead+s.Output > 0 {
		parts = append(parts, part{"↑" + textfmt.Compact(s.Uncached) + " ↓" + textfmt.Compact(s.Output), rankTokens})
		if prompt := s.Uncached + s.CacheRead; prompt > 0 {
			parts = append(parts, part{"cache " + strconv.Itoa(s.CacheRead*100/prompt) + "%", rankCache})
		}
	}
	if s.ContextPct >= 0 && (s.ContextPct > 0 || s.Uncached+s.CacheRead > 0) {
		parts = append(parts, part{strconv.Itoa(s.ContextPct) + "% context", rankContext})
	}
	if s.Cost > 0 {
		parts = append(parts, part{textfmt.Cost(s.Cost), rankCost})
		if s.OffPeak {
			parts = append(parts, part{"off-peak", rankOffPeak})
		}
	}
	return parts
}

func rightSide(s Status, th theme.Theme) string {
	var parts []string
	if s.Mode != "" {
		style := th.Dim
		switch {
		case s.Unconfined:
			style = th.Warning
		case s.PlanMode:
			style = th.Accent
		}
		parts = append(parts, style.Render(textfmt.SanitizeLine(s.Mode)))
	}
	if s.Queued > 0 {
		parts = append(parts, th.Active.Render(strconv.Itoa(s.Queued)+" queued"))
	}
	return strings.Join(parts, "  ")
}
