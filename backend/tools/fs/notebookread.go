package fs

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// maxOutputChars bounds what read shows of one cell's outputs.
const maxOutputChars = 2000

// isNotebook reports whether path names a Jupyter notebook.
func isNotebook(path string) bool { return strings.EqualFold(filepath.Ext(path), ".ipynb") }

// readNotebook is read of a whole Jupyter notebook: its cells with their
// ids, sources and outputs, as Claude Code's Read shows a notebook, in
// place of the JSON whose escaped lines hide them. It records the
// notebook's version, so notebook_edit may change it. ok is false for a
// file that is not a notebook after all, which read then shows as text.
func (r *Read) readNotebook(path, name string) (tools.Result, bool) {
	content, info, _, ok := readExisting("read", path)
	if !ok || info == nil {
		return tools.Result{}, false
	}
	nb, err := parseNotebook(content)
	if err != nil {
		return tools.Result{}, false
	}
	r.tracker.Observe(path, versionOf(content, info))
	text := nb.render(name)
	c := &card.Card{Kind: card.Read, Title: "Read " + name, Label: "Read", Subject: name,
		Summary: fmt.Sprintf("Read %d cells", len(nb.cells)), Body: text, Cells: nb.cellsRead()}
	return tools.Result{Text: text, Card: c}, true
}

// cellsRead is the cells as read shows them, for its card; nil when their
// text is over card.NotebookTextLimit.
func (nb *notebook) cellsRead() *card.NotebookCells {
	out, size := &card.NotebookCells{Language: nb.language()}, 0
	for i, c := range nb.cells {
		cell := card.NotebookCell{ID: cellName(c, i), Type: fmt.Sprint(c["cell_type"]), Source: source(c),
			Outputs: cellOutputs(c)}
		if n, ok := c["execution_count"].(json.Number); ok {
			if count, err := strconv.Atoi(n.String()); err == nil {
				cell.ExecutionCount = &count
			}
		}
		size += len(cell.Source)
		for _, o := range cell.Outputs {
			size += len(o.Text)
		}
		if size > card.NotebookTextLimit {
			return nil
		}
		out.Cells = append(out.Cells, cell)
	}
	return out
}

// render lists the cells for the model: each in a <cell> element naming
// its id (cell-N where it has none) and type, its outputs after it.
func (nb *notebook) render(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Jupyter notebook %s, %d cells. Change a cell with notebook_edit and its id; read with offset "+
		"or limit shows the notebook's JSON.\n", name, len(nb.cells))
	for i, c := range nb.cells {
		id := cellName(c, i)
		fmt.Fprintf(&b, "\n<cell id=%q type=%q>\n%s\n</cell>\n", id, fmt.Sprint(c["cell_type"]), strings.TrimRight(source(c), "\n"))
		if out := outputs(c); out != "" {
			fmt.Fprintf(&b, "<outputs of=%q>\n%s\n</outputs>\n", id, out)
		}
	}
	return b.String()
}

// outputs is what a code cell's outputs show as text, one after the
// other (a stream may end mid-line, the next go on); at most
// maxOutputChars of it.
func outputs(cell map[string]any) string {
	var parts []string
	for _, o := range cellOutputs(cell) {
		parts = append(parts, o.Text)
	}
	text := strings.TrimRight(strings.Join(parts, ""), "\n")
	if len([]rune(text)) > maxOutputChars {
		text = string([]rune(text)[:maxOutputChars]) + "… (cut)"
	}
	return text
}

// cellOutputs is each of a code cell's outputs as text: a stream as it
// is, a plain text result, an error by its name and value and anything
// else by its MIME types, these on lines of their own.
func cellOutputs(cell map[string]any) []card.CellOutput {
	list, _ := cell["outputs"].([]any)
	var outs []card.CellOutput
	for _, o := range list {
		out, _ := o.(map[string]any)
		kind, _ := out["output_type"].(string)
		switch kind {
		case "stream":
			outs = append(outs, card.CellOutput{Type: kind, Text: multiline(out["text"])})
		case "error":
			outs = append(outs, card.CellOutput{Type: kind, Text: fmt.Sprintf("%v: %v\n", out["ename"], out["evalue"])})
		case "execute_result", "display_data":
			data, _ := out["data"].(map[string]any)
			if text, ok := data["text/plain"]; ok {
				outs = append(outs, card.CellOutput{Type: kind, Text: strings.TrimSuffix(multiline(text), "\n") + "\n"})
				continue
			}
			var kinds []string
			for k := range data {
				kinds = append(kinds, k)
			}
			slices.Sort(kinds)
			outs = append(outs, card.CellOutput{Type: kind, Text: "[" + strings.Join(kinds, ", ") + " output]\n"})
		}
	}
	return outs
}

// multiline is nbformat's multi-line string, a string or a list of lines,
// as one string.
func multiline(v any) string { return source(map[string]any{"source": v}) }
