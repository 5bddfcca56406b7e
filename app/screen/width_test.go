package screen

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// TestSameWidthRunesMeasureTheSameBothWays: text of ASCII, styles, links
// and sameWidth's runes, in any order, decodes into the same cells under
// wcwidth and under grapheme widths (ultraviolet's two decoders are the
// oracle).
func TestSameWidthRunesMeasureTheSameBothWays(t *testing.T) {
	for _, r := range sameWidth {
		s := string(r)
		if wc, gr := ansi.WcWidth.StringWidth(s), ansi.GraphemeWidth.StringWidth(s); wc != gr || wc < 1 {
			t.Errorf("%q (%U): wcwidth %d, grapheme width %d; want the same, at least 1", s, r, wc, gr)
		}
	}
	pieces := []string{"a", "Z", " ", "~", "\x1b[1m", "\x1b[2;33m", "\x1b[m", "\x1b]8;;https://example.com\x1b\\", "\x1b]8;;\x1b\\", "\t"}
	for _, r := range sameWidth {
		pieces = append(pieces, string(r))
	}
	rng := rand.New(rand.NewPCG(16, 2027))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		if !measuresTheSame(text) {
			t.Fatalf("%q: want it to measure the same both ways", text)
		}
		ss := uv.NewStyledString(text)
		if wc, gr := ss.Lines(ansi.WcWidth), ss.Lines(ansi.GraphemeWidth); !reflect.DeepEqual(wc, gr) {
			t.Fatalf("%q: decoded by wcwidth\n%v\nby graphemes\n%v", text, wc, gr)
		}
	}
}

// Text with any other rune above ASCII is measured by wcwidth, as the
// terminal does: wide characters, emoji, joiners, combining marks.
func TestOtherRunesAreMeasuredByWcwidth(t *testing.T) {
	for _, s := range []string{"世界", "👍", "e\u0301", "a\u200db", "❤\ufe0f", "\U0001F1E9\U0001F1EA", "ü", "\xff"} {
		if measuresTheSame("ok · " + s) {
			t.Errorf("%q: want it measured by wcwidth", s)
		}
	}
}

// A frame that measures the same both ways is measured as graphemes; one
// that does not, by wcwidth; a terminal that measures graphemes (mode
// 2027) always as graphemes.
func TestTheFramesTextPicksTheWidthMethod(t *testing.T) {
	r, _, _ := newTestRenderer(t)
	for _, c := range []struct {
		frame string
		want  ansi.Method
	}{
		{"tack\nauto · …\n> ", ansi.GraphemeWidth},
		{"tack\n👍 done\n> ", ansi.WcWidth},
		{"tack\nauto · sandboxed\n> ", ansi.GraphemeWidth},
		{"tack\ne\u0301\n> ", ansi.WcWidth},
	} {
		r.Show(view(c.frame), true)
		if r.cells.Method != c.want {
			t.Errorf("%q: want width method %v, got %v", c.frame, c.want, r.cells.Method)
		}
	}
}
