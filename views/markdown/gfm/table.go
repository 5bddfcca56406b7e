package gfm

import (
	"bytes"
	"regexp"
	"sync"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// escapedPipeCellListKey holds, during a parse, the cells whose code spans
// hold an escaped pipe (`a\|b`), which the table AST transformer unescapes.
var escapedPipeCellListKey = parser.NewContextKey()

type escapedPipeCell struct {
	Cell        *ast.TableCell
	Pos         []int
	Transformed bool
}

// The delimiter row's cell patterns, compiled on first use.
var delims = sync.OnceValue(func() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`^\s*\:\-+\s*$`),
		regexp.MustCompile(`^\s*\-+\:\s*$`),
		regexp.MustCompile(`^\s*\:\-+\:\s*$`),
		regexp.MustCompile(`^\s*\-+\s*$`),
	}
})

// delimAlignments are what the patterns of delims stand for, in order.
var delimAlignments = [4]ast.Alignment{ast.AlignLeft, ast.AlignRight, ast.AlignCenter, ast.AlignNone}

func isTableDelim(bs []byte) bool {
	if w, _ := util.IndentWidth(bs, 0); w > 3 {
		return false
	}
	allSep := true
	for _, b := range bs {
		if b != '-' {
			allSep = false
		}
		if !(util.IsSpace(b) || b == '-' || b == '|' || b == ':') {
			return false
		}
	}
	return !allSep
}

// tableParagraphTransformer turns a paragraph whose lines are a header
// row, a delimiter row and body rows into a table.
type tableParagraphTransformer struct{}

func (b tableParagraphTransformer) Transform(node *gast.Paragraph, reader text.Reader, pc parser.Context) {
	ppos := node.Pos()
	lines := node.Lines()
	if lines.Len() < 2 {
		return
	}
	for i := 1; i < lines.Len(); i++ {
		alignments := b.parseDelimiter(lines.At(i), reader)
		if alignments == nil {
			continue
		}
		header := b.parseRow(lines.At(i-1), alignments, true, reader, pc)
		if header == nil || len(alignments) != header.ChildCount() {
			return
		}
		table := ast.NewTable()
		table.Alignments = alignments
		table.SetPos(ppos)
		table.AppendChild(table, ast.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			table.AppendChild(table, b.parseRow(lines.At(j), alignments, false, reader, pc))
		}
		node.Lines().SetSliced(0, i-1)
		node.Parent().InsertAfter(node.Parent(), node, table)
		if node.Lines().Len() == 0 {
			node.Parent().RemoveChild(node.Parent(), node)
		} else {
			last := node.Lines().At(i - 2)
			last.Stop = last.Stop - 1 // the last newline
			node.Lines().Set(i-2, last)
		}
	}
}

func (tableParagraphTransformer) parseRow(segment text.Segment,
	alignments []ast.Alignment, isHeader bool, reader text.Reader, pc parser.Context) *ast.TableRow {
	npos := segment
	source := reader.Source()
	segment = segment.TrimLeftSpace(source)
	segment = segment.TrimRightSpace(source)
	line := segment.Value(source)
	pos := 0
	limit := len(line)
	row := ast.NewTableRow(alignments)
	row.SetPos(npos.Start)
	if len(line) > 0 && line[pos] == '|' {
		pos++
	}
	if len(line) > 0 && line[limit-1] == '|' {
		limit--
	}
	i := 0
	for ; pos < limit; i++ {
		alignment := ast.AlignNone
		if i >= len(alignments) {
			if !isHeader {
				return row
			}
		} else {
			alignment = alignments[i]
		}
		node := ast.NewTableCell()
		node.SetPos(npos.Start + pos - npos.Padding)
		node.Alignment = alignment
		closure := cellEnd(line, pos, limit, node, segment.Start, pc)
		seg := text.NewSegment(segment.Start+pos, segment.Start+closure)
		seg = seg.TrimLeftSpace(source)
		seg = seg.TrimRightSpace(source)
		node.Lines().Append(seg)
		row.AppendChild(row, node)
		pos = closure + 1
	}
	for ; i < len(alignments); i++ {
		row.AppendChild(row, ast.NewTableCell())
	}
	return row
}

// cellEnd is where the cell that starts at pos of line ends: at the first
// pipe not escaped, or at limit. An escaped pipe after a backtick is noted
// in the parse's context for the AST transformer (start is the offset of
// line in the source).
func cellEnd(line []byte, pos, limit int, node *ast.TableCell, start int, pc parser.Context) int {
	var escapedCell *escapedPipeCell
	hasBacktick := false
	closure := pos
	for ; closure < limit; closure++ {
		if line[closure] == '`' {
			hasBacktick = true
		}
		if line[closure] != '|' {
			continue
		}
		if closure == 0 || line[closure-1] != '\\' {
			break
		}
		if hasBacktick {
			if escapedCell == nil {
				escapedCell = &escapedPipeCell{node, []int{}, false}
				escapedList := pc.ComputeIfAbsent(escapedPipeCellListKey,
					func() any {
						return []*escapedPipeCell{}
					}).([]*escapedPipeCell)
				escapedList = append(escapedList, escapedCell)
				pc.Set(escapedPipeCellListKey, escapedList)
			}
			escapedCell.Pos = append(escapedCell.Pos, start+closure-1)
		}
	}
	return closure
}

func (tableParagraphTransformer) parseDelimiter(segment text.Segment, reader text.Reader) []ast.Alignment {
	line := segment.Value(reader.Source())
	if !isTableDelim(line) {
		return nil
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	var alignments []ast.Alignment
	patterns := delims()
next:
	for _, col := range cols {
		for k, p := range patterns {
			if p.Match(col) {
				alignments = append(alignments, delimAlignments[k])
				continue next
			}
		}
		return nil
	}
	return alignments
}

// tableASTTransformer unescapes the pipes of code spans in table cells.
type tableASTTransformer struct{}

func (tableASTTransformer) Transform(node *gast.Document, reader text.Reader, pc parser.Context) {
	lst := pc.Get(escapedPipeCellListKey)
	if lst == nil {
		return
	}
	pc.Set(escapedPipeCellListKey, nil)
	cells := lst.([]*escapedPipeCell)
	for _, v := range cells {
		if v.Transformed {
			continue
		}
		_ = gast.Walk(v.Cell, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
			if entering && n.Kind() == gast.KindCodeSpan {
				unescapePipes(n, cells)
			}
			return gast.WalkContinue, nil
		})
	}
}

// unescapePipes splits the text of the code span n around the escaped
// pipes the cells noted, leaving the backslashes out.
func unescapePipes(n gast.Node, cells []*escapedPipeCell) {
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		if c.Kind() != gast.KindText {
			c = next
			continue
		}
		parent := c.Parent()
		ts := &c.(*gast.Text).Segment
		n := c
		for _, v := range cells {
			for _, pos := range v.Pos {
				if ts.Start <= pos && pos < ts.Stop {
					segment := n.(*gast.Text).Segment
					n1 := gast.NewRawTextSegment(segment.WithStop(pos))
					n2 := gast.NewRawTextSegment(segment.WithStart(pos + 1))
					parent.InsertAfter(parent, n, n1)
					parent.InsertAfter(parent, n1, n2)
					parent.RemoveChild(parent, n)
					n = n2
					v.Transformed = true
				}
			}
		}
		c = next
	}
}
