package images

import "testing"

// BenchmarkPrepareScalesA4KScreenshot measures scaling a 3840×2160 PNG to
// the default 2048-pixel side (under -short, the CI smoke, a 960×540 one
// to 512).
func BenchmarkPrepareScalesA4KScreenshot(b *testing.B) {
	w, h, side := 3840, 2160, 2048
	if testing.Short() {
		w, h, side = 960, 540, 512
	}
	data := picture(b, w, h, pngOf)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := Prepare("shot.png", data, side)
		if err != nil {
			b.Fatal(err)
		}
		if p.Ref.Width != side || p.Ref.Height != h*side/w || p.Ref.OrigWidth != w || p.Ref.MediaType != "image/png" {
			b.Fatalf("want a %d×%d PNG scaled from %d px wide, got %+v", side, h*side/w, w, p.Ref)
		}
	}
}
