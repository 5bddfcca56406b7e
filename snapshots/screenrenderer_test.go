package snapshots

import (
	"testing"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// TestAppScreenDrawsTheGoldens draws screens that have goldens as tack's
// binary draws them, with app/screen instead of bubbletea's renderer, and
// compares them with the same goldens: the reviewed screens, drawn by
// bubbletea's renderer, are the oracle for the binary's. Between the
// states it waits for, keys and streamed events redraw only the rows that
// changed, so the goldens check that path too.
func TestAppScreenDrawsTheGoldens(t *testing.T) {
	if golden.Updating() {
		t.Skip("the goldens are being rewritten by the tests that own them")
	}
	for _, c := range overlayCases {
		for _, size := range overlaySizes {
			t.Run(c.name+"_"+sizeName(size.w, size.h), func(t *testing.T) {
				f := NewFake(header())
				o := options(f, size.w, size.h)
				o.Now = ticking()
				for _, fn := range c.setup(t, f) {
					fn(&o)
				}
				tt := StartScreen(t, app.New(o), size.w, size.h)
				tt.WaitText(t, "deepseek-flash")
				if f.Broker != nil {
					tt.WaitFor(t, "the program showing the pending request", func(string) bool { return f.Showing() })
				}
				if c.drive != nil {
					c.drive(t, tt)
				}
				tt.WaitText(t, c.want...)
				tt.Golden(t, c.name+"_"+sizeName(size.w, size.h))
			})
		}
	}
	t.Run("streaming", func(t *testing.T) {
		f := NewFake(header())
		tt := StartScreen(t, app.New(options(f, 100, 30)), 100, 30)
		tt.WaitText(t, subscribed)
		streamAnswer(t, f, tt)
		tt.Golden(t, "streaming_100x30")
	})
	t.Run("bash card", func(t *testing.T) {
		f := NewFake(header())
		tt := StartScreen(t, app.New(options(f, 100, 30)), 100, 30)
		tt.WaitText(t, subscribed)
		bashCardStates(t, f, tt, &log{})
	})
}
