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

// A reference is a reviewed screenshot, testdata/<name>.png, compared
// without the rows whose text changes from run to run (session ids,
// dates, temporary paths). `go test -update` writes it instead, to be
// looked at before it is committed.
type reference struct {
	name    string
	varying map[int]bool
	want    image.Image // nil while updating
}

func loadReference(t *testing.T, name string, varying ...int) *reference {
	t.Helper()
	r := &reference{name: name, varying: map[int]bool{}}
	for _, row := range varying {
		r.varying[row] = true
	}
	if golden.Updating() {
		return r
	}
	f, err := os.Open(r.path())
	if err != nil {
		t.Fatalf("no reference screenshot %s (%v): run go test ./snapshots/xterm -update and look at it", r.path(), err)
	}
	defer f.Close()
	if r.want, err = png.Decode(f); err != nil {
		t.Fatalf("reference %s: %v", r.path(), err)
	}
	return r
}

func (r *reference) path() string { return filepath.Join("testdata", r.name+".png") }

// matches reports whether got is the reference within the tolerance
// (always while updating).
func (r *reference) matches(got image.Image) bool {
	return r.want == nil || r.differing(got, nil) <= tolerance
}

// differing is the share of compared pixels of got that differ from the
// reference; with diff set, it paints got there with those pixels red.
func (r *reference) differing(got image.Image, diff *image.RGBA) float64 {
	b := got.Bounds()
	if r.want.Bounds() != b {
		return 1
	}
	h := b.Dy() / rows
	compared, differ := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if diff != nil {
				diff.Set(x, y, got.At(x, y))
			}
			if r.varying[(y-b.Min.Y)/h] {
				continue
			}
			compared++
			if !sameColour(got.At(x, y), r.want.At(x, y)) {
				differ++
				if diff != nil {
					diff.Set(x, y, color.RGBA{R: 0xff, A: 0xff})
				}
			}
		}
	}
	return float64(differ) / float64(max(compared, 1))
}

// record writes got as the reference while updating.
func (r *reference) record(t *testing.T, got image.Image) {
	t.Helper()
	if r.want != nil {
		return
	}
	var b bytes.Buffer
	if err := png.Encode(&b, got); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, r.path(), b.Bytes())
}

// explain says how got differs, writing <name>-diff.png in shots with the
// differing pixels red.
func (r *reference) explain(got image.Image, shots string) string {
	if r.want == nil || got == nil {
		return "no screenshot"
	}
	if r.want.Bounds() != got.Bounds() {
		return fmt.Sprintf("a %v screenshot where %s is %v (another font or xterm?)", got.Bounds().Size(), r.path(), r.want.Bounds().Size())
	}
	diff := image.NewRGBA(got.Bounds())
	share := r.differing(got, diff)
	out := filepath.Join(shots, r.name+"-diff.png")
	if w, err := os.Create(out); err == nil {
		_ = png.Encode(w, diff)
		w.Close()
	}
	return fmt.Sprintf("%.2f%% of the pixels differing from %s (at most %.1f%% may); the differences are red in %s",
		100*share, r.path(), 100*tolerance, out)
}

func sameColour(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	return ar == br && ag == bg && ab == bb
}
