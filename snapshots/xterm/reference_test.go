package xterm

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// tolerance is the share of compared pixels that may differ from the
// reference: a glyph or two, not a changed row.
const tolerance = 0.005

// compareReference compares the screenshot with its reviewed reference
// testdata/<name>.png, leaving out the rows whose text changes from run to
// run (session ids, dates, temporary paths); `go test -update` writes the
// reference instead, to be looked at before it is committed. On a
// mismatch the differing pixels are painted red in <name>-diff.png beside
// the screenshots.
func compareReference(t *testing.T, name string, got image.Image, shots string, varying ...int) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if golden.Updating() {
		var b bytes.Buffer
		if err := png.Encode(&b, got); err != nil {
			t.Fatal(err)
		}
		golden.Assert(t, path, b.Bytes())
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no reference screenshot %s (%v): run go test ./snapshots/xterm -update and look at it", path, err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("reference %s: %v", path, err)
	}
	if want.Bounds() != got.Bounds() {
		t.Fatalf("want a %v screenshot as %s, got %v (another font or xterm?)", want.Bounds().Size(), path, got.Bounds().Size())
	}
	skip := map[int]bool{}
	for _, r := range varying {
		skip[r] = true
	}
	b := got.Bounds()
	h := b.Dy() / rows
	diff := image.NewRGBA(b)
	compared, differ := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			diff.Set(x, y, got.At(x, y))
			if skip[(y-b.Min.Y)/h] {
				continue
			}
			compared++
			if !sameColour(got.At(x, y), want.At(x, y)) {
				differ++
				diff.Set(x, y, color.RGBA{R: 0xff, A: 0xff})
			}
		}
	}
	if share := float64(differ) / float64(compared); share > tolerance {
		out := filepath.Join(shots, name+"-diff.png")
		if w, err := os.Create(out); err == nil {
			_ = png.Encode(w, diff)
			w.Close()
		}
		t.Errorf("want the screenshot to match %s within %.1f%% of its pixels, got %s differing (%d); see %s",
			path, 100*tolerance, fmt.Sprintf("%.2f%%", 100*share), differ, out)
	}
}

func sameColour(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	return ar == br && ag == bg && ab == bb
}
