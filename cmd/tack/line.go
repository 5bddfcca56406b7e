package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/linemode"
)

// runLine runs line mode on stdin. interactive is set when stdin and stdout
// are both terminals.
func runLine(lo launch.Options, o options, stdin *os.File, stdout, stderr io.Writer, interactive bool) int {
	cfg, _, _ := launch.Settings(lo) // a broken config fails the open below, with its message
	lo.HelpKeys = linemode.HelpKeys(interactive)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	openWith := func(lo launch.Options) (*launch.Session, error) {
		s, err := launch.Open(lo)
		if err != nil {
			return nil, errors.New(launchError(err))
		}
		return s, nil
	}
	open := func() (*launch.Session, error) { return openWith(lo) }
	// /new and /resume <id> open another session with the same settings.
	reopen := func(id string) (*launch.Session, error) {
		next := lo
		next.Resume, next.Continue = id, false
		return openWith(next)
	}
	return linemode.Run(context.Background(), open, linemode.Options{
		Welcome:     cfg.Welcome,
		Stdin:       stdin,
		Stdout:      stdout,
		Stderr:      stderr,
		Terminal:    interactive,
		Color:       lineColor(o.color, cfg.Color, lo.Getenv, isTerminal(stdout)),
		Signals:     sigs,
		HistoryFile: filepath.Join(lo.Home, "line_history"),
		Reopen:      reopen,
	})
}

// lineColor decides whether line mode dims reasoning: --color always or
// never wins; otherwise colour needs a terminal, no NO_COLOR and no
// `color = false` in the config file.
func lineColor(flag string, configured *bool, getenv func(string) string, stdoutTTY bool) bool {
	switch flag {
	case "always":
		return true
	case "never":
		return false
	}
	if getenv("NO_COLOR") != "" || (configured != nil && !*configured) {
		return false
	}
	return stdoutTTY
}
