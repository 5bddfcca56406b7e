package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tack-agent/tack/backend/launch"
)

// sdkOptions are what the flags the Agent SDKs pass for their options
// (persistSession, debug, betas, thinking.display, …) ask of tack, beyond
// claude -p's everyday flags.
type sdkOptions struct {
	noPersistence bool // --no-session-persistence
	// debug writes the session's events to stderr (--debug,
	// --debug-to-stderr) or to debugFile (--debug-file); debugTypes,
	// from --debug=TYPES, keeps those whose type starts with one.
	debug      bool
	debugTypes []string
	debugFile  string
	// pluginDirs are the Claude Code plugins of --plugin-dir (and of
	// --plugin-dir-no-mcp, without their MCP servers).
	pluginDirs []launch.PluginDir
	// leftOut are the flags taken that mean nothing to tack's models,
	// each with why, for stderr.
	leftOut []string
}

// debugFlag is --debug, alone or with the types of events to write
// (--debug=hook,tool), as claude takes --debug or --debug=api,hooks.
type debugFlag struct{ s *sdkOptions }

func (d debugFlag) String() string   { return "" }
func (d debugFlag) IsBoolFlag() bool { return true }
func (d debugFlag) Set(v string) error {
	d.s.debug = v != "false"
	if v != "true" && v != "false" {
		d.s.debugTypes = toolList(v)
	}
	return nil
}

// sdkFlags defines the flags of sdkOptions.
func (o *options) sdkFlags(fs *flag.FlagSet) {
	s := &o.sdk
	fs.BoolVar(&s.noPersistence, "no-session-persistence", false, "")
	for _, name := range []string{"plugin-dir", "plugin-dir-no-mcp"} {
		fs.Func(name, "", func(v string) error {
			s.pluginDirs = append(s.pluginDirs, launch.PluginDir{Path: v, NoMCP: name == "plugin-dir-no-mcp"})
			return nil
		})
	}
	fs.Var(debugFlag{s}, "debug", "")
	fs.BoolVar(&s.debug, "debug-to-stderr", false, "")
	fs.Func("debug-file", "", func(v string) error {
		s.debug, s.debugFile = true, v
		return nil
	})
	fs.Func("thinking-display", "", func(v string) error {
		switch v {
		case "omitted":
			o.noReasoning = true
		case "summarized", "full":
		default:
			return fmt.Errorf("use summarized, full or omitted")
		}
		return nil
	})
	// bypassPermissions may be switched to (set_permission_mode) with or
	// without it.
	fs.Bool("allow-dangerously-skip-permissions", false, "")
	fs.Func("betas", "", func(v string) error {
		s.leftOut = append(s.leftOut, "--betas "+v+" names Anthropic API betas, which tack's providers do not take")
		return nil
	})
	fs.Func("task-budget", "", func(v string) error {
		s.leftOut = append(s.leftOut, "--task-budget "+v+" is an Anthropic API beta, which tack's providers do not take")
		return nil
	})
}

// validate checks what the SDK flags need.
func (s sdkOptions) validate(printMode bool) error {
	switch {
	case s.noPersistence && !printMode:
		return errUsage{"--no-session-persistence works in print mode: add -p"}
	case s.debug && !printMode:
		return errUsage{"--debug, --debug-to-stderr and --debug-file work in print mode (add -p); " +
			"a full-screen session's log in ~/.tack/sessions holds every event"}
	}
	return nil
}

// reportLeftOut says on stderr which flags were taken and left out.
func (s sdkOptions) reportLeftOut(stderr io.Writer) {
	for _, l := range s.leftOut {
		fmt.Fprintf(stderr, "tack: %s; it is left out\n", l)
	}
}

// debugOut is where --debug writes the session's events: stderr, the
// file of --debug-file (appended to), or nowhere without --debug.
func debugOut(s sdkOptions, stderr io.Writer) (io.Writer, func(), error) {
	switch {
	case !s.debug:
		return nil, func() {}, nil
	case s.debugFile == "":
		return stderr, func() {}, nil
	}
	f, err := os.OpenFile(s.debugFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--debug-file: %w; name a file tack can write", err)
	}
	return f, func() { f.Close() }, nil
}
