package markdown

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"html"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/tack-agent/tack/views/textfmt"
)

const (
	resetStyle = ansi.ResetStyle
	resetLink  = "\x1b]8;;\a"
)

func setLink(url, params string) string { return ansi.SetHyperlink(url, params) }

// styled is s in st's attributes, closed at its end.
func styled(st style, s string) string {
	if s == "" {
		return ""
	}
	return st.sgr().Styled(s)
}

// inline is a rendered span of text: text runs, emphasis, links, code.
// An element that takes an override draws its runs in its own style with
// override's attributes over it; links and code keep their own look.
type inline interface {
	render(r *renderer, w *bytes.Buffer, override *style)
	overridable() bool
}

// run is a span of text in a style, with texts around it.
type run struct {
	token, prefix string
	style         style
}

func (e run) overridable() bool { return true }

func (e run) render(r *renderer, w *bytes.Buffer, override *style) {
	r.base(w, e.token, e.prefix, e.style, override)
}

// base writes token in st inside the current block: prefix and st's block
// texts in the block's attributes, st's prefix, format and suffix in its
// own.
func (r *renderer) base(w *bytes.Buffer, token, prefix string, st style, override *style) {
	outer := r.current().style
	inner := cascade(outer, st, false)
	if override != nil {
		outer = cascade(outer, *override, true)
		inner = cascade(inner, *override, true)
	}
	w.WriteString(styled(outer, prefix))
	w.WriteString(styled(outer, inner.blockPrefix))
	w.WriteString(styled(inner, inner.prefix))
	if inner.format != "" {
		token = strings.ReplaceAll(inner.format, "{{.text}}", token)
	}
	w.WriteString(styled(inner, unescape.Replace(token)))
	w.WriteString(styled(inner, inner.suffix))
	w.WriteString(styled(outer, inner.blockSuffix))
}

func (r *renderer) text(w *bytes.Buffer, token string, st style) {
	r.base(w, token, "", st, nil)
}

// decodeEntities resolves HTML character references (&amp;, &#169;) and
// sanitises what they resolve to: the source was sanitised before parsing,
// but "&#27;" or "&#7;" only becomes a control byte here.
func decodeEntities(s string) string {
	return textfmt.Sanitize(html.UnescapeString(s))
}

// unescape drops the backslash of Markdown's escaped punctuation.
var unescape = strings.NewReplacer(
	`\\`, `\`, "\\`", "`", `\*`, `*`, `\_`, `_`, `\{`, `{`, `\}`, `}`, `\[`, `[`, `\]`, `]`,
	`\<`, `<`, `\>`, `>`, `\(`, `(`, `\)`, `)`, `\#`, `#`, `\+`, `+`, `\-`, `-`, `\.`, `.`,
	`\!`, `!`, `\|`, `|`,
)

// tags matches HTML tags, and script and style elements whole; like every
// regexp here it is compiled on first use, not at start-up.
var tags = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)\s*>|<[^>]*>`)
})

type emphasis struct {
	strong   bool
	children []inline
}

func (e emphasis) overridable() bool { return true }

func (e emphasis) render(r *renderer, w *bytes.Buffer, override *style) {
	st := r.styles.emph
	if e.strong {
		st = r.styles.strong
	}
	if override != nil {
		st = cascade(st, *override, true)
	}
	for _, c := range e.children {
		if c.overridable() {
			c.render(r, w, &st)
		} else {
			c.render(r, w, nil)
		}
	}
}

type codeSpan struct{ text string }

func (e codeSpan) overridable() bool { return false }

func (e codeSpan) render(r *renderer, w *bytes.Buffer, _ *style) {
	st := cascade(r.current().style, r.styles.code, false)
	w.WriteString(styled(st, st.prefix+e.text+st.suffix))
}

// link shows its text and its address, both an OSC 8 hyperlink; an
// autolink shows only its address, a mail link only its text. In a table
// only the text shows, to keep the columns narrow.
type link struct {
	url                string
	children           []inline
	skipText, skipHref bool
}

func (e link) overridable() bool { return false }

func (e link) render(r *renderer, w *bytes.Buffer, _ *style) {
	open, closeLink, valid := r.linkTo(e.url)
	if !e.skipText {
		for _, c := range e.children {
			var b bytes.Buffer
			if c.overridable() {
				c.render(r, &b, &r.styles.linkText)
				w.WriteString(open + b.String() + closeLink)
				continue
			}
			c.render(r, &b, nil)
			r.text(w, open+b.String()+closeLink, r.styles.linkText)
		}
	}
	if !e.skipHref && valid {
		prefix := ""
		if !e.skipText {
			prefix = " "
		}
		r.base(w, open+e.url+closeLink, prefix, r.styles.link, nil)
	}
}

type image struct{ text, url string }

func (e image) overridable() bool { return false }

func (e image) render(r *renderer, w *bytes.Buffer, _ *style) {
	open, closeLink, _ := r.linkTo(e.url)
	if e.text != "" {
		r.text(w, open+e.text+closeLink, r.styles.imageText)
	}
	if e.url != "" {
		r.base(w, open+e.url+closeLink, " ", r.styles.image, nil)
	}
}

type nothing struct{}

func (nothing) overridable() bool                       { return false }
func (nothing) render(*renderer, *bytes.Buffer, *style) {}

// linkTo is the OSC 8 sequences that open and close a hyperlink to url
// (a file's path from the renderer's folder), both empty where url is no
// address a terminal can open.
func (r *renderer) linkTo(url string) (open, end string, valid bool) {
	open, valid = Hyperlink(fileURL(r.dir, url))
	if !valid {
		return "", "", false
	}
	return open, resetLink, true
}

// Hyperlink opens an OSC 8 hyperlink to target, with an id so terminals
// join its pieces on wrapped lines; a bare #anchor links nowhere.
func Hyperlink(target string) (string, bool) {
	u, err := url.Parse(target)
	if err != nil || "#"+u.Fragment == target {
		return "", false
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(target))
	return setLink(oscURI(target), fmt.Sprintf("id=%d", h.Sum32())), true
}

// oscURI is target as an OSC 8 sequence may carry it: every byte outside
// printable ASCII percent-encoded. A raw one could end the sequence early
// (0x9c, a byte of many UTF-8 characters, is the 8-bit string
// terminator) and spill the rest of it onto the screen.
func oscURI(target string) string {
	var b strings.Builder
	for i := range len(target) {
		if c := target[i]; c > ' ' && c < 0x7f {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// fileURL is the file:// address of a link target that names a path, a
// relative one from dir; other targets, and every target without a dir,
// stay as they are.
func fileURL(dir, target string) string {
	u, err := url.Parse(target)
	if dir == "" || err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return target
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/…
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// inline builds the element of an inline node and its children.
func (r *renderer) inline(n ast.Node) inline {
	switch n := n.(type) {
	case *ast.Text:
		s := string(n.Segment.Value(r.src))
		if n.SoftLineBreak() || n.HardLineBreak() {
			s += "\n"
		}
		return run{token: decodeEntities(s)}
	case *ast.String:
		return run{token: decodeEntities(string(n.Value))}
	case *ast.Emphasis:
		return emphasis{strong: n.Level > 1, children: r.inlines(n)}
	case *east.Strikethrough:
		return run{token: decodeEntities(nodeText(n, r.src)), style: r.styles.strike}
	case *ast.CodeSpan:
		return codeSpan{text: decodeEntities(nodeText(n, r.src))}
	case *ast.Link:
		if inTable(n) {
			return link{url: string(n.Destination), children: r.inlines(n), skipHref: true}
		}
		return link{url: string(n.Destination), children: r.inlines(n)}
	case *ast.AutoLink:
		return r.autoLink(n)
	case *ast.Image:
		return image{text: nodeText(n, r.src), url: string(n.Destination)}
	case *ast.RawHTML:
		return run{token: stripHTML(string(n.Segments.Value(r.src)))}
	}
	return nothing{}
}

func (r *renderer) inlines(n ast.Node) []inline {
	var out []inline
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, r.inline(c))
	}
	return out
}

func (r *renderer) autoLink(n *ast.AutoLink) inline {
	u := string(n.URL(r.src))
	children := r.inlines(n)
	if len(children) == 0 {
		children = []inline{run{token: u}}
	}
	if n.AutoLinkType == ast.AutoLinkEmail {
		if !strings.HasPrefix(strings.ToLower(u), "mailto:") {
			u = "mailto:" + u
		}
		return link{url: u, children: children, skipHref: true}
	}
	if inTable(n) {
		return link{url: u, children: children, skipHref: true}
	}
	return link{url: u, children: children, skipText: true}
}

func inTable(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*east.TableCell); ok {
			return true
		}
	}
	return false
}

// nodeText is the source text of n's descendants, a soft line break as
// a line feed.
func nodeText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.RawHTML:
			b.Write(c.Segments.Value(src))
		default:
			b.WriteString(nodeText(c, src))
		}
	}
	return b.String()
}
