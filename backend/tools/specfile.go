package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// Prose is what the model is told about a tool: Spec.Description and
// Spec.Guidance.
type Prose struct {
	Description string
	Guidance    string
}

// guidanceHeading ends a prose file's description and starts its guidance.
const guidanceHeading = "## Guidance"

// ProseFile is the prose of a tool, read from the Markdown file name in
// files, which the tool's package embeds, when it is first asked for: off
// the path of programs that never describe their tools. The file is the
// description, then a line "## Guidance", then the guidance, which may be
// empty: the tool then adds nothing to the system prompt. Each section is one
// paragraph: its lines are trimmed and joined with single spaces, so the
// file wraps freely while the model gets one line. vars are pairs of a
// placeholder, written "{{name}}" in the file, and its value; they keep the
// numbers the prose states and the code enforces in one place.
//
// The files are part of the program, so a malformed one (no heading, an
// empty description, a blank line inside a section, a placeholder without
// a value or a value without a placeholder) panics, naming the file; the
// golden of the built-in tools' specs reads every one.
func ProseFile(files fs.FS, name string, vars ...string) func() Prose {
	return sync.OnceValue(func() Prose { return parseProse(files, name, vars) })
}

func parseProse(files fs.FS, name string, vars []string) Prose {
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("tools: prose file %s: %s", name, fmt.Sprintf(format, args...)))
	}
	raw, err := fs.ReadFile(files, name)
	if err != nil {
		fail("%v", err)
	}
	src := string(raw)
	if len(vars)%2 != 0 {
		fail("placeholder %s has no value", vars[len(vars)-1])
	}
	for i := 0; i < len(vars); i += 2 {
		if !strings.Contains(src, vars[i]) {
			fail("placeholder %s does not occur", vars[i])
		}
		src = strings.ReplaceAll(src, vars[i], vars[i+1])
	}
	if i := strings.Index(src, "{{"); i >= 0 {
		fail("placeholder %.20s… has no value", src[i:])
	}
	desc, guide, ok := strings.Cut(strings.ReplaceAll(src, "\r\n", "\n"), "\n"+guidanceHeading+"\n")
	if !ok {
		fail("no line %q between the description and the guidance", guidanceHeading)
	}
	var p Prose
	if p.Description, ok = paragraph(desc); !ok || p.Description == "" {
		fail("the description is not one paragraph of text")
	}
	if p.Guidance, ok = paragraph(guide); !ok {
		fail("the guidance is not one paragraph")
	}
	return p
}

// paragraph joins the trimmed lines of section with spaces, dropping the
// blank lines around it; ok is false when a blank line splits it.
func paragraph(section string) (text string, ok bool) {
	lines := strings.Split(strings.TrimSpace(section), "\n")
	for i, l := range lines {
		if lines[i] = strings.TrimSpace(l); lines[i] == "" && len(lines) > 1 {
			return "", false
		}
	}
	return strings.Join(lines, " "), true
}

// SchemaFile is the JSON schema of a tool's arguments, read from the file
// name in files, which the tool's package embeds, when it is first asked
// for. The file is indented for review; the schema is compact, as the
// model gets it. A file that is not JSON panics, naming the file.
func SchemaFile(files fs.FS, name string) func() json.RawMessage {
	return sync.OnceValue(func() json.RawMessage {
		raw, err := fs.ReadFile(files, name)
		var compact bytes.Buffer
		if err == nil {
			err = json.Compact(&compact, raw)
		}
		if err != nil {
			panic(fmt.Sprintf("tools: schema file %s: %v", name, err))
		}
		return compact.Bytes()
	})
}
