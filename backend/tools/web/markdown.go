package web

import (
	"io"
	"net/url"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/tack-agent/tack/backend/tools/web/internal/third_party/readability"
)

// htmlToMarkdown extracts a page's readable content (Mozilla's
// Readability, as go-readability ports it, through its copy in
// internal/third_party/readability: navigation, scripts, footers and
// sidebars go) and writes it as Markdown with tables and fenced code,
// links made absolute against u. A page readability finds no article in
// (a short index page) is converted whole, without its scripts and styles.
func htmlToMarkdown(r io.Reader, u *url.URL) (string, string, error) {
	doc, err := html.Parse(r)
	if err != nil {
		return "", "", errorf("%s could not be parsed as HTML: %v", u, err)
	}
	title := strings.TrimSpace(documentTitle(doc))
	content := doc
	parser := readability.NewParser()
	// Classes carry the language of code blocks (class="language-go"),
	// which the converter puts on the fence.
	parser.KeepClasses = true
	if article, err := parser.ParseDocument(doc, u); err == nil && article.Node != nil {
		content = article.Node
		if t := strings.TrimSpace(article.Title()); t != "" {
			title = t
		}
	}
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		strikethrough.NewStrikethroughPlugin(),
		table.NewTablePlugin(),
	))
	md, err := conv.ConvertNode(content, converter.WithDomain(u.Scheme+"://"+u.Host))
	if err != nil {
		return "", "", errorf("%s could not be converted to Markdown: %v", u, err)
	}
	out := tidy(string(md))
	if title != "" && !strings.HasPrefix(out, "# ") {
		// Readability takes the page's headline out as its title.
		out = "# " + title + "\n\n" + out
	}
	return title, out, nil
}

// documentTitle is the text of the first <title>.
func documentTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.DataAtom == atom.Title {
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		}
		return b.String()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := documentTitle(c); t != "" {
			return t
		}
	}
	return ""
}

// tidy trims trailing spaces and collapses runs of blank lines, outside
// fenced code, where both may matter.
func tidy(md string) string {
	var b strings.Builder
	fenced, blanks := false, 0
	for line := range strings.Lines(md) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		} else if fenced {
			b.WriteString(line + "\n")
			continue
		}
		line = strings.TrimRight(line, " \t")
		if line == "" {
			if blanks++; blanks > 1 {
				continue
			}
		} else {
			blanks = 0
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimSpace(b.String()) + "\n"
}
