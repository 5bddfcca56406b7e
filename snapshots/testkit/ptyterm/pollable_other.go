//go:build !unix

package ptyterm

import "os"

// pollable returns f: only Unix hands the master side over blocking.
func pollable(f *os.File) (*os.File, error) { return f, nil }

// killGroup does nothing where the program leads no process group.
func killGroup(int) {}
