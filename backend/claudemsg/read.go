package claudemsg

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/card"
)

// fileRead is Read's FileReadOutput for a text file: the lines shown,
// without their numbers, and where they are in the file; or for a
// notebook, its cells. A read that showed an image answers nil, as does
// one of a notebook too large for the card to keep its cells: the
// image's bytes and those cells are not at hand here.
func fileRead(input json.RawMessage, text string, c *card.Card) any {
	var in struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(input, &in)
	if c.Cells != nil {
		return notebookRead(in.FilePath, *c.Cells)
	}
	w := c.Window
	if w == nil {
		return nil
	}
	content, lines, total := readContent(text, *w), w.Lines, w.Total
	if w.Newline {
		// Claude Code's Read numbers the pieces of the text split at
		// "\n": after a final newline, an empty one, which read does
		// not show. It counts in the file's lines, and in the window's
		// where the window reaches the end with room for one more.
		total++
		if w.Start+w.Lines-1 == w.Total && w.Lines < w.Limit {
			content, lines = content+"\n", lines+1
		}
	}
	return textFileRead{Type: "text", File: textFile{FilePath: in.FilePath, Content: content,
		NumLines: lines, StartLine: w.Start, TotalLines: total, TruncatedByTokenCap: w.Capped}}
}

// readContent is the window's lines as the file has them: the text the
// model read without the line number and arrow read puts before each.
func readContent(text string, w card.LineWindow) string {
	lines := strings.SplitN(text, "\n", w.Lines+1)
	out := make([]string, 0, w.Lines)
	for i := 0; i < w.Lines && i < len(lines); i++ {
		out = append(out, strings.TrimPrefix(lines[i], fmt.Sprintf("%6d→", w.Start+i)))
	}
	return strings.Join(out, "\n")
}

// textFileRead is FileReadOutput of type "text".
type textFileRead struct {
	Type string   `json:"type"`
	File textFile `json:"file"`
}

type textFile struct {
	FilePath   string `json:"filePath"`
	Content    string `json:"content"`
	NumLines   int    `json:"numLines"`
	StartLine  int    `json:"startLine"`
	TotalLines int    `json:"totalLines"`
	// TruncatedByTokenCap says the read's byte budget ended the window;
	// totalLines then counts the lines up to its end only.
	TruncatedByTokenCap bool `json:"truncatedByTokenCap,omitempty"`
}

// notebookRead is FileReadOutput of type "notebook": the SDK declares its
// cells unknown[]; each is given with the keys of Claude Code's own cells
// (cellType, source, execution_count, cell_id, language of a code cell,
// outputs with their output_type and text).
func notebookRead(path string, nb card.NotebookCells) any {
	cells := make([]notebookCell, 0, len(nb.Cells))
	for _, c := range nb.Cells {
		cell := notebookCell{CellType: c.Type, Source: c.Source, ExecutionCount: c.ExecutionCount, CellID: c.ID}
		if c.Type == "code" {
			cell.Language = nb.Language
		}
		for _, o := range c.Outputs {
			cell.Outputs = append(cell.Outputs, cellOutput{OutputType: o.Type, Text: o.Text})
		}
		cells = append(cells, cell)
	}
	return notebookFileRead{Type: "notebook", File: notebookFile{FilePath: path, Cells: cells}}
}

type notebookFileRead struct {
	Type string       `json:"type"`
	File notebookFile `json:"file"`
}

type notebookFile struct {
	FilePath string         `json:"filePath"`
	Cells    []notebookCell `json:"cells"`
}

type notebookCell struct {
	CellType       string       `json:"cellType"`
	Source         string       `json:"source"`
	ExecutionCount *int         `json:"execution_count,omitempty"`
	CellID         string       `json:"cell_id"`
	Language       string       `json:"language,omitempty"`
	Outputs        []cellOutput `json:"outputs,omitempty"`
}

type cellOutput struct {
	OutputType string `json:"output_type"`
	Text       string `json:"text"`
}
