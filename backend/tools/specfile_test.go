package tools

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// parse is the prose of one file, name, holding src.
func parse(name, src string, vars ...string) Prose {
	return ProseFile(fstest.MapFS{name: {Data: []byte(src)}}, name, vars...)()
}

func TestProseFileJoinsWrappedLines(t *testing.T) {
	src := "Read a file,\n  at most {{lines}} lines\r\nper call.\n\n## Guidance\n\nRead before\nyou edit.\n"
	got := parse("read.md", src, "{{lines}}", "2000")
	want := Prose{Description: "Read a file, at most 2000 lines per call.", Guidance: "Read before you edit."}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestProseFileEmptyGuidance(t *testing.T) {
	got := parse("kill.md", "Stop a task.\n## Guidance\n")
	if want := (Prose{Description: "Stop a task."}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestProseFileMalformedPanics(t *testing.T) {
	cases := []struct {
		name, src string
		vars      []string
		want      string
	}{
		{"no heading", "Read a file.\nGuidance: read first.\n", nil, `no line "## Guidance"`},
		{"heading not on its own line", "Read a file. ## Guidance\nread first.\n", nil, `no line "## Guidance"`},
		{"empty description", "\n## Guidance\nRead first.\n", nil, "description is not one paragraph"},
		{"two description paragraphs", "Read a file.\n\nOr an image.\n## Guidance\n", nil, "description is not one paragraph"},
		{"two guidance paragraphs", "Read a file.\n## Guidance\nRead first.\n\nThen edit.\n", nil, "guidance is not one paragraph"},
		{"placeholder without value", "At most {{lines}} lines.\n## Guidance\n", nil, "placeholder {{lines}}"},
		{"value without placeholder", "At most 2000 lines.\n## Guidance\n", []string{"{{lines}}", "2000"}, "{{lines}} does not occur"},
		{"odd vars", "At most {{lines}} lines.\n## Guidance\n", []string{"{{lines}}"}, "{{lines}} has no value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer wantPanic(t, "prose file read.md", c.want)
			parse("read.md", c.src, c.vars...)
		})
	}
}

func TestProseFileMissingFilePanics(t *testing.T) {
	defer wantPanic(t, "prose file read.md", "open read.md")
	ProseFile(fstest.MapFS{}, "read.md")()
}

// wantPanic, deferred, fails t unless the test panicked with a message
// that says each of want.
func wantPanic(t *testing.T, want ...string) {
	msg := fmt.Sprint(recover())
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("panic %q, want one saying %q", msg, w)
		}
	}
}

func TestSchemaFileIsCompact(t *testing.T) {
	files := fstest.MapFS{"read.schema.json": {Data: []byte("{\n  \"type\": \"object\",\n  \"required\": [\"file_path\"]\n}\n")}}
	got := string(SchemaFile(files, "read.schema.json")())
	if want := `{"type":"object","required":["file_path"]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestSchemaFileNotJSONPanics(t *testing.T) {
	for name, files := range map[string]fstest.MapFS{
		"missing":  {},
		"not JSON": {"read.schema.json": {Data: []byte("{\"type\": \"object\",}\n")}},
	} {
		t.Run(name, func(t *testing.T) {
			defer wantPanic(t, "schema file read.schema.json")
			SchemaFile(files, "read.schema.json")()
		})
	}
}

// BenchmarkProseFile parses a prose file the size of the longest (bash's,
// about 1.5 KB) with three placeholders: every tool's is parsed once, as
// a session composes its tools.
func BenchmarkProseFile(b *testing.B) {
	desc := strings.Repeat("Run a command and return its output, within {{default}} ms or at most {{max}} ms, keeping {{tail}} bytes.\n", 10)
	src := desc + "\n## Guidance\n" + strings.Repeat("Check the exit code of every result.\n", 8)
	files := fstest.MapFS{"bash.md": {Data: []byte(src)}}
	b.ReportAllocs()
	for b.Loop() {
		parseProse(files, "bash.md", []string{"{{default}}", "120000", "{{max}}", "600000", "{{tail}}", "64000"})
	}
}
