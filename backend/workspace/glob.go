package workspace

import (
	"fmt"
	"regexp"
	"strings"
)

// Glob is a compiled glob, matched against one string: a basename or a
// slash-separated relative path. Plain names and "*.ext" globs, by far the
// most common, skip the regexp.
type Glob struct {
	literal  string
	suffix   string
	hasMeta  bool
	re       *regexp.Regexp
	suffixOK bool
}

// Match reports whether s matches the whole glob.
func (m *Glob) Match(s string) bool {
	switch {
	case !m.hasMeta:
		return s == m.literal
	case m.suffixOK:
		return strings.HasSuffix(s, m.suffix)
	}
	return m.re.MatchString(s)
}

// CompileGlob compiles a glob: `*` and `?` within one path segment,
// `**` across segments, `[...]` classes (`[!...]` negated), `{a,b}`
// alternatives when braces is set, and `\` escapes. Ignore files use it
// without braces, as git does.
func CompileGlob(glob string, braces bool) (*Glob, error) {
	m := &Glob{literal: glob, hasMeta: strings.ContainsAny(glob, `*?[\`) || braces && strings.Contains(glob, "{")}
	if !m.hasMeta {
		return m, nil
	}
	if rest, ok := strings.CutPrefix(glob, "*"); ok && !strings.ContainsAny(rest, `*?[\/{`) {
		m.suffix, m.suffixOK = rest, true
		return m, nil
	}
	expr, err := globRegexp(glob, braces)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid glob %q: %v", glob, err)
	}
	m.re = re
	return m, nil
}

// globRegexp translates a glob into an anchored regular expression.
func globRegexp(glob string, braces bool) (string, error) {
	var b strings.Builder
	b.WriteString("^")
	depth := 0
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case c == '*' && strings.HasPrefix(glob[i:], "**"):
			atStart := i == 0 || glob[i-1] == '/'
			next := i + 2
			switch {
			case atStart && strings.HasPrefix(glob[next:], "/"):
				b.WriteString("(?:.*/)?")
				next++
			case atStart && next == len(glob):
				b.WriteString(".*")
			default:
				b.WriteString("[^/]*")
			}
			i = next - 1
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end, class := globClass(glob[i:])
			if end < 0 {
				return "", fmt.Errorf("invalid glob %q: unclosed [", glob)
			}
			b.WriteString(class)
			i += end
		case c == '\\' && i+1 < len(glob):
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		case braces && c == '{':
			depth++
			b.WriteString("(?:")
		case braces && c == '}' && depth > 0:
			depth--
			b.WriteString(")")
		case braces && c == ',' && depth > 0:
			b.WriteString("|")
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	if depth > 0 {
		return "", fmt.Errorf("invalid glob %q: unclosed {", glob)
	}
	b.WriteString("$")
	return b.String(), nil
}

// globClass translates the bracket expression at the start of s, returning
// the index of its closing bracket (or -1) and the regexp class.
func globClass(s string) (int, string) {
	i := 1
	neg := false
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		neg = true
		i++
	}
	start := i
	if i < len(s) && s[i] == ']' {
		i++
	}
	for i < len(s) && s[i] != ']' {
		i++
	}
	if i >= len(s) {
		return -1, ""
	}
	body := strings.ReplaceAll(s[start:i], `\`, `\\`)
	body = strings.ReplaceAll(body, "[", `\[`)
	if neg {
		return i, "[^/" + body + "]"
	}
	return i, "[" + body + "]"
}
