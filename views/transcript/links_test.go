package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

// A web address in a notice is an OSC 8 hyperlink in every row it wraps
// over, each row drawn on its own, as a terminal emulator reads it: a
// click on any piece of a long sign-in address opens all of it, and the
// text and indentation around it link nowhere.
func TestNoticeAddressesLinkOnEveryRowTheyWrapOver(t *testing.T) {
	signIn := "https://auth.example.com/authorize?client_id=tack&redirect_uri=http%3A%2F%2Flocalhost%3A33418%2Fcallback&state=f00d"
	docs := "https://example.com/docs/servers"
	errPage := "https://api-docs.example.com/error-codes"
	tr := New(Settings{Width: 40})
	tr.AddNotice("Sign in to MCP server docs at\n"+signIn+"\nthen come back.\nHelp       the server's page (see "+docs+").\nIt failed: see "+errPage+" for more.", NoticeInfo)
	linked := map[string]string{}
	for _, row := range all(tr) {
		em := vt.NewEmulator(40, 1)
		if _, err := em.WriteString(row); err != nil {
			t.Fatal(err)
		}
		for x := range 40 {
			c := em.CellAt(x, 0)
			if c == nil || c.Link.URL == "" {
				continue
			}
			if c.Content == " " || c.Content == "" {
				t.Errorf("a blank cell links to %s in row %q", c.Link.URL, row)
			}
			linked[c.Link.URL] += c.Content
		}
	}
	if len(linked) != 3 || linked[signIn] != signIn || linked[docs] != docs || linked[errPage] != errPage {
		t.Fatalf("want the cells of each address, and only those, linked to it; got %q", linked)
	}
	// An address that fits on a row is not broken at its hyphens.
	if rows := plain(all(tr)); !strings.Contains(rows, "\n"+errPage) {
		t.Errorf("want %s whole on a row of its own, got\n%s", errPage, rows)
	}
}
