package snapshots

import (
	"testing"
	"time"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/session"
)

// frozen is the clock of every screen.
var frozen = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

const sessionID = "20260314-092653-7f3a"

func header() session.Header {
	return session.Header{Version: 1, ID: sessionID, Created: frozen, Cwd: "/workspace/project", Model: "deepseek-v4-flash"}
}

// options are the fixed inputs of every screen.
func options(be app.Backend, w, h int) app.Options {
	return app.Options{
		Backend: be, Now: func() time.Time { return frozen },
		Cwd: "/workspace/project", Home: "/workspace", Branch: "main",
		Colour: true, Width: w, Height: h,
	}
}

// start runs the chat screen over be at w×h and waits for the banner.
func start(t *testing.T, be app.Backend, w, h int) *Term {
	t.Helper()
	tt := Start(t, app.New(options(be, w, h)), w, h)
	tt.WaitText(t, sessionID)
	return tt
}

func TestEmptySessionScreen(t *testing.T) {
	for _, size := range []struct{ w, h int }{{100, 30}, {60, 20}} {
		tt := start(t, NewFake(header()), size.w, size.h)
		tt.WaitText(t, "~/project (main)")
		tt.Golden(t, "empty_"+sizeName(size.w, size.h))
	}
}

func sizeName(w, h int) string {
	return itoa(w) + "x" + itoa(h)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
