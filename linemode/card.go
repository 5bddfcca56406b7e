package linemode

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
)

// Indents of the lines under a [tool call] or [tool result] tag.
const (
	tagIndent    = "  "
	detailIndent = "      "
	resultIndent = "    "
)

// maxInlineArgs is the longest argument JSON shown as is after the tool's
// name; longer or multi-line arguments show as the card's title and one
// line per field.
const maxInlineArgs = 160

// maxFieldValue is the longest string argument shown in full on its field
// line; longer and multi-line values show their size instead.
const maxFieldValue = 120

// CallText is the [tool call] text of a call: "name(args)" when the
// arguments are one short line, else "name: <card title>" and one line per
// argument field (path, command, description, ...), long values
// summarised by their size, so a 3,000-character write stays a few lines.
func CallText(name, args string, c card.Card) string {
	name = textfmt.SanitizeLine(name)
	if len(args) <= maxInlineArgs && !strings.ContainsAny(args, "\n\r") {
		return "[tool call] " + name + "(" + textfmt.SanitizeLine(args) + ")"
	}
	title := textfmt.SanitizeLine(c.Title)
	var b strings.Builder
	b.WriteString("[tool call] " + name)
	if title != "" {
		b.WriteString(": " + title)
	}
	fields, ok := argFields(args)
	if !ok {
		fmt.Fprintf(&b, "\n%sarguments: %s", detailIndent, sizeOf(args))
		return b.String()
	}
	for _, f := range fields {
		if f.value == title {
			continue // the title already says it (a bash command)
		}
		b.WriteString("\n" + detailIndent + f.key + ": " + f.value)
	}
	return b.String()
}

// argField is one top-level field of a call's arguments, ready to show.
type argField struct{ key, value string }

// argFields lists the fields of a JSON object in the order the model wrote
// them; ok is false when args is not an object.
func argFields(args string) (fields []argField, ok bool) {
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		fields = append(fields, argField{key: textfmt.SanitizeLine(key), value: fieldValue(raw)})
	}
	return fields, true
}

// fieldValue shows a short one-line string as is, anything else short as
// its JSON, and long or multi-line values by their size.
func fieldValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if utf8.RuneCountInString(s) <= maxFieldValue && !strings.ContainsAny(s, "\n\r") {
			return textfmt.SanitizeLine(s)
		}
		return sizeOf(s)
	}
	if len(raw) <= maxFieldValue {
		return textfmt.SanitizeLine(string(raw))
	}
	return sizeOf(string(raw))
}

// sizeOf is "N lines, B bytes" (or "B bytes" for one line).
func sizeOf(s string) string {
	bytes := textfmt.Thousands(len(s)) + " bytes"
	lines := strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
	if lines == 1 {
		return bytes
	}
	return textfmt.Thousands(lines) + " lines, " + bytes
}

// ResultText is the [tool result] text of a result: exactly the text the
// model read, sanitised, its continuation lines indented under the tag.
func ResultText(text string) string {
	return "[tool result] " + strings.ReplaceAll(textfmt.Sanitize(text), "\n", "\n"+resultIndent)
}

// cardLines is a card as plain text lines, as the approval dialog shows
// it, with the characters that make text read other than it runs
// revealed (textfmt.Reveal): a command with its working directory (cwd when the call names
// none) and purpose, the diff of each file with its footer, or the body.
func cardLines(c card.Card, cwd string) []string {
	var out []string
	switch {
	case c.Terminal != nil:
		for i, l := range strings.Split(strings.TrimRight(textfmt.Reveal(c.Terminal.Command), "\n"), "\n") {
			prefix := "  "
			if i == 0 {
				prefix = "$ "
			}
			out = append(out, prefix+l)
		}
		dir := c.Terminal.Cwd
		if dir == "" {
			dir = cwd
		}
		if dir != "" {
			out = append(out, "in "+textfmt.SanitizeLine(dir))
		}
		if d := textfmt.RevealLine(c.Description); d != "" {
			out = append(out, "# "+d)
		}
	case len(c.Diffs) > 0:
		out = diffLines(c.Diffs)
	case c.Body != "":
		out = strings.Split(strings.TrimRight(textfmt.Reveal(c.Body), "\n"), "\n")
	}
	return out
}

// diffLines is each file's path and diff lines, then a `└ +A -R · N files`
// footer.
func diffLines(diffs []card.FileDiff) []string {
	var out []string
	added, removed, approximate := 0, 0, false
	for _, d := range diffs {
		path := textfmt.RevealLine(d.Path)
		if d.Created {
			path += " (new)"
		}
		out = append(out, path)
		for _, l := range d.Lines {
			text := textfmt.RevealLine(l.Text)
			switch l.Op {
			case card.OpAdd:
				out = append(out, "+ "+text)
			case card.OpDelete:
				out = append(out, "- "+text)
			case card.OpGap:
				out = append(out, "⋯")
			default:
				out = append(out, "  "+text)
			}
		}
		added += d.Added
		removed += d.Removed
		approximate = approximate || d.Approximate
	}
	files := "1 file"
	if len(diffs) != 1 {
		files = strconv.Itoa(len(diffs)) + " files"
	}
	footer := "└ +" + strconv.Itoa(added) + " -" + strconv.Itoa(removed) + " · " + files
	if approximate {
		footer += " · approximate"
	}
	return append(out, footer)
}
