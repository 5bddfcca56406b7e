package claudemsg

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/card"
)

// fileRead is Read's FileReadOutput for a text file: the lines shown,
// without their numbers, and where they are in the file. A read that
// showed an image or a notebook has no window, and answers nil: the
// image's bytes and the notebook's cells are not at hand here.
func fileRead(input json.RawMessage, text string, c *card.Card) any {
	w := c.Window
	if w == nil {
		return nil
	}
	var in struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(input, &in)
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
