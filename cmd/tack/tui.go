package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/app/screen"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/workspace"
	"github.com/tack-agent/tack/views/iostreams"
	"github.com/tack-agent/tack/views/theme"
)

// runTUI runs the full-screen program. The session is opened before the
// screen is taken, so a session that cannot start is reported as plain
// text; only a missing key (with no local server configured) opens the
// first-run screen instead. The screen gives the terminal back on every
// way out (the program quits, SIGTERM, SIGHUP or SIGQUIT end it through its
// context, the guard turns a panic into an exit; a view that panics gives
// it back before bubbletea prints the panic), and the panic report and the
// resume line are printed after.
//
// Choosing another session in the session picker ends the program and runs
// the next one on that session, in its directory.
func runTUI(lo launch.Options, o options, ios *iostreams.IOStreams) int {
	stderr := ios.ErrOut
	pick := o.resumeSet && o.resume == ""
	if search := resumeSearch(lo, o); search != "" {
		// As claude --resume TERM does: words that are no session's id
		// open the picker searching for them.
		lo.Resume, pick, o.pickSearch = "", true, search
	}
	for {
		code, next := runChat(lo, o, pick, ios)
		if !next.Next() {
			return code
		}
		if next.Cwd != "" && next.Cwd != lo.Cwd {
			if err := os.Chdir(next.Cwd); err != nil {
				fmt.Fprintf(stderr, "tack: cannot resume in %s: %v\n", next.Cwd, err)
				return 1
			}
			lo.Cwd = next.Cwd
		}
		lo.Resume, lo.Continue, pick, o.task, o.pickSearch = next.ResumeID, false, false, "", ""
	}
}

// runChat runs the program once and returns its exit status and what it
// asks to do next.
func runChat(lo launch.Options, o options, pick bool, ios *iostreams.IOStreams) (int, app.Result) {
	stderr := ios.ErrOut
	frame, err := frameInterval(lo.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "tack: "+err.Error())
		return 1, app.Result{}
	}
	// The session's background start waits for the screen's start to
	// settle (see screen.Options.Settled), as do the collector and the
	// app's own (the sandbox's probe, the workspace's listing).
	settled := make(chan struct{})
	lo.Background = settled
	s, err := launch.Open(lo)
	// The first-run screen asks for a DeepSeek key; a missing key of
	// another provider is reported like any other launch error.
	var le *llm.Error
	firstRun := errors.As(err, &le) && le.Kind == llm.ErrNoCredentials && le.KeyEnv == "DEEPSEEK_API_KEY" &&
		lo.Getenv("OPENAI_BASE_URL") == ""
	if err != nil && !firstRun {
		fmt.Fprintln(stderr, "tack: "+launchError(err))
		return 1, app.Result{}
	}
	var held heldSession
	if s != nil {
		held.set(s)
	}
	defer held.close()
	chat := chatOptions(lo, o, s, ios)
	chat.PickSession, chat.PickSearch = pick, o.pickSearch
	chat.Suspend = suspendKey(ios.StdinFile())
	// From here the terminal is raw until scr.Close; the signals that end
	// tack end the program instead, which gives the terminal back.
	ctx, which, stop := signalContext(nil)
	defer stop()
	chat.Settled = settled
	extendStartupGC(screenGCHold)
	scr, err := screen.Open(screen.Options{
		In: ios.StdinFile(), Out: ios.Out, Err: ios.ErrOut, Env: lo.Environ, Profile: renderProfile(chat.Colour),
		Interval: frame, Width: chat.Width, Height: chat.Height,
		Settled: func() { endStartupGC(); close(settled) },
	})
	if err != nil {
		fmt.Fprintln(stderr, "tack: "+err.Error())
		return 1, app.Result{}
	}
	chat.Terminal = scr
	var root tea.Model
	if firstRun {
		root = app.NewFirstRun(app.FirstRunOptions{
			CredentialsPath: config.CredentialsPath(lo.Home), Home: lo.Getenv("HOME"), Chat: chat,
			Open: func(key string) (app.Backend, error) {
				if err := config.SaveCredential(lo.Home, "DEEPSEEK_API_KEY", key); err != nil {
					return nil, err
				}
				s, err := launch.Open(lo)
				if err != nil {
					return nil, fmt.Errorf("%s", launchError(err))
				}
				return held.set(s), nil
			},
		})
	} else {
		chat.Backend = held.backend
		root = app.New(chat)
	}
	guard := app.NewGuard(root)
	p := tea.NewProgram(scr.Model(guard), append(scr.ProgramOptions(), tea.WithContext(ctx),
		tea.WithOutput(ios.Out), tea.WithoutSignalHandler(), tea.WithFPS(teaFPS))...)
	stopResize, stopSuspend := scr.Watch(p.Send), watchSuspend(scr)
	_, runErr := p.Run()
	stopSuspend()
	stopResize()
	_ = scr.Close()
	var next app.Result
	if m, ok := guard.Inner().(*app.Model); ok {
		m.Close()
		next = m.Result()
	}
	code := 0
	if rep := guard.Report(); rep != "" {
		fmt.Fprintf(stderr, "tack: internal error; the terminal was restored.\n%s\n", rep)
		code = 1
	} else if sig := which(); sig != nil {
		code = exitForSignal(sig)
	} else if runErr != nil {
		fmt.Fprintf(stderr, "tack: %v\n", runErr)
		code = 1
	} else if err := scr.InputErr(); err != nil {
		fmt.Fprintf(stderr, "tack: cannot read the terminal: %v\n", err)
		code = 1
	}
	if id := held.id(); id != "" && next.ResumeID == "" {
		fmt.Fprintf(stderr, "To resume this session: tack --resume %s\n", id)
	}
	if code != 0 {
		next = app.Result{}
	}
	return code, next
}

// chatOptions are the chat screen's inputs: directory, home, branch,
// colour and size (from the terminal seam) and the initial task.
func chatOptions(lo launch.Options, o options, s *launch.Session, ios *iostreams.IOStreams) app.Options {
	cwd := lo.Cwd
	welcome, themeSetting, notifySetting := "", "", ""
	if s != nil {
		cwd = s.Cwd
		welcome, themeSetting, notifySetting = s.Config.Welcome, s.Config.Theme, s.Config.Notify
	}
	// The config was validated when it was loaded; COLORFGBG is only read.
	bg, _, _ := theme.Detect(themeSetting, lo.Getenv("COLORFGBG"))
	notify, _ := app.ParseNotify(notifySetting)
	w, h, _ := ios.Size()
	return app.Options{
		Now: time.Now, Cwd: cwd, Home: lo.Getenv("HOME"), Branch: workspace.Branch(cwd),
		Colour: ios.ColorEnabled(), HideReasoning: o.noReasoning, Background: bg, AskBackground: theme.Auto(themeSetting),
		Notify: notify, Welcome: welcome, Prompt: strings.TrimSpace(o.task), Width: w, Height: h,
		PlainShiftEnter: ios.ShiftEnterIsEnter(),
	}
}

// heldSession is the open session, set from the first-run screen's command
// goroutine or before the program starts.
type heldSession struct {
	mu      sync.Mutex
	s       *launch.Session
	unmount func()
	backend app.Backend
}

func (h *heldSession) set(s *launch.Session) app.Backend {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.s = s
	h.unmount = s.Broker.Mount()
	h.backend = app.AgentBackend{Agent: s.Agent, Commands: s.Commands, Broker: s.Broker, Session: s}
	return h.backend
}

func (h *heldSession) id() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil || !h.s.Resumable() {
		return ""
	}
	return h.s.Agent.SessionID()
}

func (h *heldSession) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s != nil {
		h.unmount()
		h.s.Close()
		h.s = nil
	}
}

// maxFPS is the frame rate of what does not follow input: a streamed
// answer or a timer draws at most this often (the screen draws a typed key
// at once).
const maxFPS = 120

// teaFPS is the rate of bubbletea's own frame ticker, which runs without
// its renderer all the same and only writes what tea commands queued
// outside frames. tack sends those sequences (the bell, OSC 9, OSC 52, the
// background query) through the screen at once (screen.Send), so the
// ticker has nothing to do: at 120 per second it woke the runtime's
// threads 120 times a second, 21 ms of CPU a second in an idle tack and
// half of the CPU a typed key cost.
const teaFPS = 1

// frameInterval is the shortest gap between frames that follow no input:
// 1/maxFPS, or one over TACK_FPS, frames per second (fewer over a slow
// link; tests slow it down to see that input does not wait for a frame).
func frameInterval(getenv func(string) string) (time.Duration, error) {
	v := getenv("TACK_FPS")
	if v == "" {
		return time.Second / maxFPS, nil
	}
	fps, err := strconv.ParseFloat(v, 64)
	if err != nil || !(fps > 0 && fps <= maxFPS) {
		return 0, fmt.Errorf("TACK_FPS=%q is not a frame rate: set frames per second, more than 0 and at most %d, or unset it", v, maxFPS)
	}
	return time.Duration(float64(time.Second) / fps), nil
}

// renderProfile is the colour profile the renderer downsamples to. tack
// draws only the 16 ANSI colours and has already decided whether to use
// colour, so the profile follows that decision instead of being detected,
// which would read the terminfo database and, inside tmux, run `tmux info`
// before the first frame. Without colour the views draw no styling at all;
// NoTTY makes the renderer drop any that slipped through, attributes and
// hyperlinks included.
func renderProfile(colour bool) colorprofile.Profile {
	if colour {
		return colorprofile.ANSI
	}
	return colorprofile.NoTTY
}

// resumeSearch is what --resume names when that is neither a session's id
// nor the name of one: the words to search the picker for; "" when it
// names a session, or none.
func resumeSearch(lo launch.Options, o options) string {
	if !o.resumeSet || o.resume == "" {
		return ""
	}
	if _, err := session.Resolve(lo.Home, lo.Cwd, o.resume); err == nil {
		return ""
	}
	return o.resume
}
