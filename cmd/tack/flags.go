package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/permission"
)

// options are the parsed command line.
type options struct {
	print          string
	printSet       bool // -p was given, even if empty
	ui             string
	model          string
	provider       string
	effort         string
	resume         string
	resumeSet      bool
	cont           bool
	dir            string
	permissionMode string
	outputFormat   string
	color          string
	noReasoning    bool
	version        bool
	help           bool
	task           string // positional arguments joined
	images         []string
}

const usage = `Usage: tack [flags] [task]

tack is a coding agent for your terminal. In a terminal it opens the
full-screen interface; with pipes it runs in line mode.

Flags:
  -p, --print TASK          run one task, print the answer and exit
      --ui MODE             front door: auto, tui or line (default auto)
      --model ID            model to use (default from config, else the provider's:
                            deepseek-flash, gpt-5.4-mini for openai)
      --effort LEVEL        reasoning effort: off, low, high or max
      --provider NAME       deepseek, openai (or the OpenAI-compatible server in
                            OPENAI_BASE_URL), or a [[providers]] name of config.toml
      --resume [ID]         continue session ID (no ID: pick one)
  -c, --continue            continue the latest session of this directory
  -C DIR                    run in DIR instead of the current directory
      --permission-mode M   read-only, ask, auto-edit or full-access
                            (default ask; also TACK_PERMISSION_MODE)
      --output-format F     print mode output: text, json or stream-json
      --image FILE          attach an image to the print-mode task (repeatable)
      --color WHEN          auto, always or never
      --no-reasoning        leave the model's reasoning out of the output
      --version             print the version and exit
  -h, --help                show this help

Environment:
  DEEPSEEK_API_KEY, DEEPSEEK_BASE_URL   DeepSeek credentials and endpoint
  OPENAI_API_KEY, OPENAI_BASE_URL       any OpenAI-compatible server
  TACK_HOME                             sessions, config and credentials (default ~/.tack)
`

// errUsage is a command-line mistake: exit 2.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

// parseFlags parses args (without the program name). getenv supplies
// TACK_PERMISSION_MODE.
func parseFlags(args []string, getenv func(string) string) (options, error) {
	var o options
	fs := flag.NewFlagSet("tack", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.print, "p", "", "")
	fs.StringVar(&o.print, "print", "", "")
	fs.StringVar(&o.ui, "ui", "auto", "")
	fs.StringVar(&o.model, "model", "", "")
	fs.StringVar(&o.effort, "effort", "", "")
	fs.StringVar(&o.provider, "provider", "", "")
	fs.BoolVar(&o.cont, "c", false, "")
	fs.BoolVar(&o.cont, "continue", false, "")
	fs.StringVar(&o.dir, "C", "", "")
	fs.StringVar(&o.permissionMode, "permission-mode", getenv("TACK_PERMISSION_MODE"), "")
	fs.StringVar(&o.outputFormat, "output-format", "text", "")
	fs.StringVar(&o.color, "color", "auto", "")
	fs.Func("image", "", func(v string) error { o.images = append(o.images, v); return nil })
	fs.BoolVar(&o.noReasoning, "no-reasoning", false, "")
	fs.BoolVar(&o.version, "version", false, "")
	fs.BoolVar(&o.help, "h", false, "")
	fs.BoolVar(&o.help, "help", false, "")
	args, o.resume, o.resumeSet = takeResume(args)
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			o.help = true
			return o, nil
		}
		return o, errUsage{err.Error()}
	}
	fs.Visit(func(f *flag.Flag) { o.printSet = o.printSet || f.Name == "p" || f.Name == "print" })
	if o.printSet && len(positional) > 0 {
		return o, errUsage{fmt.Sprintf("unexpected argument %q after -p TASK: quote the whole task, as in tack -p \"fix the failing test\"", positional[0])}
	}
	o.task = strings.Join(positional, " ")
	return o, o.validate()
}

// parseInterspersed parses flags wherever they stand among the positional
// arguments (tack "fix it" --model x), as users expect; everything after
// "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(positional, rest...), nil
		}
		positional, args = append(positional, rest[0]), rest[1:]
	}
}

// takeResume pulls --resume out of args by hand: its id is optional, which
// package flag cannot express.
func takeResume(args []string) (rest []string, id string, set bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(rest, args[i:]...), id, set
		case a == "--resume" || a == "-resume":
			set = true
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				id = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--resume=") || strings.HasPrefix(a, "-resume="):
			set = true
			id = a[strings.IndexByte(a, '=')+1:]
		default:
			rest = append(rest, a)
		}
	}
	return rest, id, set
}

func (o options) validate() error {
	oneOf := func(name, v string, allowed ...string) error {
		for _, a := range allowed {
			if v == a {
				return nil
			}
		}
		return errUsage{fmt.Sprintf("invalid value %q for --%s: use %s", v, name, strings.Join(allowed, ", "))}
	}
	if err := oneOf("ui", o.ui, "auto", "tui", "line"); err != nil {
		return err
	}
	if err := oneOf("output-format", o.outputFormat, "text", "json", "stream-json"); err != nil {
		return err
	}
	if err := oneOf("color", o.color, "auto", "always", "never"); err != nil {
		return err
	}
	if o.effort != "" {
		if _, ok := llm.ParseEffort(o.effort); !ok {
			return errUsage{fmt.Sprintf("invalid value %q for --effort: use off, low, high, max", o.effort)}
		}
	}
	if o.permissionMode != "" {
		if _, err := permission.ParseMode(o.permissionMode); err != nil {
			return errUsage{fmt.Sprintf("invalid permission mode %q: use read-only, ask, auto-edit, full-access", o.permissionMode)}
		}
	}
	if o.resumeSet && o.cont {
		return errUsage{"--resume and --continue cannot be used together"}
	}
	if o.printSet && strings.TrimSpace(o.print) == "" {
		return errUsage{"--print needs a task, as in tack -p \"fix the failing test\""}
	}
	if o.resumeSet && o.resume == "" && o.print != "" {
		return errUsage{"--resume needs a session id in print mode"}
	}
	return nil
}
