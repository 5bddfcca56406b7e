// Package gfm parses Markdown as GitHub does: CommonMark with tables,
// strikethrough, task lists and autolinks. The four extensions are
// goldmark's (extension/{table,strikethrough,tasklist,linkify}.go in
// goldmark v1.8.2, MIT, LICENSE beside this file) without their HTML
// renderers and options, and with their patterns compiled on first use:
// goldmark's extension package compiles them when the program starts,
// about a millisecond before tack's first frame. The nodes are goldmark's
// own (extension/ast), so a renderer of goldmark's GFM renders these.
package gfm

import (
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// NewParser returns a parser of CommonMark and GitHub's extensions, as
// goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser() builds it.
// A parser keeps the state of a parse in that parse, so one may serve
// every caller.
func NewParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithInlineParsers(
			util.Prioritized(linkifyParser{}, 999),
			util.Prioritized(strikethroughParser{}, 500),
			util.Prioritized(taskCheckBoxParser{}, 0),
		),
		parser.WithParagraphTransformers(util.Prioritized(tableParagraphTransformer{}, 200)),
		parser.WithASTTransformers(util.Prioritized(tableASTTransformer{}, 0)),
	)
}
