package claudemsg

import (
	"encoding/json"
	"strings"

	"github.com/tack-agent/tack/backend/card"
)

// globOutput is Glob's GlobOutput: the files listed, and how many matched
// in all, which tack counts exactly.
func globOutput(c *card.Card, ms int64) any {
	if c.Found == nil {
		return nil
	}
	files := orEmpty(c.Found.Files)
	return globFound{DurationMs: ms, Filenames: files, NumFiles: len(files), Truncated: c.Truncated,
		TotalMatches: c.Found.Total, CountIsComplete: true}
}

type globFound struct {
	DurationMs      int64    `json:"durationMs"`
	NumFiles        int      `json:"numFiles"`
	Filenames       []string `json:"filenames"`
	Truncated       bool     `json:"truncated"`
	TotalMatches    int      `json:"totalMatches"`
	CountIsComplete bool     `json:"countIsComplete"`
}

// grepOutput is Grep's GrepOutput in the call's output mode, as Claude
// Code fills it: the files listed, or the lines of matches or of counts
// shown (the text without tack's closing note), with their number.
func grepOutput(input json.RawMessage, text string, c *card.Card) any {
	f := c.Found
	if f == nil {
		return nil
	}
	var in struct {
		OutputMode string `json:"output_mode"`
	}
	_ = json.Unmarshal(input, &in)
	out := grepFound{Mode: in.OutputMode, Filenames: []string{}}
	switch in.OutputMode {
	case "content":
		content := firstLines(text, f.Lines)
		out.Content, out.NumLines = &content, &f.Lines
	case "count":
		content := firstLines(text, f.Lines)
		out.Content, out.NumFiles, out.NumMatches = &content, f.Total, &f.Matches
	default:
		out.Mode, out.Filenames = "files_with_matches", orEmpty(f.Files)
		out.NumFiles = len(out.Filenames)
	}
	return out
}

type grepFound struct {
	Mode       string   `json:"mode"`
	NumFiles   int      `json:"numFiles"`
	Filenames  []string `json:"filenames"`
	Content    *string  `json:"content,omitempty"`
	NumLines   *int     `json:"numLines,omitempty"`
	NumMatches *int     `json:"numMatches,omitempty"`
}

// firstLines is the first n lines of text.
func firstLines(text string, n int) string {
	lines := strings.SplitN(text, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
