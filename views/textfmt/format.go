package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Compact formats a token count for narrow displays: below 1,000 as is,
// below 10,000 with one decimal (`1.3k`), below a million in whole
// thousands (`42k`), beyond that in millions with one decimal (`1.2m`) or
// whole millions from 100m. Values round half away from zero and move to
// the next unit instead of printing `10.0k` or `1000k`.
func Compact(n int) string {
	if n < 0 {
		return "-" + Compact(-n)
	}
	if n < 1000 {
		return strconv.Itoa(n)
	}
	if t := roundDiv(n, 100); t < 100 {
		return fmt.Sprintf("%d.%dk", t/10, t%10)
	}
	if k := roundDiv(n, 1000); k < 1000 {
		return fmt.Sprintf("%dk", k)
	}
	if t := roundDiv(n, 100_000); t < 1000 {
		return fmt.Sprintf("%d.%dm", t/10, t%10)
	}
	return fmt.Sprintf("%dm", roundDiv(n, 1_000_000))
}

func roundDiv(n, d int) int { return (n + d/2) / d }

// Thousands formats n with comma thousands separators: `1,250`.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Duration formats an elapsed time for timing footers: tenths of a second
// below a minute (`1.0s`, `0.4s`), then minutes and seconds (`2m03s`), then
// hours and minutes (`1h05m`). Negative durations print as zero.
func Duration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Minute-50*time.Millisecond {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	s := int64(math.Round(d.Seconds()))
	if s < 3600 {
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	m := s / 60
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}

// Seconds formats an elapsed time in whole seconds for live timers and
// summaries: `0s`, `42s`, then as Duration (`2m03s`, `1h05m`).
func Seconds(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Minute-500*time.Millisecond {
		return fmt.Sprintf("%ds", int64(math.Round(d.Seconds())))
	}
	return Duration(d)
}

// Delay formats a wait before a retry: milliseconds below a second
// (`500ms`), otherwise as Duration (`2.0s`).
func Delay(d time.Duration) string {
	if d >= 0 && d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return Duration(d)
}

// Cost formats a price in US dollars: four decimals below one dollar
// (`$0.0123`), two from there on (`$1.23`).
func Cost(usd float64) string {
	if usd < 1 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// HomeRel shows path relative to the home directory as `~` or `~/rest`; any
// other path, or an empty home, is returned unchanged.
func HomeRel(path, home string) string {
	home = strings.TrimRight(home, "/")
	switch {
	case home == "":
		return path
	case path == home:
		return "~"
	case strings.HasPrefix(path, home+"/"):
		return "~" + path[len(home):]
	}
	return path
}
