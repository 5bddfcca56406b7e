package markdown

import (
	"bytes"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// The renderer draws a goldmark document the way glamour, which tack used
// before, drew it with tack's style, so the transcript reads the same: each
// block renders its children into a buffer of its own, then wraps that
// buffer at the width left inside it and writes it to the enclosing block,
// indented. Text is styled run by run; a run's SGR is closed at its end.

// quoteIndent is the width of the bar before a quote's lines.
const quoteIndent = 2

// nestMinWidth is the narrowest the text of a nested block gets: a quote
// or a list item nested too deep to leave that much room adds no indent
// of its own (a quote no bar, an item its marker inline). Indents without
// end would wrap the text a column at a time, and every level of a deep
// nest would wrap again all the levels inside it (160 quotes took 2.3 s
// at 60 columns, 200 quotes 4.9 s, 160 list items 0.16 s).
const nestMinWidth = 10

// codeMargin is how far a code block is indented.
const codeMargin = 2

// wrapBreaks are the characters after which a block's lines may break.
const wrapBreaks = " ,.;-+|"

// block is an element whose children render into buf, in the attributes
// of style.
type block struct {
	buf    bytes.Buffer
	style  style
	indent int    // columns the block indents its lines by
	token  string // what fills the indent; "" for spaces
	marker string // what fills the first line's indent instead, if set
}

type renderer struct {
	src    []byte
	width  int
	styles *styles
	dir    string // what relative link targets start from; see Options.Dir
	code   func(code, language string) string
	stack  []*block
	out    bytes.Buffer
}

// current is the innermost open block; parent the one around it.
func (r *renderer) current() *block { return r.stack[len(r.stack)-1] }

func (r *renderer) parent() *block {
	if len(r.stack) < 2 {
		return &block{}
	}
	return r.stack[len(r.stack)-2]
}

// parentBuf is where the innermost block writes itself when it closes.
func (r *renderer) parentBuf() *bytes.Buffer {
	if len(r.stack) < 2 {
		return &r.out
	}
	return &r.stack[len(r.stack)-2].buf
}

// available is the width left for text inside every open block.
func (r *renderer) available() int {
	w := r.width
	for _, b := range r.stack {
		w -= b.indent
	}
	return max(w, 0)
}

func (r *renderer) push(b *block) { r.stack = append(r.stack, b) }

// pop closes the innermost block: its text is wrapped at the width left
// inside it (breaking at breaks, if given) and written to the enclosing
// block, each line behind the block's indent.
func (r *renderer) pop(text, breaks string) {
	b := r.current()
	width := r.available()
	flow := lipgloss.Wrap(text, width, breaks)
	if pad := styled(b.style, " "); pad != "" {
		flow = padLines(flow, width, pad)
	}
	fill := ""
	switch {
	case b.token != "":
		fill = styled(r.parent().style, b.token)
	case b.indent > 0:
		fill = strings.Repeat(styled(r.parent().style, " "), b.indent)
	}
	first := fill
	if b.marker != "" {
		first = b.marker
	}
	indentLines(r.parentBuf(), flow, first, fill)
	r.stack = r.stack[:len(r.stack)-1]
}

func (r *renderer) document(doc ast.Node) {
	d := r.styles.document
	r.out.WriteString(styled(style{}, d.blockPrefix))
	r.push(&block{style: d.attrs()})
	r.children(doc)
	r.pop(r.current().buf.String(), wrapBreaks)
	r.out.WriteString(styled(style{}, d.blockSuffix))
}

func (r *renderer) children(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.node(c)
	}
}

func (r *renderer) node(n ast.Node) {
	w := &r.current().buf
	switch n := n.(type) {
	case *ast.Heading:
		r.heading(n)
	case *ast.Paragraph:
		r.paragraph(n)
	case *ast.TextBlock:
		r.itemText(n)
	case *ast.Blockquote:
		w.WriteString("\n")
		q := &block{style: cascade(r.current().style, r.styles.quote, false).attrs(), indent: quoteIndent, token: "│ "}
		if r.available()-quoteIndent < nestMinWidth {
			q.indent, q.token = 0, ""
		}
		r.push(q)
		r.children(n)
		r.pop(r.current().buf.String(), wrapBreaks)
	case *ast.List:
		r.list(n)
	case *ast.ListItem:
		r.listItem(n)
	case *ast.FencedCodeBlock:
		w.WriteString("\n")
		r.codeBlock(w, lines(n, r.src), string(n.Language(r.src)))
	case *ast.CodeBlock:
		w.WriteString("\n")
		r.codeBlock(w, lines(n, r.src), "")
	case *ast.ThematicBreak:
		r.text(w, "", r.styles.rule)
	case *ast.HTMLBlock:
		r.text(w, stripHTML(lines(n, r.src)), style{})
	case *east.Table:
		w.WriteString("\n")
		w.WriteString(r.table(n))
		w.WriteString("\n")
	default:
		if n.Type() == ast.TypeInline {
			r.inline(n).render(r, w, nil)
			return
		}
		r.children(n)
	}
}

func (r *renderer) heading(n *ast.Heading) {
	rules := cascade(r.styles.heading[0], r.styles.heading[min(n.Level, 6)], true)
	if n.PreviousSibling() != nil {
		r.current().buf.WriteString(styled(r.current().style, "\n"))
	}
	r.push(&block{style: cascade(r.current().style, rules, false).attrs()})
	b := r.current()
	b.buf.WriteString(styled(b.style, rules.prefix))
	r.children(n)
	parent := r.parent().style
	out := r.parentBuf()
	r.pop(b.buf.String(), "")
	out.WriteString(styled(parent, rules.blockSuffix))
}

// paragraph flows its text: line breaks in the source are spaces.
func (r *renderer) paragraph(n *ast.Paragraph) {
	if _, ok := n.Parent().(*ast.ListItem); ok {
		r.itemText(n)
		return
	}
	if n.PreviousSibling() != nil {
		r.current().buf.WriteString("\n")
	}
	r.push(&block{style: r.current().style})
	r.children(n)
	text := r.current().buf.String()
	if strings.TrimSpace(text) == "" {
		r.stack = r.stack[:len(r.stack)-1]
		return
	}
	r.pop(strings.ReplaceAll(text, "\n", " ")+"\n", "")
}

func (r *renderer) list(n *ast.List) {
	r.current().buf.WriteString("\n")
	r.push(&block{style: r.current().style})
	r.children(n)
	// A list that ends in a nested list or a code block ends its last line
	// already.
	text := r.current().buf.String()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	r.pop(text, wrapBreaks)
}

// listItem writes the item's marker, its number, a bullet or a task's box,
// before its first line and indents the lines after it, nested lists
// included, to where its text starts.
func (r *renderer) listItem(n *ast.ListItem) {
	var marker bytes.Buffer
	list := n.Parent().(*ast.List)
	if box := taskBox(n); box != nil {
		mark := r.styles.unticked
		if box.IsChecked {
			mark = r.styles.ticked
		}
		r.base(&marker, "", mark, style{}, nil)
	} else if list.IsOrdered() {
		number := list.Start
		for p := n.PreviousSibling(); p != nil; p = p.PreviousSibling() {
			number++
		}
		r.base(&marker, "", strconv.Itoa(number), r.styles.enumeration, nil)
	} else {
		r.base(&marker, "", "", r.styles.item, nil)
	}
	item := &block{style: r.current().style, indent: ansi.StringWidth(marker.String()), marker: marker.String()}
	if r.available()-item.indent < nestMinWidth {
		item.indent, item.marker = 0, ""
		item.buf.Write(marker.Bytes())
	}
	r.push(item)
	r.children(n)
	if r.current().buf.Len() == 0 {
		r.current().buf.WriteString(" ")
	}
	r.pop(r.current().buf.String(), wrapBreaks)
	if _, nested := n.LastChild().(*ast.List); !nested && n.NextSibling() != nil {
		r.current().buf.WriteString("\n")
	}
}

// itemText flows the text of a list item like a paragraph's, without the
// blank line after it; a second paragraph of the item starts a new line.
func (r *renderer) itemText(n ast.Node) {
	if n.PreviousSibling() != nil {
		r.current().buf.WriteString("\n")
	}
	r.push(&block{style: r.current().style})
	r.children(n)
	r.pop(strings.ReplaceAll(r.current().buf.String(), "\n", " "), "")
}

func taskBox(n *ast.ListItem) *east.TaskCheckBox {
	if first := n.FirstChild(); first != nil {
		if box, ok := first.FirstChild().(*east.TaskCheckBox); ok {
			return box
		}
	}
	return nil
}

// codeBlock writes highlighted code, or without colour the code in the
// code block's style, indented by codeMargin.
func (r *renderer) codeBlock(w *bytes.Buffer, code, language string) {
	fill := strings.Repeat(styled(r.current().style, " "), codeMargin)
	var text string
	if r.code != nil {
		text = r.code(code, language)
	} else {
		var b bytes.Buffer
		r.text(&b, code, r.styles.codeBlock)
		text = b.String()
	}
	// A line wider than the block wraps inside the margin, not back at
	// the column the prose starts in.
	if width := r.available() - codeMargin; width > 0 {
		text = ansi.Wrap(text, width, "")
	}
	indentLines(w, text, fill, fill)
}

func lines(n ast.Node, src []byte) string {
	var b strings.Builder
	l := n.Lines()
	for i := 0; i < l.Len(); i++ {
		seg := l.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

// indentLines writes text to w with first before its first line and fill
// before each later line that has any byte. An SGR style or hyperlink open
// at a line's end is closed before the fill and opened again after it, so
// the fill keeps its own look.
func indentLines(w *bytes.Buffer, text, first, fill string) {
	if first == "" && fill == "" {
		w.WriteString(text)
		return
	}
	pen := lipgloss.NewWrapWriter(w)
	start, line := true, 0
	for i := 0; i < len(text); i++ {
		if start {
			st, link := pen.Style(), pen.Link()
			if !st.IsZero() {
				w.WriteString(resetStyle)
			}
			if !link.IsZero() {
				w.WriteString(resetLink)
			}
			if line == 0 {
				w.WriteString(first)
			} else {
				w.WriteString(fill)
			}
			line++
			if !st.IsZero() {
				w.WriteString(st.String())
			}
			if !link.IsZero() {
				w.WriteString(setLink(link.URL, link.Params))
			}
			start = false
		}
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			_, _ = pen.Write([]byte(text[i:]))
			break
		}
		_, _ = pen.Write([]byte(text[i : i+j+1]))
		i += j
		start = true
	}
	_ = pen.Close()
}

// padLines ends every line of text narrower than width with pad, a
// styled space, as glamour padded blocks to their width in their style:
// Render trims the space again, but the line keeps its closing reset.
func padLines(text string, width int, pad string) string {
	var b strings.Builder
	for {
		line, rest, found := strings.Cut(text, "\n")
		if !found {
			b.WriteString(line)
			return b.String()
		}
		b.WriteString(line)
		if ansi.StringWidth(line) < width {
			b.WriteString(pad)
		}
		b.WriteByte('\n')
		text = rest
	}
}

// stripHTML keeps the text of raw HTML without its tags, as glamour's
// sanitiser did.
func stripHTML(s string) string {
	return strings.TrimSpace(decodeEntities(tags().ReplaceAllString(s, "")))
}
