package images

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// picture encodes a w×h gradient with enc.
func picture(t testing.TB, w, h int, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var b bytes.Buffer
	if err := enc(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pngOf(b *bytes.Buffer, m image.Image) error  { return png.Encode(b, m) }
func jpegOf(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) }
func gifOf(b *bytes.Buffer, m image.Image) error  { return gif.Encode(b, m, nil) }

func TestPrepareReadsEachFormatWithItsDimensions(t *testing.T) {
	// gradient.webp was made for this test with cwebp -q 80 from a 64×48
	// PNG gradient.
	webpData, err := os.ReadFile("testdata/gradient.webp")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, mediaType string
		data            []byte
		w, h            int
	}{
		{"a.png", "image/png", picture(t, 30, 20, pngOf), 30, 20},
		{"a.jpg", "image/jpeg", picture(t, 31, 21, jpegOf), 31, 21},
		{"a.gif", "image/gif", picture(t, 32, 22, gifOf), 32, 22},
		{"a.webp", "image/webp", webpData, 64, 48},
	}
	for _, tt := range tests {
		p, err := Prepare(tt.name, tt.data, 2048)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if p.Ref.MediaType != tt.mediaType || p.Ref.Width != tt.w || p.Ref.Height != tt.h || !bytes.Equal(p.Data, tt.data) {
			t.Errorf("%s: want %s %d×%d unchanged, got %+v", tt.name, tt.mediaType, tt.w, tt.h, p.Ref)
		}
	}
}

func TestPrepareScalesALargeImageToTheModelsLimit(t *testing.T) {
	p, err := Prepare("wide.png", picture(t, 600, 200, pngOf), 256)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(p.Data))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 256 || cfg.Height != 85 || p.Ref.Width != 256 || p.Ref.OrigWidth != 600 || p.Ref.OrigHeight != 200 {
		t.Fatalf("want 256×85 scaled from 600×200, got %d×%d and %+v", cfg.Width, cfg.Height, p.Ref)
	}
	if got := Describe(p.Ref); got != "wide.png · "+card.Size(len(p.Data))+" · 256×85 (scaled from 600×200)" {
		t.Errorf("want the line to say the scale, got %q", got)
	}
	jp, err := Prepare("tall.webp", testkit.ReadFile(t, "testdata/gradient.webp"), 32)
	if err != nil || jp.Ref.MediaType != "image/jpeg" || jp.Ref.Width != 32 || jp.Ref.Height != 24 {
		t.Fatalf("want a scaled WebP re-encoded as a 32×24 JPEG, got %+v (%v)", jp.Ref, err)
	}
}

func TestPrepareRefusesWhatIsNoImage(t *testing.T) {
	if _, err := Prepare("notes.png", []byte("just text"), 2048); err == nil || err.Error() != "notes.png is not a PNG, JPEG, GIF or WebP image" {
		t.Fatalf("want a clear refusal, got %v", err)
	}
	if _, err := Prepare("cut.png", picture(t, 10, 10, pngOf)[:20], 2048); err == nil {
		t.Fatal("want a damaged image refused")
	}
}

func TestStoreKeepsOneCopyOfTheSameImage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "images")
	s := NewStore(dir)
	p, _ := Prepare("a.png", picture(t, 8, 8, pngOf), 0)
	r1, err := s.Put(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Ref.Name = "copy of a.png"
	r2, err := s.Put(p)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if r1.Hash != r2.Hash || len(entries) != 1 {
		t.Fatalf("want one stored file for the same bytes, got hashes %s %s and %d files", r1.Hash, r2.Hash, len(entries))
	}
	got, err := s.Get(r1.Hash)
	if err != nil || !bytes.Equal(got, p.Data) {
		t.Fatalf("want the stored bytes back, got %v", err)
	}
	if _, err := s.Get("../../etc/passwd"); err == nil {
		t.Fatal("want a non-hash refused")
	}
}

func TestMentionsFindExistingImageFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"shot.png", "arch diagram.webp", "notes.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	got := Mentions(`see @shot.png, and @"arch diagram.webp" (also @missing.png, @notes.txt, me@shot.png) @shot.png`, dir)
	want := []string{filepath.Join(dir, "shot.png"), filepath.Join(dir, "arch diagram.webp")}
	if !slices.Equal(got, want) {
		t.Fatalf("want %v, got %v", want, got)
	}
}

func TestPastedPathRecognisesDraggedFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "my shot.png"), []byte("x"), 0o644)
	abs := filepath.Join(dir, "my shot.png")
	for _, paste := range []string{abs, "'" + abs + "'", "file://" + abs, filepath.Join(dir, `my\ shot.png`) + "\n"} {
		if got := PastedPath(paste, dir); got != abs {
			t.Errorf("paste %q: want %s, got %q", paste, abs, got)
		}
	}
	for _, paste := range []string{"hello world", abs + "\nmore", filepath.Join(dir, "none.png")} {
		if got := PastedPath(paste, dir); got != "" {
			t.Errorf("paste %q: want no image, got %q", paste, got)
		}
	}
}
