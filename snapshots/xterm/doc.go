// Package xterm runs the built tack binary in a real terminal emulator,
// xterm under Xvfb, against cmd/fakellm, takes screenshots with
// ImageMagick's import and checks in the pixels what only a real emulator
// decides: its answer to the background query, the colours it gives the
// palette, the default text colour and what reverse video looks like.
// The tests live in the package's test files and skip, saying why, where
// Xvfb, xterm or import is missing (.ci/run installs them).
package xterm
