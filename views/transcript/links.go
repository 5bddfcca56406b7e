package transcript

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/markdown"
)

// webAddress finds the http and https addresses in a notice's text; the
// punctuation a sentence puts after one is not part of it.
var webAddress = regexp.MustCompile(`https?://[^\s<>"'` + "`" + `]+[^\s<>"'` + "`" + `.,;:!?)\]]`)

// nbHyphen stands for an address's hyphens while its line is wrapped:
// the wrap breaks at every hyphen, which would cut an address that fits
// on a row ("https://api-" / "docs.…") where a copy of it breaks.
const nbHyphen = "\u2011"

// linkAddresses makes each web address in line an OSC 8 hyperlink, so
// that a terminal opens it with a click even where it wraps: a sign-in
// address, a server's error page. Its hyphens are nbHyphen until
// keepHyphens puts them back.
func linkAddresses(line string) string {
	if !strings.Contains(line, "://") {
		return line
	}
	return webAddress.ReplaceAllStringFunc(line, func(addr string) string {
		open, ok := markdown.Hyperlink(addr)
		if !ok {
			return addr
		}
		return open + strings.ReplaceAll(addr, "-", nbHyphen) + ansi.ResetHyperlink()
	})
}

// carryLinks closes a hyperlink still open at the end of a wrapped row
// and opens it again where the next row's text starts, so that each row,
// drawn on its own, links the part of the address it holds.
func carryLinks(rows []string) []string {
	open := ""
	for i, row := range rows {
		if open != "" {
			lead := len(row) - len(strings.TrimLeft(row, " "))
			row = row[:lead] + open + row[lead:]
		}
		open = openLink(row)
		if open != "" {
			row += ansi.ResetHyperlink()
		}
		rows[i] = row
	}
	return rows
}

// openLink is the sequence that opened the hyperlink still open at the
// end of row, "" when none is. The rows are linkAddresses' over sanitized
// text: every sequence in them is an OSC 8 ended by BEL.
func openLink(row string) string {
	open := ""
	for {
		i := strings.Index(row, "\x1b]8;")
		if i < 0 {
			return open
		}
		end := strings.IndexByte(row[i:], '\a')
		if end < 0 {
			return open
		}
		if seq := row[i : i+end+1]; seq == ansi.ResetHyperlink() {
			open = ""
		} else {
			open = seq
		}
		row = row[i+end+1:]
	}
}

// keepHyphens puts back the hyphens of the addresses in a wrapped row.
func keepHyphens(row string) string { return strings.ReplaceAll(row, nbHyphen, "-") }
