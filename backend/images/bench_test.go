package images

import "testing"

// BenchmarkPrepareScalesA4KScreenshot measures scaling a 3840×2160 PNG to
// the default 2048-pixel side.
func BenchmarkPrepareScalesA4KScreenshot(b *testing.B) {
	data := picture(b, 3840, 2160, pngOf)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Prepare("shot.png", data, 2048); err != nil {
			b.Fatal(err)
		}
	}
}
