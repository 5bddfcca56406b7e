//go:build !unix

package main

import tea "charm.land/bubbletea/v2"

// watchSuspend has no job control to watch here.
func watchSuspend(*tea.Program) (stop func()) { return func() {} }
