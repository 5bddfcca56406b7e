//go:build !unix

package main

import (
	"os"

	"github.com/tack-agent/tack/app/screen"
)

// watchSuspend has no job control to watch here.
func watchSuspend(*screen.Screen) (stop func()) { return func() {} }

// suspendKey is nil: there is no job control to suspend into.
func suspendKey(*os.File) func() { return nil }
