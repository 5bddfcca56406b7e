package permission

import "strings"

// Claude Code looks past the assignments in front of a command before it
// matches the command against the allow rules when each sets a variable
// of a fixed list, one whose value only picks a locale, a colour, a
// target or how much a program logs: Bash(npm test *) covers
// NODE_ENV=test npm test. Any other variable (NODE_OPTIONS, PYTHONPATH,
// LD_PRELOAD, GOFLAGS, PATH, BASH_ENV, GIT_*) can make the program load
// or run other code, and keeps the command needing a rule that names it.
// Remembered prefixes, plan mode's read-only commands and rules that name
// a whole line (Bash(npm run build 2>&1 | tail -30), what "don't ask
// again" saves) look past the same assignments.
// Only assignments of plain literals get this far (assignments in
// prefix.go): a value with $, backquotes, $( ), globs or a tilde asks.
// Assignments after a wrapper (timeout 5 NODE_ENV=test npm test) are no
// assignments at all: the wrapper runs a program of that name.

// harmless reports whether the assignment NAME=value sets a variable
// whose value cannot make a program run other code.
func harmless(assign string) bool {
	name, _, _ := strings.Cut(assign, "=")
	switch name {
	case "GOEXPERIMENT", "GOOS", "GOARCH", "CGO_ENABLED", "GO111MODULE",
		"RUST_BACKTRACE", "RUST_LOG",
		"NODE_ENV",
		"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE",
		"PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTEST_DEBUG",
		"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_TIME", "LC_COLLATE", "LC_MESSAGES", "LC_MONETARY", "LC_NUMERIC", "CHARSET",
		"TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TZ",
		"LS_COLORS", "LSCOLORS", "GREP_COLOR", "GREP_COLORS", "GCC_COLORS",
		"TIME_STYLE", "BLOCK_SIZE", "BLOCKSIZE":
		return true
	}
	return false
}

// withoutHarmless is assigns without the harmless ones.
func withoutHarmless(assigns []string) []string {
	var rest []string
	for _, a := range assigns {
		if !harmless(a) {
			rest = append(rest, a)
		}
	}
	return rest
}
