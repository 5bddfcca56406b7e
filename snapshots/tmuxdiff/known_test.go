//go:build linux

package tmuxdiff

import (
	"strings"
	"testing"
)

// A knownDifference is a way x/vt and tmux disagree that is the
// emulators', not tack's: the fewest bytes that show it, who is right and
// what it means for tack's screens and goldens.
type knownDifference struct {
	name   string
	stream string
	reason string
	// inTack recognises the difference in a row of tack's screens; nil
	// where tack's output never shows it.
	inTack func(vt, tmux []glyph) bool
	// workedAround says the screen tests' way into x/vt (vtfeed) hides
	// the difference.
	workedAround bool
}

var known = []knownDifference{
	{
		name:   "emoji sequences measured as one cluster",
		stream: "a👍🏽b❤️c👩\u200d💻d",
		reason: "x/vt measures every grapheme cluster by its grapheme width, mode 2027 or not (vt/utf8.go flushGrapheme); " +
			"tmux 3.3a measures by code point with wcwidth, joining a ZWJ sequence into one cell but not an emoji " +
			"modifier, and giving VS16 no width. Real terminals differ the same way (grapheme-aware ones as x/vt, " +
			"wcwidth ones as tmux), and tack measures with wcwidth where the terminal does not report mode 2027, " +
			"which agrees with neither for 👩‍💻: rows with these emoji are laid out differently in every terminal, " +
			"and the goldens show the grapheme-aware layout",
		inTack: emojiWidthsOnly,
	},
	{
		name:   "OSC string ended by a 0x9C byte inside a UTF-8 character",
		stream: "\x1b]2;本 title\x07X",
		reason: "x/vt's parser takes the byte 0x9C as the 8-bit string terminator even inside a UTF-8 character " +
			"(本 is e6 9c ac), ends the title there and prints the rest of it on the screen; tmux, like xterm in " +
			"UTF-8 mode, decodes UTF-8 first. tack's window title is the first prompt, so a prompt with such a " +
			"character drew garbage in x/vt alone (which may scroll the whole screen), and a link's address " +
			"would too. The screen tests feed x/vt through snapshots/testkit/vtfeed, which keeps such titles " +
			"from it and percent-encodes such addresses",
		workedAround: true,
	},
	{
		name:   "wide character at the last column with autowrap",
		stream: "\x1b[1;10H中X",
		reason: "a wide character that does not fit before the margin wraps to the next row in tmux (and xterm); " +
			"x/vt drops it. tack writes rows with autowrap off (?7l) and never past the margin",
	},
	{
		name:   "wide character past the margin with autowrap off",
		stream: "\x1b[?7l\x1b[1;9H中文字\x1b[?7h",
		reason: "with autowrap off, tmux keeps 中 in the last two columns and drops what does not fit; x/vt " +
			"loses 中 as well. tack clips its rows to the width, so it never writes past the margin",
	},
	{
		name:   "erase in line while a wrap is pending",
		stream: "\x1b[1;10HX\x1b[KY",
		reason: "after a character in the last column, x/vt's EL erases that column and cancels the pending wrap " +
			"(as xterm does); tmux keeps the character and the wrap. tack writes rows with autowrap off, where no " +
			"wrap is pending",
	},
	{
		name:   "erase with a background colour",
		stream: "\x1b[44m\x1b[2;3H\x1b[K\x1b[3;3H\x1b[3X\x1b[4;3H\x1b[J\x1b[m",
		reason: "x/vt fills erased cells with the current background (BCE); tmux 3.3a's capture-pane shows no " +
			"such cells, so whether tmux draws them is not seen here. tack never sets a background colour " +
			"(palette rule), so its erases are in the default background",
	},
	{
		name:   "SCO save and restore cursor (CSI s, CSI u)",
		stream: "ab\x1b[s\x1b[3;3Hcd\x1b[uX",
		reason: "tmux saves and restores the cursor for CSI s and CSI u; x/vt ignores both. tack's renderer " +
			"saves the cursor only with the alternate screen (mode 1049), which both honour",
	},
	{
		name:   "SGR 21",
		stream: "\x1b[21mW\x1b[m",
		reason: "tmux draws SGR 21 as a double underline (ECMA-48); x/vt takes it as no underline. tack's " +
			"styles end bold with 22 and never send 21",
	},
	{
		name:   "cursor visibility kept per screen",
		stream: "\x1b[?25l\x1b[?1049h\x1b[?25h\x1b[?1049l",
		reason: "x/vt keeps DECTCEM (?25) for each screen, so leaving the alternate screen brings back the main " +
			"screen's; tmux, like xterm, has one cursor visibility. tack shows the cursor on its way out, so " +
			"its screens agree; snapshots/term.go's CursorHidden and the PTY tests read the last ?25 tack sent " +
			"instead of x/vt's",
	},
	{
		name:   "UTF-8 inside an APC string",
		stream: "\x1b_本\x1b\\X",
		reason: "x/vt prints the UTF-8 text of an APC (or DCS) string on the screen; tmux keeps it inside the " +
			"string. tack sends no APC or DCS strings with text beyond ASCII",
	},
}

// explain returns the known difference d is.
func explain(d difference) (knownDifference, bool) {
	for _, k := range known {
		if k.inTack != nil && d.vtRow != nil && k.inTack(d.vtRow, d.tmuxRow) {
			return k, true
		}
	}
	return knownDifference{}, false
}

// emojiWidthsOnly holds when the rows have the same characters and every
// one whose width differs is an emoji sequence: one with a ZWJ, an emoji
// modifier or VS16 (the columns after it move with it).
func emojiWidthsOnly(vt, tmux []glyph) bool {
	if len(vt) != len(tmux) {
		return false
	}
	differs := false
	for i := range vt {
		if vt[i].text != tmux[i].text {
			return false
		}
		if vt[i].width != tmux[i].width {
			if !strings.ContainsAny(vt[i].text, "\u200d\ufe0f\U0001F3FB\U0001F3FC\U0001F3FD\U0001F3FE\U0001F3FF") {
				return false
			}
			differs = true
		}
	}
	return differs
}

// TestKnownDifferencesStillDiffer replays each known difference's bytes
// into x/vt and tmux and fails when the two agree: the table says what
// the emulators do now, so an entry a new x/vt or tmux made obsolete goes.
// A difference worked around must be gone the way the screen tests feed
// x/vt.
func TestKnownDifferencesStillDiffer(t *testing.T) {
	needTmux(t)
	for _, k := range known {
		t.Run(k.name, func(t *testing.T) {
			rec := recording{raw: []byte(k.stream), cols: 10, rows: 5, marks: []mark{{at: len(k.stream), check: k.name}}}
			vts, tmuxes := replay(t, rec, unfiltered)
			diffs := compare(k.name, vts[k.name], tmuxes[k.name])
			if len(diffs) == 0 {
				t.Fatalf("x/vt and tmux now agree on %q (%s): remove it from the known differences", k.stream, k.reason)
			}
			for _, d := range diffs {
				t.Log(d)
			}
			if !k.workedAround {
				return
			}
			vts, tmuxes = replay(t, rec, asTheTestsDo)
			if diffs := compare(k.name, vts[k.name], tmuxes[k.name]); len(diffs) > 0 {
				t.Errorf("want x/vt fed as the screen tests feed it to agree with tmux on %q, got:\n%s", k.stream, diffs[0])
			}
		})
	}
}
