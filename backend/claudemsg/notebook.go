package claudemsg

import (
	"cmp"
	"encoding/json"

	"github.com/tack-agent/tack/backend/card"
)

// notebookEditOutput is NotebookEdit's NotebookEditOutput: the call's
// input, the cell it changed and the notebook before and after, from the
// card. An edit of a notebook too large for the card to keep its text
// (card.NotebookTextLimit) answers nil: original_file and updated_file
// are required, and tack would have to make them up.
func notebookEditOutput(input json.RawMessage, c *card.Card) any {
	nb := c.Notebook
	if nb == nil || nb.Original == "" && nb.Updated == "" {
		return nil
	}
	var in struct {
		NotebookPath string `json:"notebook_path"`
		NewSource    string `json:"new_source"`
		CellType     string `json:"cell_type"`
		EditMode     string `json:"edit_mode"`
	}
	_ = json.Unmarshal(input, &in)
	return notebookEdited{NewSource: in.NewSource, OldCellType: nbformatType(nb.OldCellType), CellID: nb.CellID,
		CellType: editedCellType(cmp.Or(in.CellType, nb.CellType, nb.OldCellType)), Language: nb.Language,
		EditMode: cmp.Or(in.EditMode, "replace"), NotebookPath: in.NotebookPath,
		OriginalFile: nb.Original, UpdatedFile: nb.Updated}
}

type notebookEdited struct {
	NewSource    string `json:"new_source"`
	OldCellType  string `json:"old_cell_type,omitempty"`
	CellID       string `json:"cell_id,omitempty"`
	CellType     string `json:"cell_type"`
	Language     string `json:"language"`
	EditMode     string `json:"edit_mode"`
	NotebookPath string `json:"notebook_path"`
	OriginalFile string `json:"original_file"`
	UpdatedFile  string `json:"updated_file"`
}

// nbformatType is a cell type as NotebookEditOutput's old_cell_type names
// it: a type nbformat does not define counts as raw.
func nbformatType(t string) string {
	switch t {
	case "", "code", "markdown", "raw":
		return t
	}
	return "raw"
}

// editedCellType is NotebookEditOutput's cell_type, code or markdown: of a
// deleted raw cell, which has neither, code, Claude Code's default.
func editedCellType(t string) string {
	if t == "markdown" {
		return t
	}
	return "code"
}
