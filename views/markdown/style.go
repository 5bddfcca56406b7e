package markdown

import (
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// styleConfig starts from glamour's dark style and recolours every element
// with palette indexes, removes every background and the document margin,
// so the output uses only the 16 ANSI colours and the default background.
// Without colour, code blocks are not highlighted at all.
func styleConfig(colour, dim bool) ansi.StyleConfig {
	p := func(index string) *string {
		if !colour {
			return nil
		}
		return &index
	}
	yes := true
	zero := uint(0)
	s := styles.DarkStyleConfig
	s.Document.Color = nil
	s.Document.Margin = &zero
	if dim {
		s.Document.Italic = &yes
	}
	// glamour ignores Faint (Render adds it for Dim), so quotes are set
	// apart by italic as well as their bar.
	s.BlockQuote.Italic = &yes
	s.Heading.Color = p("13")
	s.H1.Prefix, s.H1.Suffix = "# ", ""
	s.H1.Color, s.H1.BackgroundColor = p("13"), nil
	s.H6.Color = p("13")
	s.HorizontalRule.Color = nil
	s.Link.Color = p("13")
	s.LinkText.Color = p("13")
	s.Image.Color = p("13")
	s.ImageText.Color = nil
	s.Code.Prefix, s.Code.Suffix = "", ""
	s.Code.Color, s.Code.BackgroundColor = p("6"), nil
	s.CodeBlock.Color = p("6")
	s.CodeBlock.Chroma = nil
	if colour {
		s.CodeBlock.Chroma = chroma16()
	}
	return s
}

// chroma16 colours code with chroma's `#ansi*` names, which the terminal16
// formatter writes as the 16 standard colours. glamour registers these
// entries process-wide under one name on first use; every Renderer in tack
// uses this same table, so whichever registers first is the right one.
func chroma16() *ansi.Chroma {
	c := func(name string) ansi.StylePrimitive { return ansi.StylePrimitive{Color: &name} }
	bold := true
	return &ansi.Chroma{
		Text:                c("#ansiteal"),
		Error:               c("#ansired"),
		Comment:             c("#ansidarkgray"),
		CommentPreproc:      c("#ansibrown"),
		Keyword:             c("#ansiblue"),
		KeywordReserved:     c("#ansifuchsia"),
		KeywordNamespace:    c("#ansired"),
		KeywordType:         c("#ansipurple"),
		Operator:            c("#ansired"),
		Punctuation:         c("#ansilightgray"),
		Name:                c("#ansiteal"),
		NameBuiltin:         c("#ansifuchsia"),
		NameTag:             c("#ansipurple"),
		NameAttribute:       c("#ansiblue"),
		NameClass:           ansi.StylePrimitive{Color: strPtr("#ansiwhite"), Bold: &bold},
		NameDecorator:       c("#ansiyellow"),
		NameFunction:        c("#ansigreen"),
		LiteralNumber:       c("#ansiturquoise"),
		LiteralString:       c("#ansibrown"),
		LiteralStringEscape: c("#ansiturquoise"),
		GenericDeleted:      c("#ansired"),
		GenericEmph:         ansi.StylePrimitive{},
		GenericInserted:     c("#ansigreen"),
		GenericStrong:       ansi.StylePrimitive{Bold: &bold},
		GenericSubheading:   c("#ansidarkgray"),
	}
}

func strPtr(s string) *string { return &s }
