package frontmatter

import (
	"reflect"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// topKey is a line that starts a top-level "key:" entry.
var topKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_-]+):(?:[ \t]|$)`) })

// salvage decodes front matter that is not YAML only because a value of
// one of v's keys goes on over lines that are not indented under it: the
// agent files of Anthropic's plugin-dev guide, whose description is
// followed by <example> blocks at the start of their lines, holding
// "user: …" and "assistant: …" lines of their own. Each of v's keys
// takes the lines up to the next of v's keys; where those lines are not
// YAML on their own, the value is their text, as a block, up to the last
// line that is not a "key:" line of its own (color: blue after the
// examples stays a key, and is passed over as v does not have it). It
// reports whether v was decoded so; a line indented with a tab is never
// guessed at, and neither is a v that is not a struct.
func salvage(yml []byte, v any) bool {
	keys := fieldKeys(v)
	if len(keys) == 0 {
		return false
	}
	lines := strings.Split(string(yml), "\n")
	var out []string
	start := -1
	take := func(end int) bool {
		if start < 0 {
			return true
		}
		e, ok := entryLines(lines[start:end])
		out = append(out, e...)
		return ok
	}
	for i, l := range lines {
		if m := topKey().FindStringSubmatch(l); m != nil && keys[m[1]] {
			if !take(i) {
				return false
			}
			start = i
		}
	}
	if !take(len(lines)) {
		return false
	}
	fixed := []byte(strings.Join(out, "\n"))
	if q, ok := quoteColonValues(fixed); ok {
		fixed = q
	}
	return yaml.Unmarshal(fixed, v) == nil
}

// entryLines is one key's lines as YAML: as they are when they are YAML,
// else the value as a literal block (indented by two, so lines indented
// more keep their indentation). It is not ok when a line is indented with
// a tab, which says nothing about where it belongs.
func entryLines(ls []string) ([]string, bool) {
	src := []byte(strings.Join(ls, "\n"))
	var probe map[string]any
	if yaml.Unmarshal(src, &probe) == nil {
		return ls, true
	}
	if q, ok := quoteColonValues(src); ok && yaml.Unmarshal(q, &probe) == nil {
		return ls, true
	}
	last := 0
	for i, l := range ls[1:] {
		if strings.HasPrefix(l, "\t") {
			return nil, false
		}
		if strings.TrimSpace(l) != "" && !topKey().MatchString(l) {
			last = i + 1
		}
	}
	key := topKey().FindStringSubmatch(ls[0])[1]
	first := strings.TrimSpace(ls[0][len(key)+1:])
	if strings.HasPrefix(first, "|") || strings.HasPrefix(first, ">") {
		first = "" // a block whose lines were not indented
	}
	block := []string{key + ": |2-"}
	if first != "" {
		block = append(block, "  "+first)
	}
	for _, l := range ls[1 : last+1] {
		block = append(block, "  "+l)
	}
	return block, true
}

// fieldKeys are the yaml keys of the struct v points to.
func fieldKeys(v any) map[string]bool {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil
	}
	keys := map[string]bool{}
	for i := 0; i < t.Elem().NumField(); i++ {
		name, _, _ := strings.Cut(t.Elem().Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}
