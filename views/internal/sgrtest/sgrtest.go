// Package sgrtest checks rendered text against the palette rules in tests:
// only the 16 ANSI foreground colours and SGR attributes, never a
// background, never 256-colour or truecolour.
package sgrtest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

// allowed are the SGR parameters of the palette: reset, attributes and
// their resets, default foreground, and the 16 foreground colours.
func allowed(p int) bool {
	switch {
	case p >= 0 && p <= 9, p >= 21 && p <= 29, p == 39:
		return true
	case p >= 30 && p <= 37, p >= 90 && p <= 97:
		return true
	}
	return false
}

// Violation returns a description of the first SGR sequence in s that
// leaves the palette, or "" when every sequence is allowed.
func Violation(s string) string {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		if m[1] == "" {
			continue
		}
		for _, f := range strings.Split(m[1], ";") {
			head, _, _ := strings.Cut(f, ":")
			p, err := strconv.Atoi(head)
			if err != nil || !allowed(p) {
				return fmt.Sprintf("SGR %q uses parameter %q", m[0], f)
			}
		}
	}
	return ""
}

// StyleDump describes the styling of one rendered line for golden files:
// the text with each SGR sequence shown as ‹params›.
func StyleDump(line string) string {
	return sgr.ReplaceAllStringFunc(line, func(m string) string {
		return "‹" + m[2:len(m)-1] + "›"
	})
}

// HasColour reports whether any SGR sequence in s sets a colour.
func HasColour(s string) bool {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, f := range strings.Split(m[1], ";") {
			p, _ := strconv.Atoi(f)
			if (p >= 30 && p <= 38) || (p >= 40 && p <= 48) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107) {
				return true
			}
		}
	}
	return false
}
