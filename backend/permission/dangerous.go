package permission

import (
	"strings"
)

// A remembered prefix says which program the user let run, not every way
// of running it: "git log" remembered must not allow git log --output=F,
// and "find" must not allow find -exec. dangerous names, program by
// program, the options and forms that run other programs, write files they
// are given, talk to other repositories or hosts on their own, or run code
// passed inline. A command using one is never covered by a remembered
// prefix, whatever it was remembered with; the user is asked each time.
// (The list follows codex's is_safe_command and the attacks of issue 12;
// it guards escalations only, since inside the sandbox every option is
// confined anyway.)

// optionRule says whether one argument of a program is dangerous.
type optionRule func(arg string) bool

// flags matches arguments that are one of names, or start with name= (long
// options) or, for single-letter options, name followed by its value.
func flags(names ...string) optionRule {
	return func(a string) bool {
		for _, n := range names {
			switch {
			case a == n:
				return true
			case strings.HasPrefix(n, "--") && strings.HasPrefix(a, n+"="):
				return true
			case len(n) == 2 && n[0] == '-' && n[1] != '-' && strings.HasPrefix(a, n) && !strings.HasPrefix(a, "--"):
				return true
			}
		}
		return false
	}
}

// dangerousOptions are the per-program argument rules.
var dangerousOptions = map[string]optionRule{
	"go":   flags("-exec", "-toolexec", "-vettool", "-overlay", "-modfile", "-o", "-C"),
	"find": flags("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"),
	"rg":   flags("--pre", "--pre-glob", "--hostname-bin", "-z", "--search-zip"),
	"tar":  flags("--checkpoint-action", "--to-command", "--use-compress-program", "-I", "--info-script", "-F", "--new-volume-script", "--rmt-command", "--rsh-command"),
	"curl": func(a string) bool {
		return flags("-o", "-O", "--output", "--remote-name", "-K", "--config", "-T", "--upload-file")(a) || strings.HasPrefix(a, "@")
	},
	"wget":    flags("-O", "--output-document", "-o", "--output-file", "-i", "--input-file", "-e", "--execute", "--post-file", "--use-askpass"),
	"ssh":     flags("-o", "-F", "-L", "-R", "-D", "-w"),
	"scp":     flags("-o", "-F", "-S"),
	"rsync":   flags("-e", "--rsh", "--rsync-path"),
	"zip":     flags("-T", "--test", "-TT", "--unzip-command"),
	"node":    flags("-e", "--eval", "-p", "--print", "-r", "--require", "--import"),
	"deno":    func(a string) bool { return a == "eval" },
	"bun":     flags("-e", "--eval", "-p", "--print"),
	"perl":    flags("-e", "-E", "-i", "-M", "-m"),
	"ruby":    flags("-e", "-r"),
	"php":     flags("-r"),
	"make":    flags("--eval", "-E"),
	"sort":    flags("-o", "--output", "--compress-program"),
	"tree":    flags("-o"),
	"base64":  flags("-o", "--output"),
	"git-lfs": func(string) bool { return true },
}

// alwaysDangerous are programs no prefix ever covers: they change the
// repository's configuration, run arbitrary packages, or hand out the host.
var alwaysDangerous = map[string]bool{
	"docker": true, "podman": true, "kubectl": true, "npx": true, "pnpx": true, "bunx": true,
	"crontab": true, "at": true, "systemctl": true, "launchctl": true, "chsh": true,
}

// dangerousSubcommands are subcommands that run programs or rewrite
// settings outside the workspace's files.
var dangerousSubcommands = map[string]map[string]bool{
	"git": {"config": true, "filter-branch": true, "submodule": true, "difftool": true, "mergetool": true,
		"bisect": true, "hook": true, "daemon": true, "credential": true, "instaweb": true, "remote-ext": true},
	"go":   {"generate": true, "env": true},
	"npm":  {"exec": true, "x": true, "config": true, "set-script": true},
	"pnpm": {"exec": true, "dlx": true, "config": true},
	"yarn": {"exec": true, "dlx": true, "config": true},
}

// dangerous reports whether a simple command uses a dangerous form of its
// program. words are its leading literal words; allLiteral says there are
// no others. A program with dangerous options whose arguments are not all
// literal is dangerous, since a variable or a glob could expand to one.
func dangerous(words []string, allLiteral bool) bool {
	program, args := words[0], words[1:]
	if i := strings.LastIndexByte(program, '/'); i >= 0 {
		program = program[i+1:]
	}
	if alwaysDangerous[program] {
		return true
	}
	if len(args) > 0 && dangerousSubcommands[program][args[0]] {
		return true
	}
	switch {
	case program == "git":
		return !allLiteral || dangerousGit(args)
	case isPython(program):
		return !allLiteral || hasAny(args, flags("-c", "-m"))
	case program == "sed" || program == "gsed":
		return !allLiteral || dangerousSed(args)
	case isAwk(program):
		return !allLiteral || dangerousAwk(args)
	}
	rule, ok := dangerousOptions[program]
	if !ok {
		return false
	}
	return !allLiteral || hasAny(args, rule)
}

// gitAnywhere are git options dangerous wherever they appear: another
// repository (with its own hooks and config) or configuration given on the
// command line, programs to run, files to write.
var gitAnywhere = flags("-c", "--config-env", "--exec-path", "-C", "--git-dir", "--work-tree", "--namespace",
	"--output", "--ext-diff", "--textconv", "--exec", "--upload-pack", "--receive-pack",
	"--open-files-in-pager", "--run", "--extcmd", "--tool", "--template")

// gitShort are short options dangerous only with some subcommands.
var gitShort = map[string]optionRule{
	"clone": flags("-u"), "fetch": flags("-u"), "pull": flags("-u"), "ls-remote": flags("-u"),
	"rebase": flags("-x"), "grep": flags("-O"), "archive": flags("-o"), "format-patch": flags("-o"),
}

func dangerousGit(args []string) bool {
	if hasAny(args, gitAnywhere) {
		return true
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return gitShort[a] != nil && hasAny(args, gitShort[a])
		}
	}
	return false
}

func hasAny(args []string, rule optionRule) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if rule(a) {
			return true
		}
	}
	return false
}

func isPython(p string) bool {
	return p == "python" || strings.HasPrefix(p, "python2") || strings.HasPrefix(p, "python3") || p == "pypy3"
}

func isAwk(p string) bool {
	return p == "awk" || p == "gawk" || p == "mawk" || p == "nawk" || p == "busybox-awk"
}

// dangerousAwk refuses awk programs that can run commands or write files:
// system(), pipes, output redirection, getline, and program files or
// extensions loaded from elsewhere.
func dangerousAwk(args []string) bool {
	if hasAny(args, flags("-f", "--file", "-E", "--exec", "-l", "--load", "-i", "--include")) {
		return true
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		return strings.ContainsAny(a, "|>") || strings.Contains(a, "system") || strings.Contains(a, "getline") ||
			strings.Contains(a, "@load")
	}
	return false
}

// dangerousSed refuses in-place editing, scripts read from files, and
// scripts whose commands write files or run them (w, W, r, R, e, and the e
// and w flags of s).
func dangerousSed(args []string) bool {
	if hasAny(args, flags("-i", "--in-place", "-f", "--file", "-s", "--separate")) {
		return true
	}
	var scripts []string
	explicit := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
			explicit = true
		case strings.HasPrefix(a, "--expression="):
			scripts, explicit = append(scripts, strings.TrimPrefix(a, "--expression=")), true
		case strings.HasPrefix(a, "-"):
			if strings.ContainsRune(strings.TrimLeft(a, "-"), 'i') && !strings.HasPrefix(a, "--") {
				return true // -ni, -Ei: in place
			}
		case !explicit && len(scripts) == 0:
			scripts = append(scripts, a)
		}
	}
	for _, s := range scripts {
		if !sedScriptSafe(s) {
			return true
		}
	}
	return false
}

// sedScriptSafe reads a sed script command by command: an address, then
// the command letter; an s command's pattern and replacement are skipped
// (with their escapes) to reach its flags. What it cannot read is unsafe.
func sedScriptSafe(script string) bool {
	i := 0
	for i < len(script) {
		c := script[i]
		switch {
		case c == ';' || c == '\n' || c == ' ' || c == '\t' || c == '{' || c == '}' || c == '!':
			i++
		case c >= '0' && c <= '9' || c == ',' || c == '$' || c == '~' || c == '+':
			i++
		case c == '/' || c == '\\':
			end := skipDelimited(script, i)
			if end < 0 {
				return false
			}
			i = end
		case c == 's' || c == 'y':
			end := skipDelimited(script, i+1)
			if end < 0 {
				return false
			}
			end = skipDelimitedFrom(script, end, script[i+1])
			if end < 0 {
				return false
			}
			j := end
			for j < len(script) && script[j] != ';' && script[j] != '\n' && script[j] != '}' {
				if c == 's' && (script[j] == 'e' || script[j] == 'w' || script[j] == 'W') {
					return false
				}
				j++
			}
			i = j
		case strings.IndexByte("ewWrR", c) >= 0:
			return false
		case strings.IndexByte("pdDnNgGhHxlz=qQ", c) >= 0:
			i++
		default:
			return false
		}
	}
	return true
}

// skipDelimited skips a /regex/ (or \cregexc) starting at i, returning the
// index after its closing delimiter, or -1.
func skipDelimited(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	delim := s[i]
	if delim == '\\' {
		if i+1 >= len(s) {
			return -1
		}
		i++
		delim = s[i]
	}
	return skipDelimitedFrom(s, i+1, delim)
}

// skipDelimitedFrom skips text up to and including delim from i, honouring
// backslash escapes, returning the index after it, or -1.
func skipDelimitedFrom(s string, i int, delim byte) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
		case delim:
			return i + 1
		default:
			i++
		}
	}
	return -1
}
