package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/frontmatter"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/tools/structured"
)

// options are the parsed command line.
type options struct {
	print          string
	printSet       bool // -p was given, even if empty
	bare           bool // -p was given without a task after it
	ui             string
	model          string
	provider       string
	effort         string
	resume         string
	resumeSet      bool
	pickSearch     string // the picker's search: --resume words that are no id
	sessionID      string // --session-id: the id of the new session
	forkSession    bool
	cont           bool
	dir            string
	permissionMode string
	outputFormat   string
	inputFormat    string
	partial        bool     // --include-partial-messages
	allowedTools   []string // --allowed-tools entries
	disallowed     []string // --disallowed-tools entries
	maxTurns       int
	fallbackModel  string // --fallback-model
	jsonSchema     string // --json-schema
	maxBudget      float64
	tools          []string // --tools: nil offers every built-in tool
	agents         string   // --agents JSON
	agent          string   // --agent NAME: run the session as that agent
	replayUser     bool     // --replay-user-messages
	hookEvents     bool     // --include-hook-events
	noCommands     bool     // --disable-slash-commands
	promptTool     string   // --permission-prompt-tool
	thinkingOff    bool     // --thinking disabled or --max-thinking-tokens 0
	settingSources []string // --setting-sources: nil reads every settings file
	sdk            sdkOptions
	color          string
	noReasoning    bool
	version        bool
	help           bool
	task           string // positional arguments joined
	images         []string
	// the system prompt's own text and what ends it, each given as text
	// or as a file to read
	systemPrompt, systemPromptFile string
	appendPrompt, appendPromptFile string
	mcpConfigs                     []string // --mcp-config values
	strictMCP                      bool
	settings                       []string // --settings values
	addDirs                        []string // --add-dir values, as given
}

// uuidPattern is a UUID as claude -p's --session-id takes it.
var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

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
	fs.StringVar(&o.sessionID, "session-id", "", "")
	fs.BoolVar(&o.forkSession, "fork-session", false, "")
	fs.StringVar(&o.permissionMode, "permission-mode", getenv("TACK_PERMISSION_MODE"), "")
	fs.BoolFunc("dangerously-skip-permissions", "", func(string) error { // claude -p's spelling
		o.permissionMode = string(permission.FullAccess)
		return nil
	})
	fs.StringVar(&o.outputFormat, "output-format", "text", "")
	fs.StringVar(&o.inputFormat, "input-format", "text", "")
	fs.BoolVar(&o.partial, "include-partial-messages", false, "")
	fs.Bool("verbose", false, "") // claude -p requires it with stream-json; tack needs nothing from it
	for _, name := range []string{"allowed-tools", "allowedTools"} {
		fs.Func(name, "", func(v string) error { o.allowedTools = append(o.allowedTools, toolList(v)...); return nil })
	}
	for _, name := range []string{"disallowed-tools", "disallowedTools"} {
		fs.Func(name, "", func(v string) error { o.disallowed = append(o.disallowed, toolList(v)...); return nil })
	}
	o.claudeFlags(fs)
	o.sdkFlags(fs)
	fs.Func("add-dir", "", func(v string) error { o.addDirs = append(o.addDirs, v); return nil })
	fs.StringVar(&o.color, "color", "auto", "")
	fs.Func("image", "", func(v string) error { o.images = append(o.images, v); return nil })
	fs.BoolVar(&o.noReasoning, "no-reasoning", false, "")
	fs.BoolVar(&o.version, "version", false, "")
	fs.BoolVar(&o.version, "v", false, "")
	fs.BoolVar(&o.help, "h", false, "")
	fs.BoolVar(&o.help, "help", false, "")
	args, o.resume, o.resumeSet = takeResume(args)
	args, bare := takeBarePrint(fs, args)
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			o.help = true
			return o, nil
		}
		return o, errUsage{flagError(err)}
	}
	fs.Visit(func(f *flag.Flag) { o.printSet = o.printSet || f.Name == "p" || f.Name == "print" })
	o.bare = bare
	if bare {
		o.printSet = true
	}
	if o.printSet && !bare && len(positional) > 0 {
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

// takeBarePrint pulls out a -p or --print that has no task after it (the
// end of the line or another flag follows), as in claude -p
// --output-format json "task": the task is then the positional arguments,
// or stdin.
func takeBarePrint(fs *flag.FlagSet, args []string) (rest []string, bare bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), bare
		}
		if a == "-p" || a == "--print" || a == "-print" {
			if i+1 == len(args) || isFlag(fs, args[i+1]) {
				bare = true
				continue
			}
			rest = append(rest, a, args[i+1])
			i++
			continue
		}
		rest = append(rest, a)
	}
	return rest, bare
}

// claudeFlags defines the flags of claude -p's that shape a run beyond
// the basics: turns, budget and fallback, structured answers, the tools,
// agents and commands offered, settings, the system prompt and MCP
// configuration.
func (o *options) claudeFlags(fs *flag.FlagSet) {
	fs.IntVar(&o.maxTurns, "max-turns", 0, "")
	fs.StringVar(&o.fallbackModel, "fallback-model", "", "")
	fs.StringVar(&o.jsonSchema, "json-schema", "", "")
	fs.Float64Var(&o.maxBudget, "max-budget-usd", 0, "")
	fs.Func("tools", "", func(v string) error {
		o.tools = toolList(v)
		if o.tools == nil {
			o.tools = []string{}
		}
		if len(o.tools) == 1 && o.tools[0] == "default" {
			o.tools = nil
		}
		return nil
	})
	fs.StringVar(&o.agents, "agents", "", "")
	fs.StringVar(&o.agent, "agent", "", "")
	// The Agent SDKs' thinking options: tack's models take no thinking
	// budget, so only turning thinking off means anything to them.
	fs.Func("thinking", "", func(v string) error {
		switch v {
		case "disabled":
			o.thinkingOff = true
		case "adaptive", "enabled":
		default:
			return fmt.Errorf("use adaptive, enabled or disabled")
		}
		return nil
	})
	fs.Func("max-thinking-tokens", "", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("use a number of tokens, 0 for no thinking")
		}
		o.thinkingOff = n == 0
		return nil
	})
	fs.BoolVar(&o.replayUser, "replay-user-messages", false, "")
	fs.BoolVar(&o.hookEvents, "include-hook-events", false, "")
	fs.BoolVar(&o.noCommands, "disable-slash-commands", false, "")
	fs.StringVar(&o.promptTool, "permission-prompt-tool", "", "")
	fs.Func("setting-sources", "", func(v string) error {
		o.settingSources = []string{}
		for _, src := range toolList(v) {
			if src != "user" && src != "project" && src != "local" {
				return fmt.Errorf("invalid value %q for --setting-sources: use user, project and local, comma separated", src)
			}
			o.settingSources = append(o.settingSources, src)
		}
		return nil
	})
	fs.StringVar(&o.systemPrompt, "system-prompt", "", "")
	fs.StringVar(&o.systemPromptFile, "system-prompt-file", "", "")
	fs.StringVar(&o.appendPrompt, "append-system-prompt", "", "")
	fs.StringVar(&o.appendPromptFile, "append-system-prompt-file", "", "")
	fs.Func("mcp-config", "", func(v string) error { o.mcpConfigs = append(o.mcpConfigs, v); return nil })
	fs.BoolVar(&o.strictMCP, "strict-mcp-config", false, "")
	fs.Func("settings", "", func(v string) error { o.settings = append(o.settings, v); return nil })
}

// flagError is package flag's complaint with tack's flags written as
// --help writes them: "-max-turns" is --max-turns.
func flagError(err error) string {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		if instead, known := claudeOnly[strings.TrimPrefix(name, "-")]; known {
			return fmt.Sprintf("--%s is claude's, and tack does not take it: %s", strings.TrimPrefix(name, "-"), instead)
		}
	}
	msg := strings.Replace(err.Error(), "flag provided but not defined", "unknown flag", 1)
	return longFlag.ReplaceAllString(msg, "$1--$2")
}

// claudeOnly are flags of claude's (some passed by the Agent SDKs for
// their options) that tack does not take, each with what to do instead.
var claudeOnly = map[string]string{
	"ide":                            "run tack in the IDE's terminal",
	"chrome":                         "tack drives no browser; use web_fetch, or an MCP server for the browser",
	"session-mirror":                 "tack keeps its sessions in $TACK_HOME/sessions; leave the SDK's sessionStore unset",
	"resume-session-at":              "resume the whole session with --resume ID, then /rewind to the turn",
	"resume-drops-turn":              "resume the whole session with --resume ID, then /rewind to the turn",
	"managed-settings":               "tack reads no managed settings; give the settings with --settings FILE",
	"managed-settings-in-initialize": "tack reads no managed settings; give the settings with --settings FILE",
}

// longFlag is a flag name of more than one letter written with one dash.
var longFlag = regexp.MustCompile(`(^|\s)-([a-z][a-z-]+)`)

// isFlag reports whether a is one of fs's flags (-x, --name, --name=v).
func isFlag(fs *flag.FlagSet, a string) bool {
	name, ok := strings.CutPrefix(a, "-")
	if !ok || name == "" {
		return false
	}
	name = strings.TrimPrefix(name, "-")
	name, _, _ = strings.Cut(name, "=")
	return fs.Lookup(name) != nil || name == "resume" || name == "r"
}

// toolList splits an --allowed-tools value into entries: separated by
// commas or spaces, except inside the parentheses of Bash(git log:*).
func toolList(v string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		if e := strings.TrimSpace(cur.String()); e != "" {
			out = append(out, e)
		}
		cur.Reset()
	}
	for _, r := range v {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case (r == ',' || r == ' ' || r == '\t') && depth == 0:
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}

// takeResume pulls --resume out of args by hand: its id is optional, which
// package flag cannot express.
func takeResume(args []string) (rest []string, id string, set bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(rest, args[i:]...), id, set
		case a == "--resume" || a == "-resume" || a == "-r":
			set = true
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				id = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--resume=") || strings.HasPrefix(a, "-resume=") || strings.HasPrefix(a, "-r="):
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
	if err := oneOf("output-format", o.outputFormat, "text", "json", "stream-json", "events"); err != nil {
		return err
	}
	if err := oneOf("input-format", o.inputFormat, "text", "stream-json"); err != nil {
		return err
	}
	if err := o.validatePrint(); err != nil {
		return err
	}
	if err := oneOf("color", o.color, "auto", "always", "never"); err != nil {
		return err
	}
	if o.effort != "" {
		if _, ok := llm.ParseEffort(o.effort); !ok {
			return errUsage{fmt.Sprintf("invalid value %q for --effort: use off, low, high, max (or Claude Code's medium, xhigh)", o.effort)}
		}
	}
	if o.permissionMode != "" && o.permissionMode != permission.PlanLabel {
		if _, err := permission.ParseMode(o.permissionMode); err != nil {
			return errUsage{fmt.Sprintf("invalid permission mode %q: use %s or plan", o.permissionMode, permission.ModeNames())}
		}
	}
	if o.resumeSet && o.cont {
		return errUsage{"--resume and --continue cannot be used together"}
	}
	if o.sessionID != "" && (o.resumeSet || o.cont) && !o.forkSession {
		return errUsage{"--session-id names a new session; with --resume or --continue it needs --fork-session"}
	}
	if o.forkSession && !o.resumeSet && !o.cont {
		return errUsage{"--fork-session copies the session --resume ID or --continue names; add one"}
	}
	if o.sessionID != "" && !uuidPattern.MatchString(o.sessionID) {
		return errUsage{fmt.Sprintf("invalid --session-id %q: use a UUID, such as %s", o.sessionID, "123e4567-e89b-42d3-a456-426614174000")}
	}
	if o.systemPrompt != "" && o.systemPromptFile != "" {
		return errUsage{"--system-prompt and --system-prompt-file cannot be used together"}
	}
	if o.appendPrompt != "" && o.appendPromptFile != "" {
		return errUsage{"--append-system-prompt and --append-system-prompt-file cannot be used together"}
	}
	if o.printSet && !o.bare && strings.TrimSpace(o.print) == "" {
		return errUsage{"--print needs a task, as in tack -p \"fix the failing test\""}
	}
	if o.resumeSet && o.resume == "" && o.print != "" {
		return errUsage{"--resume needs a session id in print mode"}
	}
	return nil
}

// validatePrint checks the flags that only print mode reads.
func (o options) validatePrint() error {
	switch {
	case o.inputFormat == "stream-json" && o.outputFormat != "stream-json":
		return errUsage{"--input-format stream-json needs --output-format stream-json"}
	case o.partial && o.outputFormat != "stream-json":
		return errUsage{"--include-partial-messages needs --output-format stream-json"}
	case o.replayUser && o.inputFormat != "stream-json":
		return errUsage{"--replay-user-messages needs --input-format stream-json"}
	case o.hookEvents && o.outputFormat != "stream-json":
		return errUsage{"--include-hook-events needs --output-format stream-json"}
	case o.noCommands && !o.printMode():
		return errUsage{"--disable-slash-commands works in print mode: add -p"}
	case o.promptTool != "" && o.promptTool != "stdio":
		return errUsage{fmt.Sprintf("--permission-prompt-tool %s: tack asks the Agent SDK over stdio only (--permission-prompt-tool stdio), not through an MCP tool", o.promptTool)}
	case o.promptTool != "" && o.inputFormat != "stream-json":
		return errUsage{"--permission-prompt-tool stdio needs --input-format stream-json, on which the answers come"}
	case o.maxTurns < 0:
		return errUsage{fmt.Sprintf("invalid value %d for --max-turns: use a number of model requests, 1 or more", o.maxTurns)}
	case o.fallbackModel != "" && o.fallbackModel == o.model:
		return errUsage{"--fallback-model is the model itself: name another model to go on with"}
	case o.fallbackModel != "" && !o.printMode():
		return errUsage{"--fallback-model works in print mode: add -p"}
	case o.jsonSchema != "" && !o.printMode():
		return errUsage{"--json-schema works in print mode: add -p"}
	case o.maxBudget < 0:
		return errUsage{fmt.Sprintf("invalid value %g for --max-budget-usd: use an amount of dollars above 0", o.maxBudget)}
	case o.maxBudget > 0 && !o.printMode():
		return errUsage{"--max-budget-usd works in print mode: add -p"}
	}
	if err := o.sdk.validate(o.printMode()); err != nil {
		return err
	}
	if o.jsonSchema != "" {
		if _, err := structured.New(json.RawMessage(o.jsonSchema)); err != nil {
			return errUsage{err.Error()}
		}
	}
	return nil
}

// dropClaudeModels leaves out a --model or --fallback-model that names
// one of Claude Code's models (sonnet, claude-…), which scripts and the
// Agent SDKs written for it pass and no provider of tack's serves, and
// says so: the session's own model runs instead.
func (o *options) dropClaudeModels(stderr io.Writer) {
	for _, m := range []struct {
		flag  string
		value *string
	}{{"--model", &o.model}, {"--fallback-model", &o.fallbackModel}} {
		if *m.value != "" && frontmatter.ClaudeModel(*m.value) {
			fmt.Fprintf(stderr, "tack: %s %s is one of Claude Code's models; tack runs its own instead (see --help for --model)\n", m.flag, *m.value)
			*m.value = ""
		}
	}
}

// printMode reports whether the line asks for print mode: -p, or
// --input-format stream-json.
func (o options) printMode() bool { return o.printSet || o.inputFormat == "stream-json" }

// systemPrompts are the system prompt's own text and what ends it, each
// from its flag or read from its file.
func (o options) systemPrompts() (own, end string, err error) {
	own, end = o.systemPrompt, o.appendPrompt
	for _, f := range []struct {
		flag, path string
		text       *string
	}{{"--system-prompt-file", o.systemPromptFile, &own}, {"--append-system-prompt-file", o.appendPromptFile, &end}} {
		if f.path == "" {
			continue
		}
		b, err := os.ReadFile(f.path)
		if err != nil {
			return "", "", errUsage{fmt.Sprintf("cannot read %s: %v", f.flag, err)}
		}
		*f.text = string(b)
	}
	return own, end, nil
}

// dirsAdded are the --add-dir directories made absolute from cwd; one that
// is not a directory is a usage error naming it.
func (o options) dirsAdded(cwd string) ([]string, error) {
	var out []string
	for _, d := range o.addDirs {
		abs := d
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, d)
		}
		if info, err := os.Stat(abs); err != nil || !info.IsDir() {
			return nil, errUsage{fmt.Sprintf("--add-dir %s: not a directory; name one that exists", d)}
		}
		out = append(out, filepath.Clean(abs))
	}
	return out, nil
}
