package markdown

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit/palette"
	"github.com/tack-agent/tack/views/theme"
)

const sample = "# Title\n\nSome *emphasis*, **bold**, `code` and a [link](https://example.com).\n\n" +
	"## Steps\n\n1. first\n2. second\n\n- bullet\n\n> quoted\n\n---\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\") // greet\n}\n```\n\n" +
	"| a | b |\n|---|---|\n| 1 | 2 |\n"

func TestRenderUsesOnlyThePalette(t *testing.T) {
	for _, dim := range []bool{false, true} {
		lines := New(Options{Colour: true, Dim: dim}).Render(sample, 60)
		for _, l := range lines {
			if v := palette.Violation(l); v != "" {
				t.Fatalf("dim=%v: want only 16-colour SGR, got %s in %q", dim, v, l)
			}
		}
	}
}

func TestRenderHighlightsCodeInColour(t *testing.T) {
	out := strings.Join(New(Options{Colour: true}).Render(sample, 60), "\n")
	if !palette.HasColour(out) {
		t.Fatalf("want colours in the output, got %q", out)
	}
}

func TestRenderWithoutColourHasNoStyleAtAll(t *testing.T) {
	out := strings.Join(New(Options{}).Render(sample+"\n\n> quoted *words*, a [link](https://go.dev)", 60), "\n")
	if strings.Contains(out, "\x1b") {
		t.Fatalf("want no escape sequence at all without colour, got %q", out)
	}
	if !strings.Contains(ansi.Strip(out), "fmt.Println") {
		t.Fatalf("want the code text kept, got %q", ansi.Strip(out))
	}
}

func TestRenderFitsWidthWithoutPaddingOrBlankEnds(t *testing.T) {
	for _, width := range []int{20, 40, 80} {
		lines := New(Options{Colour: true}).Render(sample, width)
		if lines[0] == "" || lines[len(lines)-1] == "" {
			t.Fatalf("width %d: want no blank first or last line, got %q", width, lines)
		}
		for _, l := range lines {
			plain := ansi.Strip(l)
			if w := ansi.StringWidth(plain); w > width {
				t.Errorf("width %d: want lines at most %d wide, got %d: %q", width, width, w, plain)
			}
			if strings.HasSuffix(plain, " ") {
				t.Errorf("width %d: want no right padding, got %q", width, plain)
			}
		}
	}
}

func TestRenderShowsControlSequencesEscaped(t *testing.T) {
	out := strings.Join(New(Options{Colour: true}).Render("title \x1b]2;pwned\x07 here", 60), "\n")
	if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") {
		t.Fatalf("want no raw OSC, got %q", out)
	}
	if !strings.Contains(ansi.Strip(out), `\x1b]2;pwned\x07`) {
		t.Fatalf("want the escape shown as text, got %q", ansi.Strip(out))
	}
}

func BenchmarkRenderMessage(b *testing.B) {
	r := New(Options{Colour: true})
	b.ReportAllocs()
	for b.Loop() {
		if out := strings.Join(r.Render(sample, 100), "\n"); !strings.Contains(ansi.Strip(out), "fmt.Println") {
			b.Fatalf("want the sample's code rendered, got %q", out)
		}
	}
}

func TestRenderSetsQuotesInItalic(t *testing.T) {
	lines := New(Options{Colour: true}).Render("> quoted words", 60)
	if len(lines) != 1 || !strings.Contains(lines[0], "\x1b[3m") || ansi.Strip(lines[0]) != "│ quoted words" {
		t.Fatalf("want one italic quote row `│ quoted words`, got %q", lines)
	}
}

// unreadableOnWhite are the SGR foregrounds that vanish on a light
// background: yellow, cyan and light grey and white.
var unreadableOnWhite = map[string]bool{"33": true, "93": true, "36": true, "96": true, "37": true, "97": true}

func TestRenderOnALightBackgroundAvoidsColoursThatVanishOnWhite(t *testing.T) {
	src := "## Head\n\nSee `code` and [a link](https://go.dev).\n\n```go\n// greet says hello\nfunc greet(n int) string { return fmt.Sprintf(\"%d\", n) }\n```\n\n```python\n@decorator\nclass A: x = 'str' # c\n```"
	light := strings.Join(New(Options{Colour: true, Background: theme.Light}).Render(src, 80), "\n")
	for _, m := range regexp.MustCompile("\x1b\\[([0-9;]*)m").FindAllStringSubmatch(light, -1) {
		for _, p := range strings.Split(m[1], ";") {
			if unreadableOnWhite[p] {
				t.Fatalf("want no colour that vanishes on white, got SGR %q in %q", m[0], light)
			}
		}
	}
	dark := strings.Join(New(Options{Colour: true}).Render(src, 80), "\n")
	if dark == light {
		t.Fatal("want the light rendering to differ from the dark one")
	}
	if ansi.Strip(dark) != ansi.Strip(light) {
		t.Fatalf("want the same text on both backgrounds, got\n%s\nand\n%s", ansi.Strip(dark), ansi.Strip(light))
	}
}

func TestHeadingsShowWithoutTheirMarkersInColour(t *testing.T) {
	src := "# Title\n\n## Steps\n\n### Detail\n\ntext"
	lines := New(Options{Colour: true}).Render(src, 60)
	for _, want := range []string{"Title", "Steps", "Detail"} {
		found := false
		for _, l := range lines {
			plain := ansi.Strip(l)
			if strings.Contains(plain, "#") {
				t.Fatalf("want no # marker on a heading in colour, got %q in\n%s", plain, strings.Join(lines, "\n"))
			}
			if strings.TrimSpace(plain) == want {
				found = true
				if !strings.Contains(l, "\x1b[") {
					t.Fatalf("want heading %q styled, got %q", want, l)
				}
			}
		}
		if !found {
			t.Fatalf("want heading %q on a row of its own, got\n%s", want, strings.Join(lines, "\n"))
		}
	}
	plain := strings.Join(New(Options{}).Render(src, 60), "\n")
	if !strings.Contains(plain, "## Steps") {
		t.Fatalf("want the markers kept without colour, where nothing else marks a heading, got\n%s", plain)
	}
}

func TestRenderKeepsTheQuoteBarOnEveryWrappedLine(t *testing.T) {
	src := "> A long quote that goes on and on with many words so that it has to wrap over several lines.\n>\n> Second paragraph."
	for _, width := range []int{20, 40, 60} {
		lines := New(Options{Colour: true}).Render(src, width)
		for _, l := range lines {
			plain := ansi.Strip(l)
			if !strings.HasPrefix(plain, "│") {
				t.Fatalf("width %d: want every quote row behind its bar, got %q in\n%s", width, plain, plainLines(lines))
			}
			if w := ansi.StringWidth(plain); w > width {
				t.Fatalf("width %d: want rows at most %d wide, got %d: %q", width, width, w, plain)
			}
		}
	}
}

// A quote nested past the room for its bars stops adding bars: its text
// still flows in words, not a column at a time.
func TestRenderDeepQuotesKeepRoomForTheText(t *testing.T) {
	const width = 60
	lines := New(Options{Colour: true}).Render(strings.Repeat(">", 200)+" the innermost words", width)
	text := plainLines(lines)
	for _, word := range []string{"the", "innermost", "words"} {
		if !strings.Contains(text, "│ "+word+"\n") && !strings.HasSuffix(text, "│ "+word) {
			t.Fatalf("want %q whole on a row of its own, got\n%s", word, text)
		}
	}
	for _, l := range lines {
		if bars := strings.Count(ansi.Strip(l), "│"); bars > (width-nestMinWidth)/quoteIndent {
			t.Fatalf("want at most %d bars before the text, got %d in %q", (width-nestMinWidth)/quoteIndent, bars, ansi.Strip(l))
		}
	}
}

// A list item nested past the room for its indent stops indenting: it
// shows its marker where its parent's text starts, and its text still
// flows in words.
func TestRenderDeepListsKeepRoomForTheText(t *testing.T) {
	const width, depth = 60, 100
	var src strings.Builder
	for i := range depth {
		fmt.Fprintf(&src, "%s- item %d\n", strings.Repeat("  ", i), i)
	}
	lines := New(Options{Colour: true}).Render(src.String(), width)
	if len(lines) != depth {
		t.Fatalf("want an item a row, %d rows, got %d:\n%s", depth, len(lines), plainLines(lines))
	}
	for i, l := range lines {
		plain := ansi.Strip(l)
		if !strings.HasSuffix(plain, fmt.Sprintf("• item %d", i)) {
			t.Fatalf("row %d: want item %d whole behind its bullet, got %q", i, i, plain)
		}
		if indent := len(plain) - len(strings.TrimLeft(plain, " ")); indent > width-nestMinWidth {
			t.Fatalf("row %d: want at most %d columns of indent, got %d", i, width-nestMinWidth, indent)
		}
	}
}

func TestRenderShowsCodeOfUnknownLanguagesAsPlainCode(t *testing.T) {
	lines := New(Options{Colour: true}).Render("```klingon\nqapla' = 1\n```", 40)
	if len(lines) != 1 || ansi.Strip(lines[0]) != "  qapla' = 1" {
		t.Fatalf("want the code indented as it is, got %q", lines)
	}
	if strings.Count(lines[0], "\x1b[36m") != 1 {
		t.Fatalf("want the code in the theme's one text colour, got %q", lines[0])
	}
}

func TestRenderKeepsTheTextOfHTMLWithoutItsTags(t *testing.T) {
	got := plainLines(New(Options{}).Render("Press <kbd>Ctrl</kbd>+<kbd>C</kbd>.<br>\n\n<details>\n<summary>More</summary>\n<script>alert(1)</script>\n</details>", 60))
	if got != "Press Ctrl+C.\nMore" {
		t.Fatalf("want the text of the HTML only, got %q", got)
	}
}

func TestRenderSeparatesTheParagraphsOfAListItem(t *testing.T) {
	got := plainLines(New(Options{}).Render("1. one\n\n2. two\n\n   more about two\n\n3. three", 60))
	if got != "1. one\n2. two\n   more about two\n3. three" {
		t.Fatalf("want each paragraph of an item on a row of its own under its text, got %q", got)
	}
}

// Renderers share one parser; each may run on its own goroutine (run
// with -race).
func TestRenderersRenderAtTheSameTime(t *testing.T) {
	want := strings.Join(New(Options{Colour: true}).Render(sample, 60), "\n")
	var wg sync.WaitGroup
	got := make([]string, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = strings.Join(New(Options{Colour: true}).Render(sample, 60), "\n")
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Fatalf("renderer %d: want the same lines as alone, got\n%s", i, g)
		}
	}
}

func TestRenderHangsWrappedListItemsUnderTheirText(t *testing.T) {
	src := "1. first item that is long enough to wrap\n2. second\n   - nested item that wraps as well\n- [ ] a task that wraps onto a second row"
	got := plainLines(New(Options{}).Render(src, 24))
	want := "1. first item that is\n   long enough to wrap\n2. second\n   • nested item that\n     wraps as well\n\n[ ] a task that wraps\n    onto a second row"
	if got != want {
		t.Fatalf("want\n%s\ngot\n%s", want, got)
	}
}

func TestRenderWrapsLongCodeLinesInsideTheMargin(t *testing.T) {
	for _, c := range []struct{ src, margin string }{
		{"```go\nfunc Long(argumentNumberOne string, argumentNumberTwo int) error {\n\treturn nil\n}\n```", "  "},
		{"- a list\n\n  ```\n  an indented code line that is far too long\n  ```", "    "},
	} {
		for _, colour := range []bool{true, false} {
			lines := New(Options{Colour: colour}).Render(c.src, 30)
			for _, l := range lines {
				plain := ansi.Strip(l)
				if plain != "" && !strings.HasPrefix(plain, "•") && !strings.HasPrefix(plain, c.margin) {
					t.Fatalf("colour %v: want every code row inside the margin %q, got %q in\n%s", colour, c.margin, plain, plainLines(lines))
				}
				if w := ansi.StringWidth(plain); w > 30 {
					t.Fatalf("colour %v: want rows at most 30 wide, got %d: %q", colour, w, plain)
				}
			}
		}
	}
}

// A link to a file shows its address as the model wrote it (not rooted:
// "./config.go" is not "/config.go"), and with a Dir its hyperlink opens
// the file, so a click in the terminal reaches it; web and anchor links
// are left alone.
func TestLinksToFilesShowAsWrittenAndOpenTheFile(t *testing.T) {
	src := "See [the config](./config.go), [up](../README.md), ![plot](img/plot.png), [hosts](/etc/hosts), " +
		"[docs](https://go.dev/doc) and [below](#usage)."
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{"/work/proj", []string{"file:///work/proj/config.go", "file:///work/README.md", "file:///work/proj/img/plot.png",
			"file:///etc/hosts", "https://go.dev/doc"}},
		{"", []string{";./config.go\a", ";../README.md\a", ";img/plot.png\a", ";/etc/hosts\a", "https://go.dev/doc"}},
	} {
		out := strings.Join(New(Options{Colour: true, Dir: tc.dir}).Render(src, 200), "\n")
		plain := ansi.Strip(out)
		for _, shown := range []string{"the config ./config.go", "up ../README.md", "plot → img/plot.png", "hosts /etc/hosts", "below."} {
			if !strings.Contains(plain, shown) {
				t.Errorf("dir %q: want %q shown, got %q", tc.dir, shown, plain)
			}
		}
		for _, target := range tc.want {
			if !strings.Contains(out, "\x1b]8;id=") || !strings.Contains(out, target) {
				t.Errorf("dir %q: want a hyperlink to %q in %q", tc.dir, target, out)
			}
		}
		if strings.Contains(out, "#usage") {
			t.Errorf("dir %q: an anchor links nowhere, got %q", tc.dir, out)
		}
	}
}
