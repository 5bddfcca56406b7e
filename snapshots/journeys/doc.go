// Package journeys replays recorded tack sessions end to end: the real
// agent loop, tools, permission policy and full-screen program, with only
// the model played by a scripted fake server. Each journey under testdata/
// is a session log, the screen it must end on, and the workspace it
// starts from; the tests live in the package's test files and README.md
// says how to record and update them.
package journeys
