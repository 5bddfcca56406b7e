package markdown

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"

	"github.com/tack-agent/tack/views/markdown/lexers"
	"github.com/tack-agent/tack/views/theme"
)

// codeThemes are chroma styles in chroma's `#ansi*` names, which
// highlight writes as the 16 standard colours: one that reads on a dark
// background and one for a light one, where yellow, light grey and cyan
// vanish; there, plain text and punctuation keep the terminal's own
// foreground.
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

// palette16 are the colours chroma's `#ansi*` names stand for, in the
// order of the 16 SGR foregrounds (30–37, 90–97), as chroma's terminal16
// formatter matches them.
var palette16 = [16]string{
	"#000000", "#7f0000", "#007f00", "#7f7fe0", "#00007f", "#7f007f", "#007f7f", "#e5e5e5",
	"#555555", "#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff", "#00ffff", "#ffffff",
}

// codeSGR is, per background, the SGR sequence of every token type its
// code theme styles, built on first use.
var codeSGR = map[theme.Background]func() map[chroma.TokenType]string{
	theme.Dark:  sync.OnceValue(func() map[chroma.TokenType]string { return tokenSGR(codeThemes[theme.Dark]) }),
	theme.Light: sync.OnceValue(func() map[chroma.TokenType]string { return tokenSGR(codeThemes[theme.Light]) }),
}

// tokenSGR is what chroma's terminal16 formatter writes before a token of
// each type: bold, underline, italic, then the nearest of the 16 colours.
func tokenSGR(entries chroma.StyleEntries) map[chroma.TokenType]string {
	s := chroma.MustNewStyle("tack", entries)
	out := map[chroma.TokenType]string{}
	for _, t := range s.Types() {
		e := s.Get(t)
		var b strings.Builder
		if e.Bold == chroma.Yes {
			b.WriteString("\x1b[1m")
		}
		if e.Underline == chroma.Yes {
			b.WriteString("\x1b[4m")
		}
		if e.Italic == chroma.Yes {
			b.WriteString("\x1b[3m")
		}
		if e.Colour.IsSet() {
			b.WriteString(foreground(e.Colour))
		}
		out[t] = b.String()
	}
	return out
}

func foreground(c chroma.Colour) string {
	best, dist := 0, math.MaxFloat64
	for i, hex := range palette16 {
		if d := chroma.MustParseColour(hex).Distance(c); d < dist {
			best, dist = i, d
		}
	}
	if best < 8 {
		return "\x1b[3" + strconv.Itoa(best) + "m"
	}
	return "\x1b[9" + strconv.Itoa(best-8) + "m"
}

// highlight colours code in language with the theme for bg; a language
// tack has no lexer for is plain text in the theme's text colour. Like
// chroma's terminal formatters it closes the style at every line's end.
func highlight(code, language string, bg theme.Background) string {
	lexer := lexers.Get(language)
	if lexer == nil {
		lexer = plaintext
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return code
	}
	sgr := codeSGR[bg]()
	var b strings.Builder
	for t := it(); t != chroma.EOF; t = it() {
		writeToken(&b, tokenStyle(sgr, t.Type), t.Value)
	}
	return b.String()
}

// tokenStyle finds a token's SGR as chroma's formatter does: by its type,
// its sub-category, its category, then as text.
func tokenStyle(sgr map[chroma.TokenType]string, t chroma.TokenType) string {
	for _, k := range []chroma.TokenType{t, t.SubCategory(), t.Category(), chroma.Text} {
		if s, ok := sgr[k]; ok {
			return s
		}
	}
	return sgr[chroma.Background]
}

func writeToken(b *strings.Builder, sgr, text string) {
	if sgr == "" {
		b.WriteString(text)
		return
	}
	for text != "" {
		line, rest, found := strings.Cut(text, "\n")
		if line != "" || found {
			b.WriteString(sgr + line + "\x1b[0m")
		}
		if found {
			b.WriteByte('\n')
		}
		text = rest
	}
}

// plaintext lexes code in a language without a lexer as one text token,
// as chroma's fallback lexer does.
var plaintext = chroma.MustNewLexer(&chroma.Config{Name: "fallback"}, func() chroma.Rules {
	return chroma.Rules{"root": {{Pattern: `.+`, Type: chroma.Text}, {Pattern: `\n`, Type: chroma.Text}}}
})
