package markdown

import (
	"sync"

	"charm.land/glamour/v2/ansi"
	glamourstyles "charm.land/glamour/v2/styles"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/tack-agent/tack/views/theme"
)

// styleConfig starts from glamour's dark style and recolours every element
// with palette indexes, removes every background and the document margin,
// so the output uses only the 16 ANSI colours and the default background;
// on a light background the accent and code colours are the darker ones.
// Without colour, code blocks are not highlighted at all.
func styleConfig(colour, dim bool, bg theme.Background) ansi.StyleConfig {
	p := func(index string) *string {
		if !colour {
			return nil
		}
		return &index
	}
	accent, code := "13", "6"
	if bg == theme.Light {
		accent, code = "5", "4"
	}
	yes := true
	zero := uint(0)
	s := glamourstyles.DarkStyleConfig
	s.Document.Color = nil
	s.Document.Margin = &zero
	if dim {
		s.Document.Italic = &yes
	}
	// glamour ignores Faint (Render adds it for Dim), so quotes are set
	// apart by italic as well as their bar.
	s.BlockQuote.Italic = &yes
	s.Heading.Color = p(accent)
	s.H1.Prefix, s.H1.Suffix = "# ", ""
	s.H1.Color, s.H1.BackgroundColor = p(accent), nil
	s.H6.Color = p(accent)
	if colour {
		// Colour and bold set headings apart, so their # markers go, as in
		// Claude Code; the top level is underlined as well. Without colour
		// the markers are all that does.
		for _, h := range []*ansi.StyleBlock{&s.H1, &s.H2, &s.H3, &s.H4, &s.H5, &s.H6} {
			h.Prefix = ""
		}
		s.H1.Underline = &yes
	}
	s.HorizontalRule.Color = nil
	s.Link.Color = p(accent)
	s.LinkText.Color = p(accent)
	s.Image.Color = p(accent)
	s.ImageText.Color = nil
	s.Code.Prefix, s.Code.Suffix = "", ""
	s.Code.Color, s.Code.BackgroundColor = p(code), nil
	s.CodeBlock.Color = p(code)
	s.CodeBlock.Chroma = nil
	if colour {
		s.CodeBlock.Theme = codeTheme(bg)
	}
	return s
}

// codeThemes are chroma styles in chroma's `#ansi*` names, which the
// terminal16 formatter writes as the 16 standard colours: one that reads on
// a dark background and one for a light one, where yellow, light grey and
// cyan vanish; there, plain text and punctuation keep the terminal's own
// foreground. They are registered with chroma on first use.
var codeThemes = map[theme.Background]chroma.StyleEntries{
	theme.Dark: {
		chroma.Text:                "#ansiteal",
		chroma.Error:               "#ansired",
		chroma.Comment:             "#ansidarkgray",
		chroma.CommentPreproc:      "#ansibrown",
		chroma.Keyword:             "#ansiblue",
		chroma.KeywordReserved:     "#ansifuchsia",
		chroma.KeywordNamespace:    "#ansired",
		chroma.KeywordType:         "#ansipurple",
		chroma.Operator:            "#ansired",
		chroma.Punctuation:         "#ansilightgray",
		chroma.Name:                "#ansiteal",
		chroma.NameBuiltin:         "#ansifuchsia",
		chroma.NameTag:             "#ansipurple",
		chroma.NameAttribute:       "#ansiblue",
		chroma.NameClass:           "bold #ansiwhite",
		chroma.NameDecorator:       "#ansiyellow",
		chroma.NameFunction:        "#ansigreen",
		chroma.LiteralNumber:       "#ansiturquoise",
		chroma.LiteralString:       "#ansibrown",
		chroma.LiteralStringEscape: "#ansiturquoise",
		chroma.GenericDeleted:      "#ansired",
		chroma.GenericInserted:     "#ansigreen",
		chroma.GenericStrong:       "bold",
		chroma.GenericSubheading:   "#ansidarkgray",
	},
	theme.Light: {
		chroma.Error:               "#ansidarkred",
		chroma.Comment:             "italic #ansidarkgray",
		chroma.CommentPreproc:      "#ansipurple",
		chroma.Keyword:             "bold #ansidarkblue",
		chroma.KeywordReserved:     "bold #ansipurple",
		chroma.KeywordNamespace:    "#ansidarkred",
		chroma.KeywordType:         "#ansipurple",
		chroma.Operator:            "#ansidarkred",
		chroma.NameBuiltin:         "#ansipurple",
		chroma.NameTag:             "#ansidarkblue",
		chroma.NameAttribute:       "#ansidarkblue",
		chroma.NameClass:           "bold",
		chroma.NameDecorator:       "#ansipurple",
		chroma.NameFunction:        "#ansidarkgreen",
		chroma.LiteralNumber:       "#ansidarkblue",
		chroma.LiteralString:       "#ansidarkred",
		chroma.LiteralStringEscape: "#ansipurple",
		chroma.GenericDeleted:      "#ansidarkred",
		chroma.GenericInserted:     "#ansidarkgreen",
		chroma.GenericStrong:       "bold",
		chroma.GenericSubheading:   "#ansidarkgray",
	},
}

var registerCodeThemes sync.Once

// codeTheme is the name of the registered chroma style for bg.
func codeTheme(bg theme.Background) string {
	registerCodeThemes.Do(func() {
		for b, entries := range codeThemes {
			styles.Register(chroma.MustNewStyle(codeThemeName(b), entries))
		}
	})
	return codeThemeName(bg)
}

func codeThemeName(bg theme.Background) string {
	if bg == theme.Light {
		return "tack-light"
	}
	return "tack-dark"
}
