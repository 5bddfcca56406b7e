package fs

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// notebook45 is a notebook as Jupyter writes it (nbformat 4.5: cells have
// ids): a markdown cell, a code cell with an output, a code cell.
const notebook45 = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "a1b2c3d4",
   "metadata": {},
   "source": [
    "# Word count\n",
    "Counts words."
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "e5f6a7b8",
   "metadata": {"tags": ["keep"]},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "11\n"
     ]
    }
   ],
   "source": [
    "print(len(\"hello world\"))"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "c9d0e1f2",
   "metadata": {},
   "outputs": [],
   "source": []
  }
 ],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}, "language_info": {"name": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`

// notebook44 is an older notebook whose cells have no ids.
const notebook44 = `{"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source": ["x = 1"]},
 {"cell_type": "markdown", "metadata": {}, "source": "Notes"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`

// nbCell is a cell as nbformat reads it.
type nbCell struct {
	Type, ID, Source string
	Outputs          int
}

// nbformatCells validates the notebook at path with Jupyter's own nbformat
// library, warnings as errors, and lists its cells; the test skips where
// no python3 has nbformat.
func nbformatCells(t *testing.T, path string) []nbCell {
	t.Helper()
	const script = `import json, sys, warnings, nbformat
warnings.simplefilter("error")  # what nbformat still repairs with a warning, a future one refuses
nb = json.load(open(sys.argv[1], encoding="utf-8"))
nbformat.validate(nb)
src = lambda s: s if isinstance(s, str) else "".join(s)
print(json.dumps([[c["cell_type"], c.get("id", ""), src(c["source"]), len(c.get("outputs", []))] for c in nb["cells"]]))`
	py := nbformatPython()
	if py == "" {
		t.Skip("the oracle, python3 with nbformat, is missing (apt-get install python3-nbformat)")
	}
	out, err := exec.Command(py, "-c", script, path).Output()
	if err != nil {
		t.Fatalf("nbformat refuses the notebook (%v):\n%s", err, stderrOf(err))
	}
	var rows [][]any
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatal(err)
	}
	var cells []nbCell
	for _, r := range rows {
		cells = append(cells, nbCell{Type: r[0].(string), ID: r[1].(string), Source: r[2].(string), Outputs: int(r[3].(float64))})
	}
	return cells
}

// nbformatPython is a python3 that has nbformat, or "": the one on PATH,
// else the system's, where Debian's python3-nbformat goes when a Python of
// the user's (pyenv) comes first on PATH.
var nbformatPython = sync.OnceValue(func() string {
	for _, name := range []string{"python3", "/usr/bin/python3"} {
		if py, err := exec.LookPath(name); err == nil && exec.Command(py, "-c", "import nbformat").Run() == nil {
			return py
		}
	}
	return ""
})

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// Every edit leaves a notebook Jupyter's nbformat reads and validates,
// with the cells the edit says.
func TestNotebookEditsAreWhatNbformatReads(t *testing.T) {
	md := nbCell{"markdown", "a1b2c3d4", "# Word count\nCounts words.", 0}
	ran := nbCell{"code", "e5f6a7b8", `print(len("hello world"))`, 1}
	empty := nbCell{"code", "c9d0e1f2", "", 0}
	for _, c := range []struct {
		name string
		args map[string]any
		want []nbCell
	}{
		{"replace a code cell, dropping its stale output", map[string]any{"cell_id": "e5f6a7b8", "new_source": "words = \"a b\".split()\nprint(len(words))"},
			[]nbCell{md, {"code", "e5f6a7b8", "words = \"a b\".split()\nprint(len(words))", 0}, empty}},
		{"replace a markdown cell as code", map[string]any{"cell_id": "a1b2c3d4", "new_source": "import this", "cell_type": "code"},
			[]nbCell{{"code", "a1b2c3d4", "import this", 0}, ran, empty}},
		{"replace a code cell as markdown", map[string]any{"cell_id": "c9d0e1f2", "new_source": "## Done", "cell_type": "markdown"},
			[]nbCell{md, ran, {"markdown", "c9d0e1f2", "## Done", 0}}},
		{"insert after a cell", map[string]any{"cell_id": "a1b2c3d4", "new_source": "import re", "cell_type": "code", "edit_mode": "insert"},
			[]nbCell{md, {"code", "*", "import re", 0}, ran, empty}},
		{"insert at the beginning", map[string]any{"new_source": "Intro", "cell_type": "markdown", "edit_mode": "insert"},
			[]nbCell{{"markdown", "*", "Intro", 0}, md, ran, empty}},
		{"delete", map[string]any{"cell_id": "e5f6a7b8", "new_source": "", "edit_mode": "delete"}, []nbCell{md, empty}},
		{"a cell by its place", map[string]any{"cell_id": "cell-2", "new_source": "x"}, []nbCell{md, ran, {"code", "c9d0e1f2", "x", 0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBench(t)
			path := b.file("wc.ipynb", notebook45)
			b.readFirst("wc.ipynb")
			c.args["notebook_path"] = "wc.ipynb"
			wantOK(t, b.run(b.notebook, c.args))
			got := nbformatCells(t, path)
			for i := range got {
				if i < len(c.want) && c.want[i].ID == "*" && len(got[i].ID) == 8 {
					got[i].ID = "*" // a new cell gets a fresh id
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("nbformat reads\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
}

// A notebook of nbformat 4.4 has no cell ids: cells are named by place,
// and one inserted gets none, which that format forbids.
func TestNotebookWithoutCellIDs(t *testing.T) {
	b := newBench(t)
	path := b.file("old.ipynb", notebook44)
	b.readFirst("old.ipynb")
	r := b.run(b.notebook, map[string]any{"notebook_path": "old.ipynb", "cell_id": "cell-0", "new_source": "y = 2", "cell_type": "code", "edit_mode": "insert"})
	wantOK(t, r)
	if !strings.HasPrefix(r.Text, "Inserted code cell cell-1 in ") {
		t.Errorf("want the new cell named by its place, got %q", r.Text)
	}
	want := []nbCell{{"code", "", "x = 1", 0}, {"code", "", "y = 2", 0}, {"markdown", "", "Notes", 0}}
	if got := nbformatCells(t, path); !reflect.DeepEqual(got, want) {
		t.Errorf("nbformat reads\n%+v\nwant\n%+v", got, want)
	}
}

// A notebook edit's card keeps the notebook's text before and after, for
// Claude Code's NotebookEditOutput, only while the two together fit
// card.NotebookTextLimit: a notebook of large outputs, edited often, would
// otherwise grow the session log by twice its size on every edit.
func TestNotebookEditKeepsTheNotebookTextWhileItIsSmall(t *testing.T) {
	b := newBench(t)
	big := strings.Replace(notebook44, `"Notes"`, `"`+strings.Repeat("n", card.NotebookTextLimit/2)+`"`, 1)
	for name, body := range map[string]string{"small.ipynb": notebook44, "big.ipynb": big} {
		b.file(name, body)
		b.readFirst(name)
		r := b.run(b.notebook, map[string]any{"notebook_path": name, "cell_id": "cell-0", "new_source": "y = 2"})
		wantOK(t, r)
		nb := r.Card.Notebook
		if nb == nil || nb.CellID != "cell-0" || nb.OldCellType != "code" || nb.CellType != "code" || nb.Language != "python" {
			t.Fatalf("%s: want the changed cell and the language on the card, got %+v", name, nb)
		}
		kept := nb.Original == body && strings.Contains(nb.Updated, "y = 2")
		if want := name == "small.ipynb"; kept != want || !want && nb.Original+nb.Updated != "" {
			t.Errorf("%s: want the notebook's text kept: %v; got original %d bytes, updated %d", name, want, len(nb.Original), len(nb.Updated))
		}
	}
}

func TestNotebookEditRefusals(t *testing.T) {
	b := newBench(t)
	b.file("wc.ipynb", notebook45)
	b.file("not.ipynb", "{not json")
	if r := b.run(b.notebook, map[string]any{"notebook_path": "wc.ipynb", "cell_id": "e5f6a7b8", "new_source": "x"}); !strings.Contains(r.Text, "has not been read in this session") {
		t.Errorf("want an unread notebook refused, got %q", r.Text)
	}
	b.readFirst("wc.ipynb")
	b.readFirst("not.ipynb")
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"notebook_path": "wc.ipynb", "cell_id": "nope", "new_source": "x"}, `no cell "nope" in the notebook (3 cells)`},
		{map[string]any{"notebook_path": "wc.ipynb", "cell_id": "cell-9", "new_source": "x"}, `no cell "cell-9"`},
		{map[string]any{"notebook_path": "wc.ipynb", "new_source": "x", "edit_mode": "insert"}, "insert needs one, code or markdown"},
		{map[string]any{"notebook_path": "wc.ipynb", "new_source": "x"}, "replace needs the id of the cell"},
		{map[string]any{"notebook_path": "wc.ipynb", "cell_id": "e5f6a7b8", "new_source": "x", "edit_mode": "append"}, `invalid edit_mode "append"`},
		{map[string]any{"notebook_path": "wc.ipynb", "cell_id": "e5f6a7b8", "new_source": "x", "cell_type": "raw"}, `invalid cell_type "raw"`},
		{map[string]any{"notebook_path": "not.ipynb", "cell_id": "cell-0", "new_source": "x"}, "it must be a Jupyter notebook"},
		{map[string]any{"notebook_path": "gone.ipynb", "cell_id": "cell-0", "new_source": "x"}, "notebook_edit changes an existing notebook"},
	} {
		raw, _ := json.Marshal(c.args)
		if r, ok := b.notebook.(tools.Validator).Validate(tools.Call{ID: "c1", Args: raw, Env: &tools.Env{Cwd: b.dir}}); ok || !strings.Contains(r.Text, c.want) {
			t.Errorf("%v: want the call refused before the user is asked, with %q, got %v %q", c.args, c.want, ok, r.Text)
		}
		r := b.run(b.notebook, c.args)
		if !r.IsError || !strings.Contains(r.Text, c.want) {
			t.Errorf("%v: want an error with %q, got %q", c.args, c.want, r.Text)
		}
	}
	raw, _ := json.Marshal(map[string]any{"notebook_path": "wc.ipynb", "cell_id": "e5f6a7b8", "new_source": "x"})
	if r, ok := b.notebook.(tools.Validator).Validate(tools.Call{ID: "c2", Args: raw, Env: &tools.Env{Cwd: b.dir}}); !ok {
		t.Errorf("want an edit that applies validated, got %q", r.Text)
	}
	if b.content("wc.ipynb") != notebook45 {
		t.Error("want the notebook untouched by refused and validated edits")
	}
}

// read shows a notebook as its cells, with ids, types and outputs, and
// the JSON only when asked for a window; either way notebook_edit may
// then change it, and edit refuses it, as Claude Code's Edit does.
func TestReadShowsANotebooksCells(t *testing.T) {
	b := newBench(t)
	b.file("wc.ipynb", notebook45)
	r := b.run(b.read, map[string]any{"file_path": "wc.ipynb"})
	wantOK(t, r)
	matchGolden(t, b.dir, r.Text)
	if r.Card == nil || r.Card.Summary != "Read 3 cells" {
		t.Errorf("want the card to count the cells, got %+v", r.Card)
	}
	want := `{"type":"notebook","file":{"filePath":"wc.ipynb","cells":[` +
		`{"cellType":"markdown","source":"# Word count\nCounts words.","cell_id":"a1b2c3d4"},` +
		`{"cellType":"code","source":"print(len(\"hello world\"))","execution_count":3,"cell_id":"e5f6a7b8","language":"python",` +
		`"outputs":[{"output_type":"stream","text":"11\n"}]},` +
		`{"cellType":"code","source":"","cell_id":"c9d0e1f2","language":"python"}]}}`
	if got := claudeAnswer(t, "Read", map[string]any{"file_path": "wc.ipynb"}, r); got != want {
		t.Errorf("want the cells answered in Claude Code's terms\n%s\ngot\n%s", want, got)
	}
	big := strings.Replace(notebook45, `"Counts words."`, `"`+strings.Repeat("w", card.NotebookTextLimit)+`"`, 1)
	b.file("big.ipynb", big)
	if r := b.run(b.read, map[string]any{"file_path": "big.ipynb"}); r.Card == nil || r.Card.Cells != nil {
		t.Errorf("want no cells kept of a notebook over card.NotebookTextLimit, got %+v", r.Card)
	}
	wantOK(t, b.run(b.notebook, map[string]any{"notebook_path": "wc.ipynb", "cell_id": "c9d0e1f2", "new_source": "x"}))
	if r := b.run(b.read, map[string]any{"file_path": "wc.ipynb", "limit": 3}); !strings.Contains(r.Text, `"cells": [`) {
		t.Errorf("want a window of the JSON with limit, got %q", r.Text)
	}
	if r := b.run(b.edit, map[string]any{"file_path": "wc.ipynb", "old_string": "x", "new_string": "y"}); !strings.Contains(r.Text, "is a Jupyter notebook: change its cells with notebook_edit") {
		t.Errorf("want edit to send the model to notebook_edit, got %q", r.Text)
	}
}

// A cell's outputs show as text: an error by its name and value, a picture
// by its MIME types, a long stream cut.
func TestNotebookOutputsShowAsText(t *testing.T) {
	cell := map[string]any{"outputs": []any{
		map[string]any{"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero", "traceback": []any{"\x1b[31m..."}},
		map[string]any{"output_type": "display_data", "data": map[string]any{"image/png": "iVBOR...", "text/html": "<img>"}},
		map[string]any{"output_type": "execute_result", "data": map[string]any{"text/plain": []any{"42\n"}}},
	}}
	if got, want := outputs(cell), "ZeroDivisionError: division by zero\n[image/png, text/html output]\n42"; got != want {
		t.Errorf("outputs = %q, want %q", got, want)
	}
	long := map[string]any{"outputs": []any{map[string]any{"output_type": "stream", "text": strings.Repeat("é", maxOutputChars+5)}}}
	if got := outputs(long); !strings.HasSuffix(got, "é… (cut)") || len([]rune(got)) != maxOutputChars+len([]rune("… (cut)")) {
		t.Errorf("want %d characters and a cut mark, got %d", maxOutputChars, len([]rune(got)))
	}
}
