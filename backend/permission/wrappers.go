package permission

import (
	"regexp"
	"strings"
	"sync"
)

// Claude Code looks through a fixed set of wrappers before it matches a
// command against the allow rules: Bash(npm test *) covers
// timeout 30 npm test, and a rule written with the wrapper,
// Bash(timeout 10 uv run:*), covers the command it wraps. Each of them
// runs its arguments as the command and does nothing else with them:
// nohup, nice, timeout, stdbuf, command (not command -v), and time, which
// bash reads as a keyword. A wrapper is looked through only when every
// option it is given is one of its own that takes no command; any other
// leaves it the program, which no rule covers (runsOtherPrograms).

// unwrapped is words without the wrappers in front of the command they
// run, or words as they are when a wrapper's options are not plain.
func unwrapped(words []string) []string {
	for len(words) > 0 {
		inner, ok := unwrap(words)
		if !ok {
			return words
		}
		words = inner
	}
	return words
}

// unwrap is the command words[0] runs, when words[0] is a wrapper given
// only options it knows.
func unwrap(words []string) ([]string, bool) {
	args := words[1:]
	switch words[0] {
	case "nohup", "command": // command -v and -p are left as they are, below
	case "nice":
		switch {
		case len(args) > 1 && args[0] == "-n" && isNumber(args[1]):
			args = args[2:]
		case len(args) > 0 && strings.HasPrefix(args[0], "-") && isNumber(args[0][1:]):
			args = args[1:]
		}
	case "stdbuf":
		for len(args) > 0 && stdbufMode().MatchString(args[0]) {
			args = args[1:]
		}
	case "timeout":
		args = timeoutOptions(args)
		if len(args) == 0 || !duration().MatchString(args[0]) {
			return nil, false
		}
		args = args[1:]
	default:
		return nil, false
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	return args, len(args) > 0 && !strings.HasPrefix(args[0], "-")
}

// timeoutOptions is args after timeout's options: those without a value,
// and a signal or a kill delay given as plain text.
func timeoutOptions(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--foreground" || a == "--preserve-status" || a == "--verbose" || a == "-v":
			args = args[1:]
		case (a == "-k" || a == "-s" || a == "--kill-after" || a == "--signal") && len(args) > 1 && optionValue().MatchString(args[1]):
			args = args[2:]
		case strings.HasPrefix(a, "--kill-after=") || strings.HasPrefix(a, "--signal="):
			if _, v, _ := strings.Cut(a, "="); !optionValue().MatchString(v) {
				return args
			}
			args = args[1:]
		case (strings.HasPrefix(a, "-k") || strings.HasPrefix(a, "-s")) && !strings.HasPrefix(a, "--") && optionValue().MatchString(a[2:]):
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

func isNumber(s string) bool { return isDigits(strings.TrimPrefix(s, "-")) }

var (
	stdbufMode  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-[ioe][0-9]*[LNKMGkmg0]?$`) })
	duration    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[smhd]?$`) })
	optionValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`) })
)
