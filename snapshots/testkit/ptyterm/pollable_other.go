//go:build !unix

package ptyterm

import (
	"errors"
	"os"
)

// pollable returns f: only Unix hands the master side over blocking.
func pollable(f *os.File) (*os.File, error) { return f, nil }

// killGroup does nothing where the program leads no process group.
func killGroup(int) {}

// setSize fails: resizing is only done on Unix pseudo-terminals.
func setSize(*os.File, int, int) error {
	return errors.New("resizing a pseudo-terminal is not supported on this system")
}
