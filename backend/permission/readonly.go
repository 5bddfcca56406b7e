package permission

import "strings"

// While planning, a command runs only when every simple command of the line
// is on a short list of programs that observe and never change anything,
// and no redirection writes a file. The list is deliberately conservative:
// a program is on it only when none of its flags writes files or runs other
// programs, or when the flags that do are refused below. For programs with
// such flags every word must be a plain literal, because a variable or a
// glob could expand to one of them. Anything else is refused, never asked
// about: plan mode is for looking, and the model is told so.

// readOnlyCommand reports whether command only observes the workspace.
func readOnlyCommand(command string) bool {
	f, ok := parse(command)
	if !ok || len(f.Stmts) == 0 {
		return false
	}
	return matcher{allows: func(assigns, w []string, allLiteral bool) bool {
		// A harmless variable (LANG=C) changes no more than how the
		// program reads or shows text; PATH=… could make ls another one.
		return len(withoutHarmless(assigns)) == 0 && readOnlyCall(w, allLiteral)
	}}.stmts(f.Stmts)
}

// readOnlyCall judges one simple command by its literal words.
func readOnlyCall(words []string, allLiteral bool) bool {
	program, args := words[0], words[1:]
	if observes(program) {
		return true
	}
	if !allLiteral {
		return false
	}
	switch program {
	case "find":
		return !hasFlag(args, "-exec", "-ok", "-delete", "-fprint", "-fls")
	case "rg":
		return !hasFlag(args, "--pre")
	case "tree", "sort":
		// tree -o and sort -o write their output to a file.
		return !hasFlag(args, "--output") && !hasShortFlag(args, 'o')
	case "file":
		// file -C compiles a magic file next to the input.
		return !hasFlag(args, "--compile") && !hasShortFlag(args, 'C')
	case "git":
		return readOnlyGit(args)
	case "go":
		return readOnlyGo(args)
	}
	return false
}

// observes reports whether program has no flag that writes files or runs
// programs, whatever its arguments.
func observes(program string) bool {
	switch program {
	case "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep",
		"pwd", "echo", "printf", "stat", "which", "type", "du", "df",
		"cut", "tr", "nl", "column", "basename", "dirname", "realpath", "readlink",
		"diff", "cmp", "md5sum", "sha1sum", "sha256sum", "od", "hexdump",
		"uname", "whoami", "jq", "cd", "test", "true", "false":
		return true
	}
	return false
}

// readOnlyGit accepts the git subcommands that only inspect the repository.
func readOnlyGit(args []string) bool {
	sub, rest, ok := gitSubcommand(args)
	if !ok {
		return false
	}
	// --output writes the diff to a file; -O opens a pager program.
	if hasFlag(rest, "--output", "--open-files-in-pager") || (sub == "grep" && hasShortFlag(rest, 'O')) {
		return false
	}
	switch sub {
	case "status", "log", "diff", "show", "rev-parse", "ls-files", "blame", "grep", "describe", "shortlog":
		return true
	case "branch":
		return listsBranches(rest)
	}
	return false
}

// gitSubcommand skips the global options that only change where git looks
// or whether it pages (-C dir, --no-pager). Any other global option, -c
// included (it can name a pager or an external diff program), leaves no
// subcommand to accept.
func gitSubcommand(args []string) (string, []string, bool) {
	for len(args) > 0 {
		switch {
		case args[0] == "--no-pager" || args[0] == "-P":
			args = args[1:]
		case args[0] == "-C" && len(args) > 1:
			args = args[2:]
		default:
			return args[0], args[1:], true
		}
	}
	return "", nil, false
}

// listsBranches accepts git branch only in its listing forms: no branch is
// created, renamed, copied, deleted or re-pointed.
func listsBranches(args []string) bool {
	listing, named := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-l" || a == "--list":
			listing = true
		case takesValue(a):
			i++
		case strings.HasPrefix(a, "--"):
			if !listingLongFlag(a) {
				return false
			}
		case strings.HasPrefix(a, "-"):
			if strings.Trim(a[1:], "arvil") != "" {
				return false
			}
			listing = listing || strings.Contains(a, "l")
		default:
			named = true
		}
	}
	return !named || listing
}

// takesValue reports whether a is a git branch filter that reads the next
// word as its commit.
func takesValue(a string) bool {
	switch a {
	case "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format":
		return true
	}
	return false
}

func listingLongFlag(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch name {
	case "--all", "--remotes", "--verbose", "--show-current", "--color", "--no-color", "--column", "--no-column",
		"--ignore-case", "--abbrev", "--no-abbrev", "--contains", "--no-contains", "--merged", "--no-merged",
		"--points-at", "--sort", "--format", "--omit-empty":
		return true
	}
	return false
}

// readOnlyGo accepts go subcommands that read packages without building
// into the workspace, and refuses the flags that run other programs, write
// output files or rewrite go.mod.
func readOnlyGo(args []string) bool {
	if len(args) == 0 {
		return false
	}
	sub, rest := args[0], args[1:]
	if hasFlag(rest, "-toolexec", "-vettool", "-exec", "-o", "-modfile", "-mod=mod", "-overlay") {
		return false
	}
	switch sub {
	case "list", "vet", "doc", "version":
		return true
	case "env":
		return !hasFlag(rest, "-w", "-u")
	}
	return false
}

// hasFlag reports whether an argument starts with one of names, written
// with one dash or two. Matching the start is deliberate: "-exec" also
// catches "-execdir" and "--output" catches "--output=file".
func hasFlag(args []string, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			long := strings.TrimLeft(n, "-")
			if strings.HasPrefix(a, "-"+long) || strings.HasPrefix(a, "--"+long) {
				return true
			}
		}
	}
	return false
}

// hasShortFlag reports whether a cluster of single-letter flags such as
// -ao contains letter.
func hasShortFlag(args []string, letter byte) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], letter) >= 0 {
			return true
		}
	}
	return false
}
