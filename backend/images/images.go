// Package images prepares images for a model and keeps them for a session:
// it recognises PNG, JPEG, GIF and WebP, scales down what is larger than
// the model takes, and stores each image once, content-addressed, in the
// session's image directory. Session events carry only references
// (session.ImageRef).
package images

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/session"
)

// MaxFileBytes is the largest image file tack reads.
const MaxFileBytes = 20 << 20

// formats maps a sniffed format to its media type and decoders.
var formats = map[string]struct {
	mediaType string
	config    func([]byte) (image.Config, error)
	decode    func([]byte) (image.Image, error)
}{
	"png":  {"image/png", cfgOf(png.DecodeConfig), imgOf(png.Decode)},
	"jpeg": {"image/jpeg", cfgOf(jpeg.DecodeConfig), imgOf(jpeg.Decode)},
	"gif":  {"image/gif", cfgOf(gif.DecodeConfig), imgOf(gif.Decode)},
	"webp": {"image/webp", cfgOf(webp.DecodeConfig), imgOf(webp.Decode)},
}

// Sniff names the image format of data ("png", "jpeg", "gif", "webp"), or
// "" when it is none of them.
func Sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "jpeg"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "gif"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// IsImageName reports whether a file name has an image extension tack
// reads.
func IsImageName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

// Prepared is an image ready to store: bytes as the model will get them.
type Prepared struct {
	Data []byte
	Ref  session.ImageRef // without Hash until stored
}

// Prepare checks that data is an image tack reads and scales it down so
// that neither side exceeds maxSide pixels (a scaled image is re-encoded:
// PNG for PNG and GIF, JPEG otherwise). name is shown on screen.
func Prepare(name string, data []byte, maxSide int) (Prepared, error) {
	kind := Sniff(data)
	f, ok := formats[kind]
	if !ok {
		return Prepared{}, fmt.Errorf("%s is not a PNG, JPEG, GIF or WebP image", name)
	}
	cfg, err := f.config(data)
	if err != nil {
		return Prepared{}, fmt.Errorf("%s is a damaged %s image: %v", name, strings.ToUpper(kind), err)
	}
	ref := session.ImageRef{Name: name, MediaType: f.mediaType, Width: cfg.Width, Height: cfg.Height, Bytes: len(data)}
	if maxSide <= 0 || (cfg.Width <= maxSide && cfg.Height <= maxSide) {
		return Prepared{Data: data, Ref: ref}, nil
	}
	src, err := f.decode(data)
	if err != nil {
		return Prepared{}, fmt.Errorf("%s is a damaged %s image: %v", name, strings.ToUpper(kind), err)
	}
	w, h := fit(cfg.Width, cfg.Height, maxSide)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.BiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	var buf bytes.Buffer
	if kind == "png" || kind == "gif" {
		ref.MediaType = "image/png"
		err = png.Encode(&buf, dst)
	} else {
		ref.MediaType = "image/jpeg"
		err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
	}
	if err != nil {
		return Prepared{}, fmt.Errorf("scale %s: %v", name, err)
	}
	ref.OrigWidth, ref.OrigHeight = ref.Width, ref.Height
	ref.Width, ref.Height, ref.Bytes = w, h, buf.Len()
	return Prepared{Data: buf.Bytes(), Ref: ref}, nil
}

// fit scales w×h so the longer side is max, keeping the aspect ratio.
func fit(w, h, max int) (int, int) {
	if w >= h {
		return max, maxInt(1, h*max/w)
	}
	return maxInt(1, w*max/h), max
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Store keeps a session's images, one file per distinct content. Every
// model request sends the history's images again, so Get keeps the most
// recent ones in memory. It is safe for concurrent use.
type Store struct {
	dir string

	mu     sync.Mutex
	recent map[string][]byte
	order  []string // recent's keys, oldest first
}

// recentImages is how many images Get keeps in memory.
const recentImages = 16

// NewStore is the store in dir (session.ImageDir of the log); the
// directory is made on the first Put.
func NewStore(dir string) *Store { return &Store{dir: dir, recent: map[string][]byte{}} }

// Dir is where the images are kept.
func (s *Store) Dir() string { return s.dir }

// Put stores p unless the same bytes are stored already, and returns its
// reference.
func (s *Store) Put(p Prepared) (session.ImageRef, error) {
	sum := sha256.Sum256(p.Data)
	ref := p.Ref
	ref.Hash = hex.EncodeToString(sum[:])
	path := s.path(ref.Hash)
	if _, err := os.Stat(path); err == nil {
		return ref, nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return ref, fmt.Errorf("store image %s: %w", p.Ref.Name, err)
	}
	tmp, err := os.CreateTemp(s.dir, ".put-*")
	if err != nil {
		return ref, fmt.Errorf("store image %s: %w", p.Ref.Name, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(p.Data); err != nil {
		tmp.Close()
		return ref, fmt.Errorf("store image %s: %w", p.Ref.Name, err)
	}
	if err := tmp.Close(); err != nil {
		return ref, fmt.Errorf("store image %s: %w", p.Ref.Name, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return ref, fmt.Errorf("store image %s: %w", p.Ref.Name, err)
	}
	return ref, nil
}

// PutFile reads, scales (see Prepare) and stores one image file; name is
// how the screen names it.
func (s *Store) PutFile(path, name string, maxSide int) (session.ImageRef, error) {
	info, err := os.Stat(path)
	if err != nil {
		return session.ImageRef{}, fmt.Errorf("cannot read image %s: %w", name, err)
	}
	if info.Size() > MaxFileBytes {
		return session.ImageRef{}, fmt.Errorf("image %s is %d MB; tack reads images up to %d MB", name, info.Size()>>20, MaxFileBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return session.ImageRef{}, fmt.Errorf("cannot read image %s: %w", name, err)
	}
	p, err := Prepare(name, data, maxSide)
	if err != nil {
		return session.ImageRef{}, err
	}
	return s.Put(p)
}

// Get reads the stored bytes of hash.
func (s *Store) Get(hash string) ([]byte, error) {
	if len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("%q is not an image hash", hash)
	}
	s.mu.Lock()
	data, ok := s.recent[hash]
	s.mu.Unlock()
	if ok {
		return data, nil
	}
	data, err := os.ReadFile(s.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("image %s… is missing from %s", hash[:12], s.dir)
	}
	if err != nil {
		return nil, err
	}
	s.remember(hash, data)
	return data, nil
}

func (s *Store) remember(hash string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.recent[hash]; ok {
		return
	}
	if len(s.order) >= recentImages {
		delete(s.recent, s.order[0])
		s.order = s.order[1:]
	}
	s.recent[hash] = data
	s.order = append(s.order, hash)
}

func (s *Store) path(hash string) string { return filepath.Join(s.dir, hash) }

// Describe is the one-line description of an image: name, size and
// dimensions, and the original dimensions when it was scaled.
func Describe(r session.ImageRef) string {
	out := fmt.Sprintf("%s · %s · %d×%d", r.Name, card.Size(r.Bytes), r.Width, r.Height)
	if r.OrigWidth > 0 {
		out += fmt.Sprintf(" (scaled from %d×%d)", r.OrigWidth, r.OrigHeight)
	}
	return out
}

func cfgOf(f func(r io.Reader) (image.Config, error)) func([]byte) (image.Config, error) {
	return func(b []byte) (image.Config, error) { return f(bytes.NewReader(b)) }
}

func imgOf(f func(r io.Reader) (image.Image, error)) func([]byte) (image.Image, error) {
	return func(b []byte) (image.Image, error) { return f(bytes.NewReader(b)) }
}
