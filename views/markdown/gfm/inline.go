package gfm

import (
	"regexp"
	"sync"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// strikethroughParser parses ~text~ and ~~text~~.
type strikethroughParser struct{}

func (strikethroughParser) Trigger() []byte { return []byte{'~'} }

func (strikethroughParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	node := parser.ScanDelimiter(line, before, 1, tildes{})
	if node == nil || node.OriginalLength > 2 || before == '~' {
		return nil
	}
	node.Segment = segment.WithStop(segment.Start + node.OriginalLength)
	block.Advance(node.OriginalLength)
	pc.PushDelimiter(node)
	return node
}

func (strikethroughParser) CloseBlock(gast.Node, parser.Context) {}

// tildes is the delimiter of strikethrough.
type tildes struct{}

func (tildes) IsDelimiter(b byte) bool { return b == '~' }

func (tildes) CanOpenCloser(opener, closer *parser.Delimiter) bool { return opener.Char == closer.Char }

func (tildes) OnMatch(int) gast.Node { return ast.NewStrikethrough() }

// taskListRegexp is a task list item's box, compiled on first use.
var taskListRegexp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([\sxX])\]\s*`) })

// taskCheckBoxParser parses the [ ] or [x] that starts a list item. It
// must come before the link parser.
type taskCheckBoxParser struct{}

func (taskCheckBoxParser) Trigger() []byte { return []byte{'['} }

func (taskCheckBoxParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	// The box is the first thing in the text block that is the first
	// child of a list item.
	if parent.Parent() == nil || parent.Parent().FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	if _, ok := parent.Parent().(*gast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	m := taskListRegexp().FindSubmatchIndex(line)
	if m == nil {
		return nil
	}
	value := line[m[2]:m[3]][0]
	block.Advance(m[1])
	return ast.NewTaskCheckBox(value == 'x' || value == 'X')
}

func (taskCheckBoxParser) CloseBlock(gast.Node, parser.Context) {}
