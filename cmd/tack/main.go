// Command tack is a coding agent for the terminal.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/views/iostreams"
	"github.com/tack-agent/tack/views/textfmt"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// maxPipedContext bounds how much piped stdin is appended to a task.
const maxPipedContext = 1 << 20

func main() {
	// Before anything else: tack started as its own sandbox helper serves
	// its session's commands and exits.
	sandbox.ServeIfHelper()
	endStartupGC, extendStartupGC = holdGC(startupGCHold, nil)
	failWritesOnSIGPIPE()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// run is tack's whole life; it returns the exit status.
func run(args []string, stdin *os.File, stdout, stderr io.Writer, getenv func(string) string) int {
	o, err := parseFlags(args, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "tack: %s (see tack --help)\n", err)
		return 2
	}
	switch {
	case o.help:
		fmt.Fprint(stdout, usage)
		return 0
	case o.version:
		fmt.Fprintf(stdout, "tack %s\n", version)
		return 0
	}
	o.dropClaudeModels(stderr)
	o.sdk.reportLeftOut(stderr)
	if o.dir != "" {
		if err := os.Chdir(o.dir); err != nil {
			fmt.Fprintf(stderr, "tack: cannot use -C %s: %v\n", o.dir, err)
			return 2
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "tack: cannot find the current directory: %v\n", err)
		return 1
	}
	home, err := config.Home(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "tack: %v\n", err)
		return 1
	}
	lo, err := launchOptions(o, home, cwd, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "tack: %s\n", err)
		return 2
	}
	ios := iostreams.System(stdin, stdout, stderr, getenv)
	cfg, _, _ := launch.Settings(lo) // a broken config fails the open later, with its message
	ios.DecideColor(o.color, cfg.Color)
	if o.printMode() || (o.task != "" && !ios.IsStdinTTY()) {
		return runPrint(lo, o, ios, cwd)
	}
	if len(o.images) > 0 {
		fmt.Fprintln(stderr, `tack: --image works in print mode: tack -p "what is wrong in this screenshot?" --image shot.png`)
		return 2
	}
	if o.ui == "tui" && !ios.CanFullScreen() {
		fmt.Fprintln(stderr, "tack: "+ios.FullScreenRefusal())
		return 1
	}
	if o.ui != "line" && ios.CanFullScreen() {
		return runTUI(lo, o, ios)
	}
	if o.resumeSet && o.resume == "" {
		fmt.Fprintln(stderr, "tack: --resume needs a session id in line mode; run tack --resume in a terminal to pick one (see tack --help)")
		return 2
	}
	return runLine(lo, o, cfg, ios)
}

// launchOptions are the session's options from the command line, with the
// files and directories it names read and checked.
func launchOptions(o options, home, cwd string, getenv func(string) string) (launch.Options, error) {
	own, end, err := o.systemPrompts()
	if err != nil {
		return launch.Options{}, err
	}
	dirs, err := o.dirsAdded(cwd)
	if err != nil {
		return launch.Options{}, err
	}
	effort, _ := llm.ParseEffort(o.effort) // validated: Claude Code's medium is high here
	if o.thinkingOff && effort == "" {
		effort = llm.EffortOff
	}
	var agents []subagent.Definition
	if o.agents != "" {
		if agents, err = subagent.FromJSON([]byte(o.agents)); err != nil {
			return launch.Options{}, errUsage{err.Error()}
		}
	}
	return launch.Options{
		Home: home, Cwd: cwd, Getenv: getenv, Environ: os.Environ(), Provider: o.provider, Model: o.model, Effort: string(effort),
		PermissionMode: o.permissionMode, Resume: o.resume, Continue: o.cont, SessionID: strings.ToLower(o.sessionID), ForkSession: o.forkSession,
		Version:      version,
		SystemPrompt: own, AppendSystemPrompt: end, MCPConfigs: o.mcpConfigs, StrictMCPConfig: o.strictMCP,
		Settings: o.settings, SettingSources: o.settingSources, Tools: o.tools, Agents: agents, Agent: o.agent, PluginDirs: o.sdk.pluginDirs,
		AddDirs: dirs,
	}, nil
}

// signalContext is cancelled by SIGINT, SIGTERM, SIGHUP or SIGQUIT and
// reports which; SIGQUIT would otherwise end tack with the terminal still
// raw. A second signal, while the first one's cancel is still being
// recorded, is handed to again (when not nil).
func signalContext(again func(os.Signal)) (context.Context, func() os.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2) // two at once are two presses
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	var got os.Signal
	done := make(chan struct{})
	go func() {
		select {
		case got = <-ch:
			cancel()
		case <-done:
			return
		}
		if again == nil {
			return
		}
		select {
		case sig := <-ch:
			again(sig)
		case <-done:
		}
	}()
	which := func() os.Signal {
		if ctx.Err() == nil {
			return nil
		}
		return got
	}
	stop := func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
	return ctx, which, stop
}

// failWritesOnSIGPIPE makes a write to a stdout or stderr whose reader has
// gone fail with EPIPE, which print mode and line mode handle (the turn is
// cancelled and recorded, the session closed, exit 141), where Go's
// default is to die at once with the turn open and tools running.
func failWritesOnSIGPIPE() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}

// exitForSignal is the conventional status for death by signal.
func exitForSignal(s os.Signal) int {
	switch s {
	case syscall.SIGINT:
		return 130
	case syscall.SIGTERM:
		return 143
	case syscall.SIGHUP:
		return 129
	case syscall.SIGQUIT:
		return 131
	}
	return 1
}

// launchError explains a failure to start a session.
func launchError(err error) string {
	msg := textfmt.SanitizeLine(err.Error())
	var le *llm.Error
	if launch.ErrNoCredentials(err) && errors.As(err, &le) {
		// The error kind is for programs; the user reads the advice.
		msg = textfmt.SanitizeLine(le.Message) + " (settings: $TACK_HOME/config.toml)"
	}
	return msg
}
