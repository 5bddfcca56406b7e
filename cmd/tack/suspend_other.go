//go:build !unix

package main

import (
	"os"

	tea "charm.land/bubbletea/v2"
)

// watchSuspend has no job control to watch here.
func watchSuspend(*tea.Program) (stop func()) { return func() {} }

// suspendKey is nil: there is no job control to suspend into.
func suspendKey(*os.File) func() { return nil }
