package markdown

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/theme"
)

// flag is an attribute a style may set on, set off, or leave to its
// parent.
type flag uint8

const (
	inherit flag = iota
	on
	off
)

// style is how one element is drawn: attributes that cascade from the
// enclosing block unless the element sets them, and the text an element
// writes around itself. fg is a palette index plus one; zero inherits.
type style struct {
	fg                              int
	underline, bold, italic, strike flag

	// blockPrefix and blockSuffix are written in the enclosing block's
	// attributes, prefix and suffix in the element's own; format wraps
	// the element's text, `{{.text}}` standing for it.
	blockPrefix, blockSuffix, prefix, suffix, format string
}

// cascade returns child drawn inside parent: the attributes child leaves
// unset come from parent, and with toBlock so do the texts it leaves empty.
func cascade(parent, child style, toBlock bool) style {
	s := child
	if s.fg == 0 {
		s.fg = parent.fg
	}
	for _, f := range []struct{ p, c *flag }{
		{&parent.underline, &s.underline}, {&parent.bold, &s.bold},
		{&parent.italic, &s.italic}, {&parent.strike, &s.strike},
	} {
		if *f.c == inherit {
			*f.c = *f.p
		}
	}
	if toBlock {
		for _, t := range []struct{ p, c *string }{
			{&parent.blockPrefix, &s.blockPrefix}, {&parent.blockSuffix, &s.blockSuffix},
			{&parent.prefix, &s.prefix}, {&parent.suffix, &s.suffix}, {&parent.format, &s.format},
		} {
			if *t.c == "" {
				*t.c = *t.p
			}
		}
	}
	return s
}

// attrs is the style without its texts: what a block passes on.
func (s style) attrs() style {
	return style{fg: s.fg, underline: s.underline, bold: s.bold, italic: s.italic, strike: s.strike}
}

// sgr is the escape sequence that selects the style's attributes.
func (s style) sgr() ansi.Style {
	var a ansi.Style
	if s.fg > 0 {
		a = a.ForegroundColor(ansi.BasicColor(s.fg - 1))
	}
	if s.underline == on {
		a = a.Underline(true)
	}
	if s.bold == on {
		a = a.Bold()
	}
	if s.italic == on {
		a = a.Italic(true)
	}
	if s.strike == on {
		a = a.Strikethrough(true)
	}
	return a
}

// styles are the looks of every element of one Renderer.
type styles struct {
	document, quote                  style
	heading                          [7]style // by level; 0 is shared by all
	emph, strong, strike             style
	rule, item, enumeration          style
	link, linkText, image, imageText style
	code, codeBlock                  style
	ticked, unticked                 string
}

// newStyles recolours glamour's dark style, which tack's look started
// from, with palette indexes and without any background, so the output
// uses only the 16 ANSI colours and the default background; on a light
// background the accent and code colours are the darker ones. Without
// colour only the attributes are set (Render strips them), and headings
// keep their # markers, which are then all that sets them apart.
func newStyles(colour, dim bool, bg theme.Background) styles {
	fg := func(index int) int {
		if !colour {
			return 0
		}
		return index + 1
	}
	accent, code := fg(13), fg(6)
	if bg == theme.Light {
		accent, code = fg(5), fg(4)
	}
	s := styles{
		document: style{blockPrefix: "\n", blockSuffix: "\n"},
		// Faint is added to each line for Dim, so quotes are set apart by
		// italic as well as their bar.
		quote:       style{italic: on},
		emph:        style{italic: on},
		strong:      style{bold: on},
		strike:      style{strike: on},
		rule:        style{format: "\n--------\n"},
		item:        style{blockPrefix: "• "},
		enumeration: style{blockPrefix: ". "},
		link:        style{fg: accent, underline: on},
		linkText:    style{fg: accent, bold: on},
		image:       style{fg: accent, underline: on},
		imageText:   style{format: "Image: {{.text}} →"},
		code:        style{fg: code},
		codeBlock:   style{fg: code},
		ticked:      "[✓] ",
		unticked:    "[ ] ",
	}
	if dim {
		s.document.italic = on
	}
	s.heading[0] = style{blockSuffix: "\n", fg: accent, bold: on}
	for level := 1; level <= 6; level++ {
		if !colour {
			s.heading[level].prefix = "###### "[6-level:]
		}
	}
	if colour {
		// Colour and bold set headings apart, as in Claude Code; the top
		// level is underlined as well.
		s.heading[1].underline = on
	}
	s.heading[6].bold = off
	return s
}
