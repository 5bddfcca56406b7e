package complete

import "strings"

// TriggerKind says which menu a trigger opens.
type TriggerKind int

const (
	// CommandTrigger is a "/name" draft: the slash command menu.
	CommandTrigger TriggerKind = iota + 1
	// FileTrigger is an "@path" token: the file menu.
	FileTrigger
)

// Trigger is the token under the cursor that opens a menu.
type Trigger struct {
	Kind TriggerKind
	// Start and End are the byte span of the token in the draft (the "/"
	// or "@" included) that accepting replaces.
	Start, End int
	Query      string // the text typed after "/", "@" or `@"`
	Quoted     bool   // the token began `@"`
}

// FindTrigger finds the token at cursor (a byte offset) in draft that
// opens a menu: a slash command when the draft is "/name" with nothing
// before it and the cursor after the slash, or "@path" where the "@" starts the draft or follows
// whitespace (so an e-mail address a@b does not), or `@"path with
// spaces` until a closing quote.
func FindTrigger(draft string, cursor int) (Trigger, bool) {
	cursor = min(max(0, cursor), len(draft))
	before := draft[:cursor]
	if cursor > 0 && strings.HasPrefix(draft, "/") && !strings.ContainsAny(before, " \t\n") {
		return Trigger{Kind: CommandTrigger, Start: 0, End: cursor + tokenEnd(draft[cursor:]), Query: before[1:]}, true
	}
	lineStart := strings.LastIndexByte(before, '\n') + 1
	for i := cursor - 1; i >= lineStart; i-- {
		if draft[i] != '@' || (i > 0 && !isSpace(draft[i-1])) {
			continue
		}
		rest := draft[i+1 : cursor]
		if q, ok := strings.CutPrefix(rest, `"`); ok {
			if strings.Contains(q, `"`) {
				return Trigger{}, false
			}
			end := cursor
			if j := strings.IndexByte(draft[cursor:], '"'); j >= 0 && !strings.Contains(draft[cursor:cursor+j], "\n") {
				end = cursor + j + 1
			}
			return Trigger{Kind: FileTrigger, Start: i, End: end, Query: q, Quoted: true}, true
		}
		if strings.ContainsAny(rest, " \t") {
			return Trigger{}, false
		}
		return Trigger{Kind: FileTrigger, Start: i, End: cursor + tokenEnd(draft[cursor:]), Query: rest}, true
	}
	return Trigger{}, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// tokenEnd is the length of the non-space run that s starts with.
func tokenEnd(s string) int {
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		return i
	}
	return len(s)
}

// FileText is what accepting path inserts: "@path " — quoted as
// `@"path" ` when it has spaces or the trigger was quoted — and for a
// folder no closing quote or space, so completion continues inside it.
func FileText(path string, quoted bool) string {
	dir := strings.HasSuffix(path, "/")
	if quoted || strings.ContainsAny(path, " \t") {
		if dir {
			return `@"` + path
		}
		return `@"` + path + `" `
	}
	if dir {
		return "@" + path
	}
	return "@" + path + " "
}
