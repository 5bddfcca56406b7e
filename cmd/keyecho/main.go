// Command keyecho is the floor of the key echo measurement (snapshots/pty,
// TestMeasureResumeAndKeyEcho): in raw mode, it shows what is typed on the
// terminal's last row after "> ", as tack's editor does, and does nothing
// else; Ctrl+C or the end of the input ends it. What a key takes to show
// through it is what the pseudo-terminal, the scheduler and the harness
// cost, without tack.
package main

import (
	"fmt"
	"os"

	"golang.org/x/term"
)

func main() {
	state, err := term.MakeRaw(int(os.Stdin.Fd()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "keyecho: the input is not a terminal:", err)
		os.Exit(1)
	}
	defer term.Restore(int(os.Stdin.Fd()), state)
	_, rows, err := term.GetSize(int(os.Stdout.Fd()))
	if err != nil {
		rows = 24
	}
	line := []byte("> ")
	fmt.Printf("\x1b[2J\x1b[%d;1H%s", rows, line)
	buf := make([]byte, 256)
	for {
		n, err := os.Stdin.Read(buf)
		for _, b := range buf[:n] {
			if b == 3 {
				return
			}
			line = append(line, b)
		}
		if err != nil {
			return
		}
		fmt.Printf("\x1b[%d;1H%s", rows, line)
	}
}
