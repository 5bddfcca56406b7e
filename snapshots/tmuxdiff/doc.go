// Package tmuxdiff checks the emulator the snapshot tests trust, x/vt,
// against a real terminal emulator, tmux: the bytes the built tack binary
// wrote to a pseudo-terminal are replayed into both, and the screens are
// compared cell by cell (characters, wide ones included, and bold, faint,
// italic, underline, reverse, foreground and background). A difference
// either is tack relying on one emulator's behaviour, which is fixed in
// tack, or is an explained difference between the emulators, listed with
// its reason in the tests' table of known differences. The tests live in
// the package's test files and skip, saying why, where tmux is missing
// (.ci/run installs it).
package tmuxdiff
