package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/linemode"
	"github.com/tack-agent/tack/views/iostreams"
)

// runLine runs line mode on the seam's streams; cfg is the config file's
// settings, already read.
func runLine(lo launch.Options, o options, cfg config.File, ios *iostreams.IOStreams) int {
	interactive := ios.Interactive()
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
		IO:          ios,
		NoReasoning: o.noReasoning,
		Signals:     sigs,
		HistoryFile: filepath.Join(lo.Home, "line_history"),
		Reopen:      reopen,
		Prompt:      o.task,
	})
}
