package fs

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// Notebook is the notebook_edit tool, Claude Code's NotebookEdit: replace,
// insert or delete one cell of a Jupyter notebook. The notebook is JSON
// (nbformat 4); editing it as text would have the model escape every
// line of a cell, and break the file when it slips.
type Notebook struct{ tracker *Tracker }

type notebookArgs struct {
	NotebookPath string `json:"notebook_path"`
	CellID       string `json:"cell_id"`
	NewSource    string `json:"new_source"`
	CellType     string `json:"cell_type"`
	EditMode     string `json:"edit_mode"`
}

// notebookSchema is the JSON schema of notebook_edit's arguments, from notebook.schema.json.
var notebookSchema = tools.SchemaFile(specFiles, "notebook.schema.json")

// notebookProse is what the model is told about the tool, from notebook.md.
var notebookProse = tools.ProseFile(specFiles, "notebook.md")

// Spec describes notebook_edit to the model.
func (*Notebook) Spec() tools.Spec {
	return tools.Spec{
		Name:        "notebook_edit",
		Description: notebookProse().Description,
		Schema:      notebookSchema(),
		Guidance:    notebookProse().Guidance,
		Access:      tools.AccessEdit,
	}
}

// Present is PresentIn with the notebook named as the model wrote it.
func (n *Notebook) Present(raw json.RawMessage) card.Card { return n.PresentIn(raw, "") }

// PresentIn shows the cell's new source in the notebook named from cwd.
func (*Notebook) PresentIn(raw json.RawMessage, cwd string) card.Card {
	var a notebookArgs
	_ = json.Unmarshal(raw, &a)
	name := shown(cwd, a.NotebookPath)
	return card.Card{Kind: card.Diff, Title: "Edit notebook " + name, Label: "NotebookEdit", Subject: name,
		Diffs: []card.FileDiff{fileDiff(name, "", a.NewSource, false)}}
}

// Targets is the notebook a call changes.
func (*Notebook) Targets(call tools.Call) []string {
	var a notebookArgs
	if json.Unmarshal(call.Args, &a) != nil || a.NotebookPath == "" || call.Env == nil {
		return nil
	}
	return []string{resolve(call.Env.Cwd, a.NotebookPath)}
}

// Validate says whether the call would fail on the notebook as it is now.
func (n *Notebook) Validate(call tools.Call) (tools.Result, bool) {
	_, _, res, ok := n.change(call)
	return res, ok
}

// Run changes the cell after the read-before-edit and stale checks, and
// writes the notebook back as Jupyter writes it.
func (n *Notebook) Run(_ context.Context, call tools.Call) tools.Result {
	nb, ch, res, ok := n.change(call)
	if !ok {
		return res
	}
	out, err := nb.encode()
	if err != nil {
		return tools.Errorf("cannot write %q: %v", ch.path, err)
	}
	if err := writeObserved(n.tracker, ch.path, out); err != nil {
		return tools.Errorf("cannot write %q: %v", ch.path, err)
	}
	name := display(call.Env.Cwd, ch.path)
	c := &card.Card{Kind: card.Diff, Title: "Edit notebook " + name, Label: "NotebookEdit", Subject: name,
		Description: ch.what, Diffs: []card.FileDiff{fileDiff(name, ch.before, ch.after, false)},
		Notebook: &card.NotebookChange{CellID: ch.cell, OldCellType: ch.oldKind, CellType: ch.kind, Language: nb.language()}}
	if len(ch.original)+len(out) <= card.NotebookTextLimit {
		c.Notebook.Original, c.Notebook.Updated = ch.original, string(out)
	}
	return tools.Result{Text: ch.what + " in " + ch.path + ".", Card: c}
}

// change is the notebook as the call leaves it, in memory, and what
// changed, after the read-before-edit and stale checks; not ok with the
// result that says why the call cannot change it.
func (n *Notebook) change(call tools.Call) (*notebook, change, tools.Result, bool) {
	var a notebookArgs
	if res, ok := decodeArgs(call.Args, &a, &a.NotebookPath); !ok {
		return nil, change{}, res, false
	}
	a.EditMode = cmp.Or(a.EditMode, "replace")
	if res, ok := a.check(); !ok {
		return nil, change{}, res, false
	}
	path := resolve(call.Env.Cwd, a.NotebookPath)
	content, info, res, ok := readExisting("edit", path)
	switch {
	case !ok:
		return nil, change{}, res, false
	case info == nil:
		return nil, change{}, tools.Errorf("cannot edit %q: not found; notebook_edit changes an existing notebook (create one with write)", path), false
	}
	if err := n.tracker.Check(path, versionOf(content, info)); err != nil {
		return nil, change{}, policyError(err), false
	}
	nb, err := parseNotebook(content)
	if err != nil {
		return nil, change{}, tools.Errorf("cannot edit %q: %v; it must be a Jupyter notebook (nbformat 4 JSON)", path, err), false
	}
	ch, err := nb.apply(a)
	if err != nil {
		return nil, change{}, tools.InvalidArgs("%v", err), false
	}
	ch.path, ch.original = path, string(content)
	return nb, ch, tools.Result{}, true
}

// language is the notebook's programming language as its metadata names
// it; python, as Jupyter and Claude Code take it, when it names none.
func (nb *notebook) language() string {
	meta, _ := nb.top["metadata"].(map[string]any)
	info, _ := meta["language_info"].(map[string]any)
	if name, ok := info["name"].(string); ok && name != "" {
		return name
	}
	return "python"
}

func (a notebookArgs) check() (tools.Result, bool) {
	switch {
	case !slices.Contains([]string{"replace", "insert", "delete"}, a.EditMode):
		return tools.InvalidArgs("invalid edit_mode %q: use replace, insert or delete", a.EditMode), false
	case a.CellType != "" && a.CellType != "code" && a.CellType != "markdown":
		return tools.InvalidArgs("invalid cell_type %q: use code or markdown", a.CellType), false
	case a.EditMode == "insert" && a.CellType == "":
		return tools.InvalidArgs("invalid cell_type: insert needs one, code or markdown"), false
	case a.EditMode != "insert" && a.CellID == "":
		return tools.InvalidArgs("invalid cell_id: %s needs the id of the cell (or cell-N, counting from 0)", a.EditMode), false
	}
	return tools.Result{}, true
}

// notebook is a notebook's JSON, every member kept as it was read.
type notebook struct {
	top   map[string]any
	cells []map[string]any
}

func parseNotebook(content []byte) (*notebook, error) {
	dec := json.NewDecoder(bytes.NewReader(content))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("not JSON (%v)", err)
	}
	raw, ok := top["cells"].([]any)
	if !ok {
		return nil, fmt.Errorf("no cells")
	}
	nb := &notebook{top: top}
	for _, c := range raw {
		cell, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a cell is not an object")
		}
		nb.cells = append(nb.cells, cell)
	}
	return nb, nil
}

// find is the index of the cell id names: its id, else cell-N.
func (nb *notebook) find(id string) (int, error) {
	for i, c := range nb.cells {
		if c["id"] == id {
			return i, nil
		}
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(id, "cell-")); err == nil && strings.HasPrefix(id, "cell-") && n >= 0 && n < len(nb.cells) {
		return n, nil
	}
	return 0, fmt.Errorf("no cell %q in the notebook (%d cells); use a cell's id from its JSON, or cell-N counting from 0", id, len(nb.cells))
}

// change is what an edit does: its sentence, the cell's source before
// and after for the card, its name, its type before and after ("" where
// it had none: inserted, deleted), and the notebook's path and text
// before.
type change struct{ what, before, after, cell, oldKind, kind, path, original string }

func (nb *notebook) apply(a notebookArgs) (change, error) {
	at := 0
	if a.CellID != "" {
		i, err := nb.find(a.CellID)
		if err != nil {
			return change{}, err
		}
		at = i
	}
	switch a.EditMode {
	case "insert":
		if a.CellID != "" {
			at++
		}
		cell := map[string]any{"cell_type": a.CellType, "metadata": map[string]any{}, "source": sourceLines(a.NewSource)}
		if nb.hasIDs() {
			cell["id"] = newCellID()
		}
		setKind(cell, a.CellType)
		nb.cells = slices.Insert(nb.cells, at, cell)
		name := cellName(cell, at)
		return change{what: fmt.Sprintf("Inserted %s cell %s", a.CellType, name), after: a.NewSource, cell: name, kind: a.CellType}, nil
	case "delete":
		cell := nb.cells[at]
		name := cellName(cell, at)
		nb.cells = slices.Delete(nb.cells, at, at+1)
		return change{what: "Deleted cell " + name, before: source(cell), cell: name, oldKind: fmt.Sprint(cell["cell_type"])}, nil
	}
	cell := nb.cells[at]
	before, oldKind := source(cell), fmt.Sprint(cell["cell_type"])
	cell["source"] = sourceLines(a.NewSource)
	setKind(cell, cmp.Or(a.CellType, oldKind))
	name := cellName(cell, at)
	return change{what: "Updated cell " + name, before: before, after: a.NewSource, cell: name, oldKind: oldKind, kind: cmp.Or(a.CellType, oldKind)}, nil
}

// setKind makes cell a cell of kind as nbformat 4 wants it: a code cell
// with no outputs yet (any it had belong to its old source), a markdown
// cell with neither outputs nor an execution count.
func setKind(cell map[string]any, kind string) {
	cell["cell_type"] = kind
	if kind == "code" {
		cell["outputs"], cell["execution_count"] = []any{}, nil
		return
	}
	delete(cell, "outputs")
	delete(cell, "execution_count")
}

// hasIDs reports whether the notebook's format gives cells ids (nbformat
// 4.5 and later).
func (nb *notebook) hasIDs() bool {
	major, _ := strconv.Atoi(fmt.Sprint(nb.top["nbformat"]))
	minor, _ := strconv.Atoi(fmt.Sprint(nb.top["nbformat_minor"]))
	return major > 4 || major == 4 && minor >= 5
}

// encode is the notebook as Jupyter writes it: keys sorted, one space of
// indentation, characters as they are, a final newline.
func (nb *notebook) encode() ([]byte, error) {
	cells := make([]any, len(nb.cells))
	for i, c := range nb.cells {
		cells[i] = c
	}
	nb.top["cells"] = cells
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(nb.top); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sourceLines is s as nbformat stores a cell's source: its lines, each
// but the last with its newline.
func sourceLines(s string) []any {
	lines := []any{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// source is a cell's source as one string, whichever way it is stored.
func source(cell map[string]any) string {
	switch s := cell["source"].(type) {
	case string:
		return s
	case []any:
		var b strings.Builder
		for _, l := range s {
			b.WriteString(fmt.Sprint(l))
		}
		return b.String()
	}
	return ""
}

// cellName names a cell in what the model reads: its id, else cell-N.
func cellName(cell map[string]any, at int) string {
	if id, ok := cell["id"].(string); ok && id != "" {
		return id
	}
	return "cell-" + strconv.Itoa(at)
}

// newCellID is a fresh cell id, in the form Jupyter gives them.
func newCellID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
